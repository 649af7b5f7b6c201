import type { ParseArgsConfig } from 'node:util'
import type { AuditResult } from './audit/engine'
import type { SkillLine } from './core/format'
import type { Options } from './core/options'
import type { Diagnostic, Profile } from './core/types'
import path from 'node:path'
import process from 'node:process'
import { parseArgs } from 'node:util'
import pkg from '../package.json'
import { SkillsEngine } from './audit/engine'
import { describeDrift } from './audit/lockfile'
import { capabilityReview, policyListing } from './audit/review'
import { toSarif } from './audit/sarif'
import { ConfigError, loadConfig } from './core/config'
import { formatDiagnostic, formatReport, PREFIX } from './core/format'
import { writeIfChanged } from './core/fs'
import { endTiming, formatTimings, startTiming, startTimings, stopTimings } from './core/timings'
import { didYouMean, OptionsError } from './core/validate-options'

const COMMON = {
  'root': { type: 'string', multiple: true, short: 'r' },
  'cwd': { type: 'string' },
  'config': { type: 'string', short: 'c' },
  'profile': { type: 'string' },
  'lock-file': { type: 'string' },
  'color': { type: 'boolean' },
  'no-color': { type: 'boolean' },
  'no-cache': { type: 'boolean' },
  'help': { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options']

const COMMON_USAGE = `  -r, --root DIR        skills root (repeatable; path, file:// or pkg://). Default: skills
      --cwd DIR         project root. Default: the current directory
  -c, --config FILE     options file. Default: skills.config.{ts,mts,cts,mjs,js,cjs,json} in the project root
      --profile NAME    enterprise (default) or agentskills
      --lock-file FILE  lock path. Default: .manifest.lock
      --no-cache        check every skill anew (no results kept from earlier runs)`

/** Closes each command's help: `--cwd` decides where relative paths go, not the shell's current directory. */
const PATHS_USAGE = `Relative paths (-r, -c, --lock-file, -o, --out) resolve against the project root (--cwd),
not the current directory, as the same paths in skills.config.* do.`

const COMMANDS = {
  check: {
    options: {
      ...COMMON,
      format: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      verbose: { type: 'boolean', short: 'v' },
      timings: { type: 'boolean' },
    },
    usage: `Usage: unplugin-skills check [options]

Discover, validate, hash and scan every skill and verify .manifest.lock (check never writes it: a missing
lock is a warning, an error in CI; \`unplugin-skills lock\` creates it).
Exit code: 0 when there is no error, 1 when there is any, 2 on bad usage.

Options:
${COMMON_USAGE}
  -f, --format FORMAT   text (default), json or sarif
  -o, --output FILE     write the report to FILE (text: its errors and summary line are still printed)
  -v, --verbose         every warning with its code frame and hint, no repeat folded
      --timings         print to stderr where the check spent its time, by phase and rule
      --no-color        plain text
  -h, --help            this help

${PATHS_USAGE}`,
  },
  lock: {
    options: { ...COMMON, force: { type: 'boolean' } },
    usage: `Usage: unplugin-skills lock [options]

Create or update .manifest.lock from the skills as they are, and print what changed. The lock is written even
when skills have errors (it records what is there), but the exit code says so.
Exit code: 0 when there is no error, 1 when there is any, 2 on bad usage.

Options:
${COMMON_USAGE}
      --force           replace a lock that is unreadable or hand-broken
  -h, --help            this help

${PATHS_USAGE}`,
  },
  build: {
    options: { ...COMMON, out: { type: 'string' } },
    usage: `Usage: unplugin-skills build [options]

Audit the skills and write the pre-compiled skills_manifest.json (nothing is written on error). A missing
.manifest.lock is created when the audit passes (never in CI).
Exit code: 0 when there is no error, 1 when there is any, 2 on bad usage.

Options:
${COMMON_USAGE}
      --out FILE        output file. Default: skills_manifest.json in the project root
  -h, --help            this help

${PATHS_USAGE}`,
  },
} as const

const USAGE = `unplugin-skills ${pkg.version}: the build-time gate for AI agent skills

Usage: unplugin-skills <command> [options]

Commands:
  check   validate, scan and verify the lock (text, json or sarif report)
  lock    create or update .manifest.lock
  build   write skills_manifest.json

Run \`unplugin-skills <command> --help\` for the options of a command.`

class UsageError extends Error {}

/** parseArgs' "Unknown option '--no-cahce'", with the flag it was meant to be (`--no-cache`). */
function withNearFlag(message: string, flags: readonly string[]): string {
  const m = /^Unknown option '--([^'=]+)'/.exec(message)
  const near = m ? didYouMean(m[1]!, flags) : null
  return near ? `${message.replace(/\..*$/s, '')} (did you mean --${near}?)` : message
}

