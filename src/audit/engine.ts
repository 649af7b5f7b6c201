import type { Options, ResolvedOptions } from '../core/options'
import type { Diagnostic, LockSkill, SkillsManifest } from '../core/types'
import type { ProcessedSkill } from './check-skill'
import type { DirListings, Discovery, SkillLocation } from './discover'
import type { LockRead, SkillDrift } from './lockfile'
import type { PoolResult } from './scheduler/pool'
import fs from 'node:fs'
import path from 'node:path'
import pkg from '../../package.json'
import { compareBytewise, diagnostic, hasErrors, sortDiagnostics } from '../core/diagnostics'
import { isInside, relativePosix, writeFileAtomic } from '../core/fs'
import { resolveOptions } from '../core/options'
import { buildDiscoveryIndex } from '../search'
import { processSkill, readHead, settleSkill, skillDirs, skillFiles } from './check-skill'
import { discover } from './discover'
import { describeDrift, joinLock, lockDigest, lockedEntry, readLock, removedSkill } from './lockfile'
import { serializeManifest } from './manifest'
import { SKILL_FILE, takeListings } from './read'
import { SkillPool } from './scheduler/pool'
import { loadCustomSchema } from './schema'

export const GENERATOR = `${pkg.name}@${pkg.version}`

/** Below this many skills a worker's start-up costs more than it saves. */
const PARALLEL_FROM = 200

export interface AuditRequest {
  /**
   * `dev`: lock drift is a warning (the lock is only updated on request). `build` (default): an error.
   */
  mode?: 'build' | 'dev'
  /** Absolute paths known to have changed since the last audit: only their skills are re-read. */
  changed?: readonly string[]
  /** Write the lock even if `options.lock` is `verify` (the CLI's `lock` command). `force` also replaces a corrupt lock. */
  updateLock?: boolean | 'force'
}

export type LockStatus = 'off' | 'ok' | 'created' | 'updated' | 'missing' | 'drift' | 'corrupt' | 'unchanged'

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
  lock: { status: LockStatus, file: string, drift: SkillDrift[] }
  /** Text of files that have diagnostics, keyed by project-relative path, for code frames. */
  sources: Map<string, string>
  watch: { files: string[], dirs: string[] }
  /** `reused`: skills taken from the cache unread; `parallel`: skills audited by worker threads. */
  stats: { skills: number, files: number, bytes: number, reused: number, parallel: number }
}

/**
 * The engine: one instance per plugin instance or CLI run. `audit()` may be called again and again
 * (watch rebuilds, dev edits): skills whose files are unchanged (path, size, mtime) are not read again.
 */
export class SkillsEngine {
  readonly options: ResolvedOptions
  private readonly content: boolean
  private readonly scan: boolean
  private readonly cache = new Map<string, ProcessedSkill>()
  private discovery: Discovery | null = null
  private lockCache: { stamp: string, read: LockRead } | null = null
  private indexCache: { key: string, index: Promise<SkillsManifest['index']> } | null = null
  private readonly parallelFrom: number

  /**
   * @param settings.content embed reference/example/scenario texts in the manifest (builds do; `check` needn't).
   * @param settings.scan run the security scanner (benchmarks switch it off to measure its share).
   * @param settings.parallelFrom fewest skills for a cold audit to share them with worker threads (tests lower it).
   */
  constructor(options: Options = {}, settings: { content?: boolean, scan?: boolean, parallelFrom?: number } = {}) {
    this.options = resolveOptions(options)
    this.content = settings.content ?? true
    this.scan = settings.scan ?? true
    this.parallelFrom = settings.parallelFrom ?? PARALLEL_FROM
  }

  /** Whether a path can affect the audit (inside a skills root, or the lock). */
  isRelevant(file: string): boolean {
    const abs = path.resolve(file)
    if (abs === this.options.lockFile)
      return true
    return (this.discovery?.roots ?? []).some(r => isInside(r.dir, abs))
  }

