import type { Bundler } from './builds'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { builders } from './builds'
import { engineAudit, fromDist, makeApp, OPTIONS, removeDir, runOutput } from './helpers'

const run = promisify(execFile)
const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))
function app(label: string): string {
  const dir = makeApp(label)
  dirs.push(dir)
  return dir
}

describe('manifest option', () => {
  it('names the emitted file, sub-folder included', async () => {
    const dir = app('manifest-name')
    const built = await builders.rolldown(dir, { ...OPTIONS, lock: false, manifest: 'meta/skills.json' })
    expect(fs.readFileSync(path.join(built.outDir, 'meta/skills.json'), 'utf8')).toBe(
      (await engineAudit(dir, { ...OPTIONS, lock: false })).json,
    )
    expect(fs.existsSync(path.join(built.outDir, 'skills_manifest.json'))).toBe(false)
  })

  it('`false` emits nothing, and the virtual module still works', async () => {
    const dir = app('manifest-off')
    const built = await builders.webpack(dir, { ...OPTIONS, lock: false, manifest: false })
    expect(fs.readdirSync(built.outDir).filter(f => f.endsWith('.json'))).toEqual([])
    expect((await runOutput(built.entry)).skills.map(s => s.name)).toEqual(['pdf-tools', 'release-notes'])
  })

  it('warns when esbuild has no outdir instead of dropping the file silently', async () => {
    const esbuild = await import('esbuild')
    const { default: skills } = await fromDist<typeof import('../../../plugins/esbuild')>('esbuild.mjs')
    const dir = app('esbuild-outfile')
    const result = await esbuild.build({
      entryPoints: [path.join(dir, 'main.js')],
      absWorkingDir: dir,
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: path.join(dir, 'out/main.js'),
      logLevel: 'silent',
      plugins: [skills({ ...OPTIONS, lock: false })],
    })
    expect(result.warnings.map(w => w.text)).toEqual([
      'skills_manifest.json is not written: esbuild emits files only with `outdir` '
      + '(this build has `outfile` or none). Set `outdir`, or run `unplugin-skills build`.',
    ])
    expect(fs.readdirSync(path.join(dir, 'out'))).toEqual(['main.js'])
  })
})

describe('sub-path ids under the virtual: scheme', () => {
  // webpack rejects `virtual:` as an unknown URI scheme; the plugin rewrites it, sub-paths included.
  for (const bundler of ['webpack', 'rspack'] satisfies Bundler[]) {
    it(`${bundler} resolves virtual:skills-manifest/skill/<name>`, async () => {
      const dir = app(`subpath-${bundler}`)
      fs.appendFileSync(
        path.join(dir, 'main.js'),
        `export { default as pdf } from 'virtual:skills-manifest/skill/pdf-tools'\n`,
      )
      const built = await builders[bundler](dir, { ...OPTIONS, lock: false })
      const { stdout } = await run(process.execPath, [
        '-e',
        `process.stdout.write(JSON.stringify(require(${JSON.stringify(built.entry)}).pdf))`,
      ])
      const expected = (await engineAudit(dir, { ...OPTIONS, lock: false })).manifest.skills.find(
        s => s.name === 'pdf-tools',
      )
      expect(JSON.parse(stdout)).toEqual(expected)
    })
  }
})