export async function main(argv: string[], io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [command, ...rest] = argv
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(`${USAGE}\n`)
    return command ? 0 : 2
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(`${pkg.version}\n`)
    return 0
  }
  if (!(command in COMMANDS)) {
    const near = didYouMean(command, Object.keys(COMMANDS))
    io.stderr.write(`${PREFIX} unknown command \`${command}\`${near ? ` (did you mean \`${near}\`?)` : ''}\n`
      + 'Run `unplugin-skills --help` for the commands.\n')
    return 2
  }
  const spec = COMMANDS[command as keyof typeof COMMANDS]
  try {
    let values: Record<string, unknown>
    try {
      values = parseArgs({ args: rest, options: spec.options, allowPositionals: false, strict: true }).values
    }
    catch (error) {
      throw new UsageError(withNearFlag((error as Error).message, Object.keys(spec.options)))
    }
    if (values.help) {
      io.stdout.write(`${spec.usage}\n`)
      return 0
    }
    const cwd = path.resolve(String(values.cwd ?? process.cwd()))
    const { options: fileOptions, file, diagnostics } = await loadConfig(cwd, values.config as string | undefined)
    const source = file ? path.basename(file) : 'options'
    const options: Options = { ...fileOptions, root: fileOptions.root ? path.resolve(cwd, fileOptions.root) : cwd }
    if (values.root)
      options.roots = values.root as string[]
    if (values.profile !== undefined) {
      if (values.profile !== 'enterprise' && values.profile !== 'agentskills')
        throw new UsageError(`--profile must be enterprise or agentskills, not ${values.profile}`)
      options.profile = values.profile as Profile
    }
    if (values['lock-file'])
      options.lockFile = values['lock-file'] as string
    if (values['no-cache'])
      options.cache = false
    const color = values['no-color'] ? false : values.color ? true : Boolean(io.stdout.isTTY) && !process.env.NO_COLOR
    if (command === 'check')
      return await check({ options, source, diagnostics }, values, color, io)
    if (command === 'lock')
      return await lock({ options, source, diagnostics }, Boolean(values.force), color, io)
    return await build({ options, source, diagnostics }, values.out as string | undefined, color, io)
  }
  catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${PREFIX} ${error.message}\nRun \`unplugin-skills ${command} --help\` for its options.\n`)
      return 2
    }
    if (error instanceof ConfigError || error instanceof OptionsError) {
      io.stderr.write(`${PREFIX} ${error.message}\n`)
      return 2
    }
    const stack = process.env.DEBUG ? `${(error as Error)?.stack}\n` : ''
    io.stderr.write(`${PREFIX} unexpected failure: ${(error as Error)?.message ?? error}\n${stack}`)
    return 1
  }
}

interface IO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream
}

/** Each audited skill with its detected capabilities, for the report's table. */
function skillLines(result: AuditResult): SkillLine[] {
  return result.manifest.skills.map(s => ({ name: s.name, capabilities: s.capabilities.detected }))
}

/** The options a command runs with, where they came from (for an invalid option's message), what loading saw. */
interface Run {
  options: Options
  source: string
  /** Problems found loading the config (another config file left unread), reported with the audit's. */
  diagnostics: Diagnostic[]
}

/** The engine of a command: `content` for what writes the manifest (see SkillsEngine). */
function engineOf({ options, source, diagnostics }: Run, content: boolean, lock?: Options['lock']): SkillsEngine {
  return new SkillsEngine(lock ? { ...options, lock } : options, { content, source, diagnostics })
}

/** Where a user-given output path goes: the project root, as for `--lock-file` and the config's paths. */
function outputPath(engine: SkillsEngine, file: string): string {
  return path.resolve(engine.options.root, file)
}

/**
 * Writes a report or a manifest where the user asked; a path that cannot take it (a directory, a folder without
 * write access) is a usage error that names it, not a failure of the check.
 */
function writeOutput(target: string, content: string): boolean {
  try {
    return writeIfChanged(target, content)
  }
  catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EISDIR')
      throw new UsageError(`cannot write ${userPath(target)} (it is a directory): give the path of a file`)
    throw new UsageError(`cannot write ${userPath(target)} (${code ?? (error as Error).message}): give a writable path`)
  }
}

/** A written file as the user reads it: relative to the current directory (absolute when it is that). */
function userPath(file: string): string {
  return path.relative(process.cwd(), file) || file
}