  async audit(request: AuditRequest = {}): Promise<AuditResult> {
    const { options } = this
    const mode = request.mode ?? 'build'
    const global: Diagnostic[] = []

    const lockDisplay = relativePosix(options.root, options.lockFile)
    const lockRead = options.lock === false ? null : this.readLockCached(lockDisplay)
    const schemaDiagnostics: Diagnostic[] = []
    const customSchema = loadCustomSchema(options.schema, options.root, schemaDiagnostics)

    // A cold audit of many skills shares them with worker threads (same code, same results). The pool
    // opens as soon as discovery has found enough skills, so the workers start up and warm up while
    // the rest is discovered. Without the scanner (benches only) a skill is too cheap to pay for one.
    const opened: { pool: SkillPool | null } = { pool: null }
    const onFound
      = this.scan && this.cache.size === 0
        ? (count: number): void => {
            if (count === Math.max(1, this.parallelFrom))
              opened.pool = this.openPool(lockRead, lockDisplay, customSchema)
          }
        : undefined

    const rediscover = !this.discovery || !request.changed || request.changed.some(f => this.changesLayout(f))
    // Listings from this very discovery are fresh: the skill walk reuses them instead of reading each directory again.
    let known: DirListings | undefined
    if (rediscover) {
      try {
        this.discovery = await discover(options, onFound)
      }
      catch (error) {
        opened.pool?.close()
        throw error
      }
      known = this.discovery.listings
      this.discovery.listings = { entries: new Map(), skillDirs: new Set() }
    }
    const discovery = this.discovery!
    global.push(...discovery.diagnostics, ...schemaDiagnostics)
    const dirty = request.changed ? new Set(request.changed.map(f => path.resolve(f))) : null

    const lockedOf = (name: string): LockSkill | null | undefined => lockedEntry(lockRead, name)
    // A cached result holds the locked entry it was compared with: the same object while the lock file is
    // unchanged (the lock is read again only when it changes), else compared by value and then adopted.
    const checkedAgainst = (skill: ProcessedSkill): boolean => {
      const locked = lockedOf(skill.name)
      if (skill.context === locked)
        return true
      if (!skill.context || !locked || JSON.stringify(skill.context) !== JSON.stringify(locked))
        return false
      skill.context = locked
      return true
    }

    // One pass: each skill is listed, read and checked, then only its results are kept. What needs
    // every skill's name (scenarios' expected skills) is settled below, so no skill waits in memory.
    const processed = new Map<string, ProcessedSkill>()
    const processHere = (location: SkillLocation, head = readHead(location, undefined, known)): ProcessedSkill => {
      const locked = lockedOf(head.name)
      return processSkill(head, {
        options,
        locked,
        content: this.content,
        scan: this.scan,
        customSchema,
        context: locked,
      })
    }
    const pool = opened.pool
    const offered = new Map<number, SkillLocation>()
    let reusedCount = 0
    let parallelCount = 0
    const receive = (results: PoolResult[]): void => {
      for (const { id, skill } of results) {
        const location = offered.get(id)!
        offered.delete(id)
        // A job a worker could not finish is audited here.
        if (skill)
          parallelCount++
        processed.set(location.dir, skill ? { ...skill, context: lockedOf(skill.name) } : processHere(location))
      }
    }
    try {
      discovery.skills.forEach((location, i) => {
        if (pool) {
          receive(pool.poll())
          // The worker gets discovery's listings of the skill's folders rather than reading them again.
          if (pool.offer(i, location, known && (() => takeListings(location.dir, known!))))
            return void offered.set(i, location)
        }
        const cached = this.cache.get(location.dir)
        const valid = cached && checkedAgainst(cached) ? cached : undefined
        if (valid && dirty && !touches(dirty, location.dir)) {
          processed.set(location.dir, valid)
          reusedCount++
          return
        }
        const head = readHead(location, valid && { fingerprint: valid.fingerprint, name: valid.name }, known)
        if (valid && valid.fingerprint === head.fingerprint) {
          processed.set(location.dir, valid)
          reusedCount++
          return
        }
        processed.set(location.dir, processHere(location, head))
      })
      if (pool)
        receive(await pool.drain())
    }
    finally {
      pool?.close()
    }
    this.cache.clear()
    for (const [dir, skill] of processed) this.cache.set(dir, skill)

    const skills = [...processed.values()].sort(
      (a, b) => compareBytewise(a.name, b.name) || compareBytewise(a.location.relDir, b.location.relDir),
    )
    const duplicates = findDuplicates(skills, global)

    // The lock text is only built when it is written or asked for: `check` digests it piece by piece.
    const lockEntries = skills.map(s => s.lockEntryText)
    let lockText: string | undefined
    const lockTextOf = (): string => (lockText ??= joinLock(lockEntries))
    const lock = this.settleLock(lockRead, lockTextOf, skills, discovery, duplicates, request, mode, global)

    const skillNames = new Set(skills.map(s => s.name))
    const settled = skills.map(s => settleSkill(s, skillNames))
    const diagnostics = sortDiagnostics([...global, ...settled.flatMap(s => s.diagnostics)])
    const manifest: SkillsManifest = {
      manifestVersion: 1,
      generator: GENERATOR,
      lockDigest: lockDigest(lockEntries),
      profile: options.profile,
      skills: settled.map(s => s.manifest),
    }
    const sources = new Map<string, string>()
    for (const s of skills) {
      for (const [file, text] of s.sources) sources.set(file, text)
    }
    if (lockRead?.status === 'ok')
      sources.set(lockDisplay, lockRead.text)

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
        return lockTextOf()
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
        reused: reusedCount,
        parallel: parallelCount,
      },
    }
  }

  /** Worker threads for this audit, or null (none configured, no worker entry, or settings that cannot cross threads). */
  private openPool(
    lockRead: LockRead | null,
    lockDisplay: string,
    customSchema: Record<string, unknown> | null,
  ): SkillPool | null {
    // Resolvers and the embedding function are functions, and only discovery and the index use them.
    const options = { ...this.options, resolvers: {}, embed: null }
    const lock = lockRead?.status === 'ok' ? { text: lockRead.text, display: lockDisplay } : null
    return SkillPool.open(this.options.workers, { options, customSchema, lock, content: this.content, scan: this.scan })
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

  /** Verifies, creates or updates the lock per the options; every outcome is a diagnostic, never a throw. */
  private settleLock(
    read: LockRead | null,
    lockText: () => string,
    skills: ProcessedSkill[],
    discovery: Discovery,
    duplicates: boolean,
    request: AuditRequest,
    mode: 'build' | 'dev',
    out: Diagnostic[],
  ): AuditResult['lock'] {
    const { options } = this
    const file = relativePosix(options.root, options.lockFile)
    if (!read)
      return { status: 'off', file, drift: [] }
    const drift: SkillDrift[] = []
    if (read.status === 'ok') {
      for (const s of skills) {
        if (s.drift)
          drift.push(s.drift)
      }
      const present = new Set(skills.map(s => s.name))
      for (const locked of read.lock.skills) {
        if (!present.has(locked.name))
          drift.push(removedSkill(locked))
      }
      drift.sort((a, b) => compareBytewise(a.name, b.name))
    }
    const wantsUpdate = options.lock === 'update' || !!request.updateLock
    const unsafe = duplicates || hasErrors(discovery.diagnostics)
    const refuse = (why: string): void => {
      out.push(
        diagnostic({
          code: 'lock/not-written',
          severity: 'error',
          message: `the lock was not written: ${why}`,
          file,
          hint: 'Fix the errors above, then write the lock again.',
        }),
      )
    }
    const write = (): boolean => {
      try {
        writeFileAtomic(options.lockFile, lockText())
        this.lockCache = null
        return true
      }
      catch (error) {
        out.push(
          diagnostic({
            code: 'lock/write-failed',
            severity: 'error',
            message: `the lock could not be written: ${(error as Error).message}`,
            file,
            hint: null,
          }),
        )
        return false
      }
    }

    if (read.status === 'corrupt') {
      if (request.updateLock === 'force' && !unsafe) {
        if (write()) {
          out.push(
            diagnostic({
              code: 'lock/updated',
              severity: 'info',
              message: `replaced the unreadable lock ${file}`,
              file,
              hint: 'Review the diff before committing it.',
            }),
          )
        }
        return { status: 'updated', file, drift }
      }
      out.push(read.diagnostic)
      return { status: 'corrupt', file, drift }
    }
    if (read.status === 'missing') {
      if (!wantsUpdate && options.ci) {
        out.push(
          diagnostic({
            code: 'lock/missing',
            severity: 'error',
            message: `${file} is missing, and CI never creates it`,
            file,
            hint: 'Run `npx unplugin-skills lock` locally and commit the lock file.',
          }),
        )
        return { status: 'missing', file, drift }
      }
      if (unsafe) {
        refuse('discovery had errors or duplicate skill names')
        return { status: 'missing', file, drift }
      }
      if (write()) {
        out.push(
          diagnostic({
            code: 'lock/created',
            severity: 'info',
            message: `created ${file} with ${skills.length} skill(s); commit it`,
            file,
            hint: null,
          }),
        )
      }
      return { status: 'created', file, drift: [] }
    }
    if (!drift.length)
      return { status: 'ok', file, drift }
    if (wantsUpdate) {
      if (unsafe) {
        refuse('discovery had errors or duplicate skill names')
        return { status: 'drift', file, drift }
      }
      if (read.text === lockText())
        return { status: 'unchanged', file, drift: [] }
      if (write()) {
        out.push(
          diagnostic({
            code: 'lock/updated',
            severity: 'info',
            message: `updated ${file}:\n${drift.map(describeDrift).join('\n')}`,
            file,
            hint: null,
          }),
        )
      }
      return { status: 'updated', file, drift }
    }
    for (const d of drift) {
      const first = d.files[0]
      const located = skills.find(s => s.name === d.name)
      const lineEndingsOnly = d.files.length > 0 && d.files.every(f => f.lineEndings)
      out.push(
        diagnostic({
          code: 'lock/drift',
          severity: mode === 'dev' ? 'warning' : 'error',
          message: describeDrift(d),
          file: located && first ? `${located.location.relDir}/${first.path}` : file,
          skill: d.name,
          hint: lineEndingsOnly
            ? 'Only line endings differ (CRLF vs LF): add `* text=auto eol=lf` to .gitattributes so checkouts match the lock.'
            : 'If the change is intended, review it and run `npx unplugin-skills lock` to update the lock; otherwise restore the files.',
        }),
      )
    }
    return { status: 'drift', file, drift }
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
    for (const s of group.slice(1)) {
      out.push(
        diagnostic({
          code: 'skill/duplicate-name',
          severity: 'error',
          message: `skill name \`${name}\` is used by ${group.length} skills: ${group.map(g => g.location.relDir).join(', ')}`,
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
