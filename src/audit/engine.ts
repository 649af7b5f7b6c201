import type { Options, ResolvedOptions } from '../core/options'
import type { Diagnostic, LockSkill, SkillsManifest } from '../core/types'
import type { ProcessedSkill } from './check-skill'
import type { Discovery, SkillLocation } from './discover'
import type { LockRead } from './lockfile'
import type { Scheduler } from './scheduler'
import type { LockOutcome } from './settle-lock'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import pkg from '../../package.json'
import { compareBytewise, diagnostic, hasErrors, sortDiagnostics } from '../core/diagnostics'
import { isInside, relativePosix } from '../core/fs'
import { resolveOptions } from '../core/options'
import { endTiming, startTiming, timed } from '../core/timings'
import { OptionsError } from '../core/validate-options'
import { buildDiscoveryIndex } from '../search'
import { processSkill, readHead, settleSkill, skillDirs, skillFiles } from './check-skill'
import { discover } from './discover'
import { SKILL_FILE } from './layout'
import { joinLock, lockDigest, lockedEntry, readLock } from './lockfile'
import { serializeManifest } from './manifest'
import { ruleProblems } from './policy'
import { ResultCache } from './result-cache'
import { loadScanner, ScannerNotLoaded } from './scanner-load'
import { inline } from './scheduler'
import { PoolScheduler } from './scheduler/pool'
import { loadCustomSchema } from './schema'
import { settleLock } from './settle-lock'

export type { LockStatus } from './settle-lock'

export const GENERATOR = `${pkg.name}@${pkg.version}`

/** Below this many skills a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 200

/**
 * After its first audit, an engine prunes the persistent cache once this many entries have been written:
 * a dev edit writes one, and walking the whole cache for it would cost more than the edit's audit.
 */
const PRUNE_EVERY = 256

export interface AuditRequest {
  /**
   * `dev`: lock drift is a warning (the lock is only updated on request). `build` (default): an error.
   */
  mode?: 'build' | 'dev'
  /** Absolute paths known to have changed since the last audit: only their skills are re-read. */
  changed?: readonly string[]
  /**
   * Write the lock even if `options.lock` is `verify` (the CLI's `lock` command). `force` also replaces a
   * corrupt lock.
   */
  updateLock?: boolean | 'force'
  /**
   * Only verify the lock (`check`): it is never written, a missing lock is one notice (an error in CI), and
   * drift is reported whatever `options.lock` says. Without this or `updateLock` the audit is a build's: it
   * creates a missing lock, and applies `lock: 'update'`, only when it passes.
   */
  verifyLock?: boolean
}

export interface AuditResult {
  /** No error-severity diagnostic. */
  ok: boolean
  diagnostics: Diagnostic[]
  manifest: SkillsManifest
  /**
   * The complete manifest, JIT discovery index included, and its `skills_manifest.json` bytes.
   * Built on first call and cached by content: `check` and dev re-audits never pay for it.
   */
  complete: () => Promise<{ manifest: SkillsManifest, json: string }>
  /** The `.manifest.lock` text that describes the tree as it is now. */
  lockText: string
  lock: LockOutcome
  /** Text of files that have diagnostics, keyed by project-relative path, for code frames. */
  sources: Map<string, string>
  watch: { files: string[], dirs: string[] }
  /** `reused`: skills taken from the cache unread; `parallel`: skills audited by worker threads. */
  stats: { skills: number, files: number, bytes: number, reused: number, parallel: number }
}

/** What one audit reads before it checks skills, and the diagnostics that belong to no skill. */
interface AuditRun {
  request: AuditRequest
  lockRead: LockRead | null
  /** The lock's project-relative path. */
  lockDisplay: string
  customSchema: Record<string, unknown> | null
  /** Discovery, the custom schema, duplicate names, the lock. */
  global: Diagnostic[]
}

/** A cached result and the locked entry it was compared with (the same object while the lock file is unchanged). */
interface CachedSkill {
  skill: ProcessedSkill
  against: LockSkill | null | undefined
}

/** The checked skills of one audit, sorted by name, and how they were had. */
interface Checked {
  skills: ProcessedSkill[]
  reused: number
  parallel: number
}

/** What a caller needs of the engine (see the constructor). */
export interface EngineSettings {
  content?: boolean
  scan?: boolean
  parallelFrom?: number
  source?: string
  diagnostics?: readonly Diagnostic[]
}

/**
 * The engine: one instance per plugin instance or CLI run. `audit()` may be called again and again
 * (watch rebuilds, dev edits): skills whose files are unchanged (path, size, mtime) are not read again.
 */