async function check(run: Run, values: Record<string, unknown>, color: boolean, io: IO): Promise<number> {
  const format = String(values.format ?? 'text')
  if (!['text', 'json', 'sarif'].includes(format))
    throw new UsageError(`--format must be text, json or sarif, not ${format}`)
  const timings = Boolean(values.timings)
  if (timings)
    startTimings()
  const started = performance.now()
  const engine = engineOf(run, false)
  const result = await engine.audit({ verifyLock: true })
  const reported = startTiming()
  let output: string
  if (format === 'json') {
    const report = {
      ok: result.ok,
      skills: result.manifest.skills.map(s => s.name),
      skillCount: result.stats.skills,
      diagnostics: result.diagnostics,
      overrides: result.manifest.skills.flatMap(s => s.overrides.map(o => ({ skill: s.name, ...o }))),
      suppressions: result.manifest.skills.flatMap(s => s.suppressions.map(x => ({ skill: s.name, ...x }))),
    }
    output = `${JSON.stringify(report, null, 2)}\n`
  }
  else if (format === 'sarif') {
    output = `${JSON.stringify(toSarif(result.diagnostics, { version: pkg.version }), null, 2)}\n`
  }
  else {
    output = policyListing(result.manifest.skills) + formatReport(result.diagnostics, result.stats.skills, {
      sources: result.sources,
      color: values.output ? false : color,
      verbose: Boolean(values.verbose),
      skills: skillLines(result),
    })
  }
  if (values.output) {
    const target = outputPath(engine, String(values.output))
    writeOutput(target, output)
    // The errors, and the summary line of the report written: it counts every diagnostic, as the file's does.
    if (format === 'text') {
      const errors = result.diagnostics.filter(d => d.severity === 'error')
      const counted = result.diagnostics
      io.stdout.write(formatReport(errors, result.stats.skills, { sources: result.sources, color, counted }))
    }
    io.stderr.write(`${PREFIX} ${result.ok ? 'ok' : 'failed'}: report written to ${userPath(target)}\n`)
  }
  else {
    io.stdout.write(output)
  }
  endTiming('report', reported)
  if (timings)
    io.stderr.write(`${formatTimings(stopTimings(), performance.now() - started)}\n`)
  return result.ok ? 0 : 1
}

async function lock(run: Run, force: boolean, color: boolean, io: IO): Promise<number> {
  const result = await engineOf(run, false, 'verify').audit({ updateLock: force ? 'force' : true })
  const { status, file, drift } = result.lock
  for (const d of result.diagnostics.filter(d => d.code.startsWith('config/')))
    io.stderr.write(`${formatDiagnostic(d, { color })}\n\n`)
  const problems = result.diagnostics.filter(d => d.code.startsWith('lock/') && d.severity === 'error')
  if (problems.length) {
    io.stderr.write(formatReport(problems, result.stats.skills, { sources: result.sources, color }))
    return 1
  }
  if (status === 'created') {
    io.stdout.write(`${PREFIX} created ${file} with ${result.stats.skills} skill(s), ${result.stats.files} file(s)\n`)
  }
  else if (status === 'updated') {
    const upgraded = result.lock.upgraded ? ' (upgraded to lockfileVersion 2, which records capabilities)' : ''
    const changes = drift.length ? `:\n${drift.map(describeDrift).join('\n')}` : ''
    io.stdout.write(`${PREFIX} updated ${file}${upgraded}${changes}\n`)
  }
  else {
    io.stdout.write(`${PREFIX} ${file} is up to date (${result.stats.skills} skill(s))\n`)
  }
  if (status === 'created' || status === 'updated') {
    const fresh = status === 'created' || Boolean(result.lock.upgraded)
    io.stdout.write(`\n${capabilityReview(result.manifest.skills, drift, fresh)}`)
  }
  // The lock records the tree as it is, errors and all; the exit code still fails a CI step on them (README).
  const errors = result.diagnostics.filter(d => d.severity === 'error').length
  if (!errors)
    return 0
  io.stderr.write(`${PREFIX} ${errors} error(s) remain in the skills; run \`unplugin-skills check\`\n`)
  return 1
}

async function build(run: Run, out: string | undefined, color: boolean, io: IO): Promise<number> {
  const engine = engineOf(run, true)
  const result: AuditResult = await engine.audit()
  const shown = result.diagnostics.filter(d => d.severity !== 'info' || d.code.startsWith('lock/'))
  if (!result.ok) {
    io.stderr.write(formatReport(shown, result.stats.skills, { sources: result.sources, color }))
    io.stderr.write(`${PREFIX} nothing written\n`)
    return 1
  }
  if (shown.length)
    io.stderr.write(formatReport(shown, result.stats.skills, { sources: result.sources, color }))
  const target = outputPath(engine, out ?? (engine.options.manifest || 'skills_manifest.json'))
  let json: string
  try {
    ;({ json } = await result.complete())
  }
  catch (error) {
    io.stderr.write(
      `${PREFIX} the discovery index could not be built: ${(error as Error).message}\n${PREFIX} nothing written\n`,
    )
    return 1
  }
  const changed = writeOutput(target, json)
  const size = `${result.stats.skills} skill(s), ${json.length} bytes`
  io.stdout.write(`${PREFIX} ${changed ? 'wrote' : 'unchanged'} ${userPath(target)} (${size})\n`)
  return 0
}
