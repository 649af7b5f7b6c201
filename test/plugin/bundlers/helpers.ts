import type { Buffer } from 'node:buffer'
import type { Diagnostic, Options, SkillsManifest } from '../../../src/index'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const REPO = fileURLToPath(new URL('../../..', import.meta.url))
/** The built package (`npm test` builds it first). SKILLS_DIST points elsewhere while dist is being rebuilt. */
export const DIST = process.env.SKILLS_DIST ? path.resolve(process.env.SKILLS_DIST) : path.join(REPO, 'dist')
export const FIXTURE = path.join(REPO, 'test/fixtures/bundlers/app')
/** Options every bundler test passes; the CLI gets the same through flags. */
export const OPTIONS = { profile: 'agentskills' } as const satisfies Options

/** Imports a module of the built package, typed from its source. */
export async function fromDist<T>(file: string): Promise<T> {
  return import(pathToFileURL(path.join(DIST, file)).href) as Promise<T>
}

export const engineModule = (): Promise<typeof import('../../../src/index')> => fromDist('index.mjs')

/** A fresh copy of the fixture app in a temp dir. */
export function makeApp(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `skills-${label}-`))
  fs.cpSync(FIXTURE, dir, { recursive: true })
  return dir
}

export function removeDir(dir: string | undefined): void {
  if (dir)
    fs.rmSync(dir, { recursive: true, force: true })
}

/** Writes `.manifest.lock` for the app as it is now. */
export async function lockApp(dir: string, options: Options = OPTIONS): Promise<void> {
  const { SkillsEngine } = await engineModule()
  const audit = await new SkillsEngine({ ...options, root: dir }).audit({ updateLock: true })
  if (!audit.ok)
    throw new Error(`fixture does not audit cleanly: ${audit.diagnostics.map(d => d.code).join(', ')}`)
}

/** What a fresh engine says about the app: the reference every bundler must reproduce. */
export async function engineAudit(
  dir: string,
  options: Options = OPTIONS,
): Promise<{ manifest: SkillsManifest, json: string, diagnostics: Diagnostic[] }> {
  const { SkillsEngine } = await engineModule()
  const audit = await new SkillsEngine({ ...options, root: dir }).audit()
  // The complete manifest (discovery index included) is what skills_manifest.json and loadManifest() carry.
  const { manifest, json } = await audit.complete()
  return { manifest, json, diagnostics: audit.diagnostics }
}

/** `unplugin-skills build` of the app, into a file outside it: the bytes the plugins must emit. */
export async function cliBuild(dir: string): Promise<Buffer> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skills-cli-')), 'skills_manifest.json')
  try {
    await run(process.execPath, [
      path.join(DIST, 'cli.mjs'),
      'build',
      '--cwd',
      dir,
      '--profile',
      OPTIONS.profile,
      '--out',
      out,
    ])
    return fs.readFileSync(out)
  }
  finally {
    removeDir(path.dirname(out))
  }
}

export interface RunResult {
  /** The default export. */
  manifest: SkillsManifest
  skills: SkillsManifest['skills']
  /** `await loadManifest()`. */
  full: SkillsManifest
  /** `await getSkill(name).load()` for every skill. */
  loaded: Record<string, unknown>
  unknown: unknown
}

const RUNNER = `
const { pathToFileURL } = await import('node:url')
const mod = await import(pathToFileURL(process.argv[1]).href)
const api = typeof mod.loadManifest === 'function' ? mod : mod.default
const loaded = {}
for (const skill of api.skills) loaded[skill.name] = await api.getSkill(skill.name).load()
const out = {
  manifest: api.manifest,
  skills: api.skills,
  full: await api.loadManifest(),
  loaded,
  unknown: api.getSkill('no-such-skill') ?? null,
}
process.stdout.write(JSON.stringify(out))
`

/** Runs a built bundle in a separate Node process (no test-runner module hooks) and returns what it exports. */
export async function runOutput(file: string): Promise<RunResult> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', RUNNER, file], {
    maxBuffer: 64 * 1024 * 1024,
  })
  return JSON.parse(stdout) as RunResult
}

/** Edits a locked file: the next build must fail with a drift report. */
export function driftApp(dir: string): void {
  fs.appendFileSync(path.join(dir, 'skills/pdf-tools/references/layout.md'), 'Rotated pages are read after rotation.\n')
}

/** Adds a skill whose frontmatter name differs from its folder (an error with line, column and hint). */
export function breakApp(dir: string): void {
  fs.mkdirSync(path.join(dir, 'skills/broken'))
  fs.writeFileSync(
    path.join(dir, 'skills/broken/SKILL.md'),
    '---\nname: brokn\ndescription: Fails the audit on purpose. Use never.\n---\n# Broken\n',
  )
}

/** Text of whatever a rejected build threw, as the user sees it. */
export function errorText(error: unknown): string {
  if (error instanceof Error)
    return error.message
  return String(error)
}

/** Lines that look like a JS stack trace. */
export const STACK_LINE = /^\s*at .+[(:]\d+/m

/** `pdf-tools` body and reference sentences: they must stay out of the entry chunk. */
export const BODY_SENTENCE = 'Keep page numbers next to each extracted block.'
export const REFERENCE_SENTENCE = 'Multi-column pages read left column first'

/** Contents of every file under `dir`, by relative path. */
export function readOutputs(dir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile())
      continue
    const abs = path.join(entry.parentPath, entry.name)
    files.set(path.relative(dir, abs), fs.readFileSync(abs, 'utf8'))
  }
  return files
}

/** esbuild options for the fixture app in `dir` (one-shot builds and watch mode share them). */
export function esbuildAppOptions(
  dir: string,
  outdir: string,
  plugins: import('esbuild').Plugin[],
): import('esbuild').BuildOptions {
  return {
    entryPoints: [path.join(dir, 'main.js')],
    absWorkingDir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir,
    logLevel: 'silent',
    plugins,
  }
}