export class SkillsEngine {
  readonly options: ResolvedOptions
  private readonly content: boolean
  private readonly scan: boolean
  private readonly parallelFrom: number
  /** Per skill directory, its last result. */
  private cache = new Map<string, CachedSkill>()
  private discovery: Discovery | null = null
  private lockCache: { stamp: string, read: LockRead } | null = null
  private indexCache: { key: string, index: Promise<SkillsManifest['index']> } | null = null
  /** The persistent cache, shared with other processes (null: `cache: false`). */
  private readonly results: ResultCache | null
  private pruned = false
  /** `settings.diagnostics`: part of every audit's project-level diagnostics. */
  private readonly before: readonly Diagnostic[]

  /**
   * @param options the plugin's options.
   * @param settings what this caller needs of the engine.
   * @param settings.content embed reference/example/scenario texts in the manifest (builds do; `check` needn't).
   * @param settings.scan run the security scanner (benchmarks switch it off to measure its share).
   * @param settings.parallelFrom fewest skills for a cold audit to share them with worker threads (tests lower it).
   * @param settings.source where the options came from, for an `OptionsError` (`skills.config.json`).
   * @param settings.diagnostics project-level problems found before the engine (a config file left unread):
   * every audit reports them, so `check`, builds and the dev server all say it.
   */
  constructor(options: Options = {}, settings: EngineSettings = {}) {
    this.options = resolveOptions(options, process.env, settings.source)
    const problems = ruleProblems(this.options)
    if (problems.length)
      throw new OptionsError(problems, settings.source ?? 'plugin options')
    this.content = settings.content ?? true
    this.scan = settings.scan ?? true
    this.parallelFrom = settings.parallelFrom ?? PARALLEL_FROM
    this.results = this.options.cache ? new ResultCache(this.options.cacheDir) : null
    this.before = settings.diagnostics ?? []
  }

  /** Whether a path can affect the audit (inside a skills root, or the lock). */
  isRelevant(file: string): boolean {
    const abs = path.resolve(file)
    if (abs === this.options.lockFile)
      return true
    return (this.discovery?.roots ?? []).some(r => isInside(r.dir, abs))
  }

  /** discover -> check each skill (cached, through the scheduler) -> duplicates -> lock -> manifest. */
  async audit(request: AuditRequest = {}): Promise<AuditResult> {
    const discovering = startTiming()
    const discovery = await this.discover(request.changed)
    endTiming('discover', discovering)
    const run = this.begin(request, discovery)
    const checked = await this.checkSkills(discovery.skills, run)
    const duplicates = findDuplicates(checked.skills, run.global)
    const skillNames = new Set(checked.skills.map(s => s.name))
    const settled = checked.skills.map(s => settleSkill(s, skillNames))
    const lockEntries = checked.skills.map(s => s.lockEntryText)
    // The lock text is only built when it is written or asked for: `check` digests it piece by piece.
    let lockText: string | undefined
    const lockTextOf = (): string => (lockText ??= joinLock(lockEntries))
    const lock = timed('lock', () => this.settleLock(run, checked.skills, lockTextOf, {
      unsafe: duplicates || hasErrors(discovery.diagnostics),
      failing: hasErrors(run.global) || settled.some(s => hasErrors(s.diagnostics)),
      // Each configured root resolves to one entry of `discovery.roots`, or to an error.
      partial: discovery.roots.length < this.options.roots.length,
    }))
    const input = { run, discovery, checked, settled, lockEntries, lockText: lockTextOf, lock }
    return timed('manifest', () => this.result(input))
  }

  /** The lock as read (cached while the file is unchanged) and the custom schema, for this audit. */
  private begin(request: AuditRequest, discovery: Discovery): AuditRun {
    const { options } = this
    const lockDisplay = relativePosix(options.root, options.lockFile)
    const lockRead = options.lock === false ? null : this.readLockCached(lockDisplay)
    const global = [...this.before, ...discovery.diagnostics]
    const customSchema = loadCustomSchema(options.schema, options.root, global)
    return { request, lockRead, lockDisplay, customSchema, global }
  }

  /** The skill folders: found again unless every changed path is inside a known skill (a dev edit). */
  private async discover(changed: readonly string[] | undefined): Promise<Discovery> {
    if (!this.discovery || !changed || changed.some(f => this.changesLayout(f)))
      this.discovery = await discover(this.options)
    return this.discovery
  }

  /**
   * Each skill checked once and only its results kept: what needs every skill's name (scenarios'
   * expected skills) is settled afterwards, so no skill waits in memory.
   */
  private async checkSkills(locations: readonly SkillLocation[], run: AuditRun): Promise<Checked> {
    const { changed } = run.request
    const dirty = changed ? new Set(changed.map(f => path.resolve(f))) : null
    const scheduler = this.scheduler(locations.length, run)
    // Worker threads check a cold audit: every skill is scanned (and the threads load the scanner themselves).
    if (scheduler !== inline)
      await loadScanner()
    const scheduled = await scheduler.run(locations, location => this.checkHere(location, run, dirty))
    this.prune(scheduled.elsewhere > 0)
    const previous = this.cache
    this.cache = new Map()
    let reused = 0
    for (const skill of scheduled.skills) {
      if (previous.get(skill.location.dir)?.skill === skill)
        reused++
      this.cache.set(skill.location.dir, { skill, against: lockedEntry(run.lockRead, skill.name) })
    }
    const skills = scheduled.skills.sort(
      (a, b) => compareBytewise(a.name, b.name) || compareBytewise(a.location.relDir, b.location.relDir),
    )
    return { skills, reused, parallel: scheduled.elsewhere }
  }

