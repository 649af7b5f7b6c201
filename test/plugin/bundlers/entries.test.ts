import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { BUNDLERS } from './builds'
import { DIST } from './helpers'

const run = promisify(execFile)

// One Node process for all six entries: `require()` (a CommonJS config) and `import` must give the same plugin.
const PROBE = `
const { pathToFileURL } = require('node:url')
const path = require('node:path')
;(async () => {
  const report = {}
  for (const name of JSON.parse(process.argv[2])) {
    const file = path.join(process.argv[1], name + '.mjs')
    const required = require(file)
    const imported = (await import(pathToFileURL(file).href)).default
    const plugin = required({ roots: ['skills'] })
    const first = Array.isArray(plugin) ? plugin[0] : plugin
    report[name] = {
      required: typeof required,
      same: required === imported,
      plugin: typeof plugin,
      name: first && (first.name || first.constructor?.name),
    }
  }
  process.stdout.write(JSON.stringify(report))
})()
`

describe('bundler entries', () => {
  it('load from CommonJS (require) and ESM alike, and build a plugin', async () => {
    const { stdout } = await run(process.execPath, ['-e', PROBE, DIST, JSON.stringify(BUNDLERS)])
    const report = JSON.parse(stdout) as Record<
      string,
      { required: string, same: boolean, plugin: string, name: string }
    >
    expect(Object.keys(report)).toEqual([...BUNDLERS])
    for (const bundler of BUNDLERS) {
      expect(report[bundler], bundler).toMatchObject({ required: 'function', same: true, plugin: 'object' })
    }
    expect(report.vite.name).toBe('unplugin-skills')
    expect(report.rollup.name).toBe('unplugin-skills')
    expect(report.esbuild.name).toBe('unplugin-skills')
  })
})
