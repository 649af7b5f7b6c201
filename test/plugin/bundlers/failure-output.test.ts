import type { Bundler } from './builds'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUNDLERS } from './builds'
import { breakApp, DIST, makeApp, removeDir, REPO } from './helpers'

const run = promisify(execFile)

/** The first line of the report and its summary: each must be printed exactly once. */
const FIRST_ERROR = 'error skill/name-mismatch skills/broken/SKILL.md:2:1'
const SUMMARY = '✖ 1 error, 0 warnings, 0 notes in 3 skills'
/** A stack frame as Node prints it. */
const FRAME = /^\s+at \S/m

const OPTIONS = JSON.stringify({ profile: 'agentskills', lock: false })
const plugin = (name: string): string => JSON.stringify(pathToFileURL(path.join(DIST, `${name}.mjs`)).href)
const bin = (name: string): string => path.join(REPO, 'node_modules/.bin', name)

/**
 * How a user runs each bundler: its own CLI where the repo has one, else the documented API pattern
 * (webpack and Rspack print `err` or the stats; esbuild prints its own messages).
 */
function projects(OPTIONS: string): Record<Bundler, { files: Record<string, string>, command: string[] }> {
  return {
    vite: {
      files: {
        'vite.config.mjs': `import skills from ${plugin('vite')}
export default { plugins: [skills(${OPTIONS})], build: { ssr: 'main.js', outDir: 'out' } }
`,
      },
      command: [bin('vite'), 'build'],
    },
    rollup: {
      files: {
        'rollup.config.mjs': `import skills from ${plugin('rollup')}
export default { input: 'main.js', plugins: [skills({ ...${OPTIONS}, root: process.cwd() })], output: { dir: 'out' } }
`,
      },
      command: [bin('rollup'), '-c'],
    },
    rolldown: {
      files: {
        'rolldown.config.mjs': `import skills from ${plugin('rolldown')}
export default { input: 'main.js', plugins: [skills(${OPTIONS})], output: { dir: 'out' } }
`,
      },
      command: [bin('rolldown'), '-c', 'rolldown.config.mjs'],
    },
    esbuild: {
      files: {
        'build.mjs': `import * as esbuild from 'esbuild'
import skills from ${plugin('esbuild')}
const options = { entryPoints: ['main.js'], bundle: true, format: 'esm', outdir: 'out' }
await esbuild.build({ ...options, plugins: [skills(${OPTIONS})] }).catch(() => process.exit(1))
`,
      },
      command: [process.execPath, 'build.mjs'],
    },
    webpack: {
      files: { 'build.mjs': statsScript(`import webpack from 'webpack'\nconst bundler = webpack`, 'webpack', OPTIONS) },
      command: [process.execPath, 'build.mjs'],
    },
    rspack: {
      files: { 'build.mjs': statsScript(`import { rspack as bundler } from '@rspack/core'`, 'rspack', OPTIONS) },
      command: [process.execPath, 'build.mjs'],
    },
  }
}

function statsScript(importLine: string, name: string, OPTIONS: string): string {
  return `${importLine}
import skills from ${plugin(name)}
const options = { mode: 'production', entry: './main.js', context: process.cwd() }
bundler({ ...options, plugins: [skills(${OPTIONS})] }, (err, stats) => {
  if (err) { console.error(err); process.exitCode = 1; return }
  console.log(stats.toString({ colors: false }))
  if (stats.hasErrors()) process.exitCode = 1
})
`
}

/** The app with its own node_modules (links to the repo's): the bundler's temp files stay in the app. */
function linkModules(dir: string): void {
  const modules = path.join(dir, 'node_modules')
  fs.mkdirSync(modules)
  for (const name of fs.readdirSync(path.join(REPO, 'node_modules')))
    fs.symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name))
}

const count = (text: string, part: string): number => text.split(part).length - 1

/** Builds the app in every bundler, as a user runs each: exit code and output, colours stripped. */
async function buildAll(
  name: string,
  options: string,
  prepare: (dir: string) => void,
  dirs: string[],
): Promise<Map<Bundler, { code: number, text: string }>> {
  const outputs = new Map<Bundler, { code: number, text: string }>()
  for (const bundler of BUNDLERS) {
    const dir = makeApp(`${bundler}-${name}`)
    dirs.push(dir)
    prepare(dir)
    linkModules(dir)
    const project = projects(options)[bundler]
    for (const [file, text] of Object.entries(project.files)) fs.writeFileSync(path.join(dir, file), text)
    const [command, ...args] = project.command
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' }
    const result = await run(command!, args, { cwd: dir, env }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number, stdout: string, stderr: string }) => error,
    )
    // eslint-disable-next-line no-control-regex -- colours some CLIs print anyway
    const text = `${result.stdout}\n${result.stderr}`.replace(/\x1B\[[\d;]*m/g, '')
    outputs.set(bundler, { code: result.code, text })
  }
  return outputs
}

describe('a failing build prints the report once, with no stack', () => {
  let outputs = new Map<Bundler, { code: number, text: string }>()
  const dirs: string[] = []

  beforeAll(async () => {
    outputs = await buildAll('output', OPTIONS, breakApp, dirs)
  }, 180_000)
  afterAll(() => dirs.forEach(removeDir))

  it.each(BUNDLERS)('%s', (bundler) => {
    const { code, text } = outputs.get(bundler)!
    expect(code, text).not.toBe(0)
    expect(count(text, FIRST_ERROR), text).toBe(1)
    expect(count(text, SUMMARY), text).toBe(1)
    expect(text).toContain('> 2 | name: brokn')
    expect(text).not.toMatch(FRAME)
    expect(text).not.toContain('[Getter/Setter]')
  })
})

describe('invalid options are printed once', () => {
  let outputs = new Map<Bundler, { code: number, text: string }>()
  const dirs: string[] = []
  const TYPO = 'profle: unknown option; did you mean "profile"?'

  beforeAll(async () => {
    outputs = await buildAll('typo', JSON.stringify({ profle: 'agentskills', lock: false }), () => {}, dirs)
  }, 180_000)
  afterAll(() => dirs.forEach(removeDir))

  it.each(BUNDLERS)('%s', (bundler) => {
    const { code, text } = outputs.get(bundler)!
    expect(code, text).not.toBe(0)
    expect(count(text, TYPO), text).toBe(1)
  })
})