  /** Bounds the persistent cache after the first audit that wrote to it (workers may have), then now and then. */
  private prune(workersRan: boolean): void {
    const { results } = this
    if (!results || !(results.written > 0 || workersRan))
      return
    if (!this.pruned || results.written >= PRUNE_EVERY) {
      this.pruned = true
      results.prune()
    }
  }

  /**
   * Worker threads only when configured and worth their start-up: a cold audit (nothing cached) of
   * many skills, with the scanner on (without it, benches only, a skill is too cheap to send).
   */
  private scheduler(count: number, run: AuditRun): Scheduler {
    const { options } = this
    if (options.workers < 1 || !this.scan || this.cache.size > 0 || count < Math.max(1, this.parallelFrom))
      return inline
    // Resolvers and the embedding function are functions, and only discovery and the index use them.
    const portable = { ...options, resolvers: {}, embed: null }
    const lock = run.lockRead?.status === 'ok' ? { text: run.lockRead.text, display: run.lockDisplay } : null
    const settings = { options: portable, customSchema: run.customSchema, lock, content: this.content, scan: this.scan }
    return new PoolScheduler(options.workers, settings)
  }

  /** One skill, here; the first that has to be scanned waits for the scanner to load, then is checked again. */
  private checkHere(
    location: SkillLocation,
    run: AuditRun,
    dirty: ReadonlySet<string> | null,
  ): ProcessedSkill | Promise<ProcessedSkill> {
    try {
      return this.checkOne(location, run, dirty)
    }
    catch (error) {
      if (!(error instanceof ScannerNotLoaded))
        throw error
      return loadScanner().then(() => this.checkOne(location, run, dirty))
    }
  }

  /** One skill, here: its cached result while its files and locked entry are unchanged, else checked anew. */
  private checkOne(location: SkillLocation, run: AuditRun, dirty: ReadonlySet<string> | null): ProcessedSkill {
    const cached = this.cache.get(location.dir)
    const valid = cached && this.stillLocked(cached, run.lockRead) ? cached.skill : undefined
    if (valid && dirty && !touches(dirty, location.dir))
      return valid
    const head = readHead(location, valid && { fingerprint: valid.fingerprint, name: valid.name })
    if (valid && valid.fingerprint === head.fingerprint)
      return valid
    return processSkill(head, {
      options: this.options,
      lock: run.lockRead,
      content: this.content,
      scan: this.scan,
      customSchema: run.customSchema,
      cache: this.results,
    })
  }

  /** Whether a cached result was compared with the skill's locked entry as it is now (by value, then adopted). */
  private stillLocked(cached: CachedSkill, lockRead: LockRead | null): boolean {
    const locked = lockedEntry(lockRead, cached.skill.name)
    if (cached.against === locked)
      return true
    if (!cached.against || !locked || JSON.stringify(cached.against) !== JSON.stringify(locked))
      return false
    cached.against = locked
    return true
  }

  /** Verifies, creates or updates the lock per the options (`settle-lock.ts`). */
  private settleLock(
    run: AuditRun,
    skills: ProcessedSkill[],
    text: () => string,
    state: { unsafe: boolean, failing: boolean, partial: boolean },
  ): LockOutcome {
    const { options } = this
    const { request } = run
    const by = request.updateLock ? 'lock' : request.verifyLock ? 'verify' : 'build'
    const { lock, written } = settleLock(
      {
        read: run.lockRead,
        lockFile: options.lockFile,
        display: run.lockDisplay,
        text,
        skills,
        ...state,
        by,
        update: by === 'lock' || (by === 'build' && options.lock === 'update'),
        force: request.updateLock === 'force',
        ci: options.ci,
        mode: request.mode ?? 'build',
      },
      run.global,
    )
    if (written)
      this.lockCache = null
    return lock
  }

  /** The manifest, the sorted diagnostics and what callers read lazily (lock text, watch lists, full manifest). */
  private result(input: {
    run: AuditRun
    discovery: Discovery
    checked: Checked
    settled: ReturnType<typeof settleSkill>[]
    lockEntries: string[]
    lockText: () => string
    lock: LockOutcome
  }): AuditResult {
    const { run, discovery, lock, lockText, settled } = input
    const { skills } = input.checked
    const { options } = this
    const diagnostics = sortDiagnostics([...run.global, ...settled.flatMap(s => s.diagnostics)])
    const manifest: SkillsManifest = {
      manifestVersion: 1,
      generator: GENERATOR,
      lockDigest: lockDigest(input.lockEntries),
      profile: options.profile,
      skills: settled.map(s => s.manifest),
    }
    const sources = new Map<string, string>()
    for (const s of skills) {
      for (const [file, text] of s.sources) sources.set(file, text)
    }
    // The lock's text for the code frame of a drift, outdated or corrupt lock.
    const lockSource = run.lockRead?.status === 'missing' ? undefined : run.lockRead?.text
    if (lockSource !== undefined)
      sources.set(run.lockDisplay, lockSource)

    let completed: Promise<{ manifest: SkillsManifest, json: string }> | undefined
    const complete = (): Promise<{ manifest: SkillsManifest, json: string }> =>
      (completed ??= this.index(manifest).then((index) => {
        const full: SkillsManifest = { ...manifest, index }
        return { manifest: full, json: serializeManifest(full) }
      }))
    let watch: AuditResult['watch'] | undefined
    return {
      complete,
      ok: !hasErrors(diagnostics),
      diagnostics,
      manifest,
      get lockText() {
        return lockText()
      },
      lock,
      sources,
      // Built when a bundler asks: `check` needn't hold 10 absolute paths per skill.
      get watch() {
        return (watch ??= {
          files: [...skills.flatMap(skillFiles), options.lockFile],
          dirs: [...new Set([...discovery.dirs, ...skills.flatMap(skillDirs)])],
        })
      },
      stats: {
        skills: skills.length,
        files: skills.reduce((n, s) => n + s.manifest.files.length, 0),
        bytes: skills.reduce((n, s) => n + s.manifest.files.reduce((m, f) => m + f.size, 0), 0),
        reused: input.checked.reused,
        parallel: input.checked.parallel,
      },
    }
  }

  /** The discovery index of a manifest, rebuilt only when the skills' content (the lock digest) changes. */
  private index(manifest: SkillsManifest): Promise<SkillsManifest['index']> {
    const key = manifest.lockDigest
    if (this.indexCache?.key !== key) {
      const index = buildDiscoveryIndex(manifest.skills, { embed: this.options.embed })
      this.indexCache = { key, index }
      index.catch(() => (this.indexCache = null))
    }
    return this.indexCache.index
  }

  /** A created/deleted SKILL.md or a path under a root but outside every known skill changes the skill set. */
  private changesLayout(file: string): boolean {
    const abs = path.resolve(file)
    if (path.basename(abs) === SKILL_FILE)
      return !fs.existsSync(abs) || !this.cache.has(path.dirname(abs))
    if (abs === this.options.lockFile)
      return false
    const inSkill = [...this.cache.keys()].some(dir => isInside(dir, abs))
    return !inSkill || !fs.existsSync(abs)
  }

  private readLockCached(display: string): LockRead {
    let stamp = 'missing'
    try {
      const st = fs.statSync(this.options.lockFile)
      stamp = `${st.size}:${st.mtimeMs}:${st.ino}`
    }
    catch {}
    if (this.lockCache?.stamp !== stamp)
      this.lockCache = { stamp, read: readLock(this.options.lockFile, display) }
    return this.lockCache.read
  }
}

/** Whether a changed path is `dir` or inside it (a prefix test: path.relative per skill and audit adds up). */
function touches(changed: ReadonlySet<string>, dir: string): boolean {
  for (const file of changed) {
    if (path.sep === '/' ? file === dir || file.startsWith(`${dir}/`) : isInside(dir, file))
      return true
  }
  return false
}

function findDuplicates(skills: ProcessedSkill[], out: Diagnostic[]): boolean {
  const byName = new Map<string, ProcessedSkill[]>()
  for (const s of skills) {
    const group = byName.get(s.name)
    if (group)
      group.push(s)
    else byName.set(s.name, [s])
  }
  let found = false
  for (const [name, group] of byName) {
    if (group.length < 2)
      continue
    found = true
    const dirs = group.map(g => g.location.relDir).join(', ')
    for (const s of group.slice(1)) {
      out.push(
        diagnostic({
          code: 'skill/duplicate-name',
          severity: 'error',
          message: `skill name \`${name}\` is used by ${group.length} skills: ${dirs}`,
          file: `${s.location.relDir}/${SKILL_FILE}`,
          skill: name,
          hint: 'Skill names must be unique across every root: rename one of them.',
        }),
      )
    }
  }
  return found
}

/** One-shot audit: `new SkillsEngine(options).audit(request)`. */
export async function audit(options: Options = {}, request: AuditRequest = {}): Promise<AuditResult> {
  return new SkillsEngine(options).audit(request)
}
