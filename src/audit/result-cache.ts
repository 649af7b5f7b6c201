import type { ResolvedOptions } from '../core/options'
/**
 * The persistent cache (`cache`, `cacheDir`): a skill's check results between runs, one file per entry,
 * found by a key made of the SHA-256 of every file the skill holds and everything else a verdict depends
 * on (`cacheKey`). The files are read and hashed on every run: only what is computed from those bytes is
 * reused, and never on the word of a path, size or mtime. An entry that is unreadable, truncated, foreign or
 * of another version is a miss; a cache that can't be written is skipped. Nothing here ever fails a build.
 */
import type { Diagnostic, ManifestSkill, SkillFile } from '../core/types'
import type { ScenarioDraft } from '../enterprise/scenarios'
import type { SkillLocation } from './discover'
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import pkg from '../../package.json'
import { writeFileAtomic } from '../core/fs'
import { sha256Hex } from '../core/hash'

/** Bumped whenever what an entry holds, or how a key is made, changes. */
const FORMAT = 2
/**
 * The built chunk that holds the checks is named by a hash of its content: a rebuild with other checks under the
 * same package version (a local build, a patched install) keys its entries apart from the last build's. Run from
 * its sources (tsx, the tests), this file's name says nothing of the checks' code, which a contributor is editing:
 * entries then serve the process that wrote them only.
 */
const BUILD = /\.[cm]?ts$/.test(import.meta.url)
  ? `sources-${process.pid}-${randomUUID()}`
  : path.basename(import.meta.url)
const MAGIC = 'unplugin-skills-cache'
/** What the cache may hold before the oldest entries go; pruning leaves `PRUNE_TO` of it. */
export const MAX_CACHE_BYTES = 128 * 1024 * 1024
const PRUNE_TO = 0.75
/** A hit refreshes its entry's mtime (what eviction orders by) at most this often, not on every run. */
const TOUCH_AFTER_MS = 60 * 60 * 1000
/** A temp file this old belongs to a writer that died before its rename. */
const STALE_TEMP_MS = 60 * 60 * 1000
const ENTRY = /^[0-9a-f]{64}\.json$/
const BUCKET = /^[0-9a-f]{2}$/
const TEMP = /^[0-9a-f]{64}\.json\.tmp-/

/**
 * What a skill's check computed from its bytes and policy. The manifest's `body` and `tree` are left out:
 * they are the texts themselves, rebuilt from the files just read.
 */
export interface CachedResult {
  lockEntryText: string
  manifest: Omit<ManifestSkill, 'tree'> & { tree: null }
  diagnostics: Diagnostic[]
  scenarioDrafts: ScenarioDraft[]
  sources: Array<[string, string]>
}

/**
 * What a check reads. The skill's name (its frontmatter's) and its policy (its root's settings, the overrides
 * that name it) are not in it: they follow from these bytes, the location and the options.
 */
export interface CacheKeyInput {
  location: SkillLocation
  files: ReadonlyArray<Pick<SkillFile, 'path' | 'sha256' | 'size'>>
  /** Findings made before the check (listing, reads), which it carries on. */
  diagnostics: readonly Diagnostic[]
  options: ResolvedOptions
  customSchema: Record<string, unknown> | null
  content: boolean
  scan: boolean
}

/** Options that never change a skill's check: how the run is organised, where things are written. */
const IRRELEVANT = new Set(['workers', 'resolvers', 'embed', 'dts', 'manifest', 'cache', 'cacheDir'])

/** JSON that keeps what plain JSON loses: a RegExp (custom rules) is its source and flags, not `{}`. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v)) ?? 'u'
}

const optionTexts = new WeakMap<object, string>()
function optionsText(options: ResolvedOptions): string {
  let text = optionTexts.get(options)
  if (text === undefined) {
    text = stable(Object.fromEntries(Object.entries(options).filter(([k]) => !IRRELEVANT.has(k))))
    optionTexts.set(options, text)
  }
  return text
}

/** The key of a skill's results: the hash of everything its check reads. */
export function cacheKey(input: CacheKeyInput): string {
  const { location } = input
  const hash = createHash('sha256')
  hash.update(stable([MAGIC, FORMAT, pkg.version, BUILD, input.content, input.scan]))
  hash.update(stable([location.dir, location.relDir, location.source, location.root]))
  hash.update(optionsText(input.options))
  hash.update(stable(input.customSchema))
  hash.update(stable(input.diagnostics))
  // Whether a file is text, and its decoding's findings, follow from its bytes.
  for (const f of input.files) hash.update(`\n${f.path}\0${f.sha256}\0${f.size}`)
  return hash.digest('hex')
}

let noted = new Set<string>()
/** A note for whoever debugs a build (`DEBUG` set), once per kind and process: the cache is never an error. */
function debugNote(kind: string, detail: unknown): void {
  if (!process.env.DEBUG || noted.has(kind))
    return
  noted.add(kind)
  process.stderr.write(`[unplugin-skills] cache: ${kind} (${(detail as Error)?.message ?? detail}); ignored\n`)
}

/** Test hook: notes are printed again. */
export function resetDebugNotes(): void {
  noted = new Set()
}

export class ResultCache {
  /** Entries written by this instance since the last prune. */
  written = 0
  private writable = true

  constructor(readonly dir: string, private readonly maxBytes = MAX_CACHE_BYTES) {}

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`)
  }

  /** The entry of `key`, or null when there is none or it can't be trusted. */
  get(key: string): CachedResult | null {
    const file = this.file(key)
    let text: string
    try {
      text = fs.readFileSync(file, 'utf8')
    }
    catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        debugNote('unreadable entry', error)
      return null
    }
    const value = parseEntry(text, key)
    if (!value) {
      debugNote('corrupt or foreign entry', file)
      return null
    }
    this.touch(file)
    return value
  }

  set(key: string, value: CachedResult): void {
    if (!this.writable)
      return
    const body = JSON.stringify(value)
    const header = JSON.stringify({ magic: MAGIC, format: FORMAT, version: pkg.version, key, sha256: sha256Hex(body) })
    try {
      writeFileAtomic(this.file(key), `${header}\n${body}`)
      this.written++
    }
    catch (error) {
      // One failure says the directory can't take entries: the rest of this run doesn't try.
      this.writable = false
      debugNote('not writable', error)
    }
  }

  /** Keeps the cache under its bound: the least recently used entries go first. Concurrent prunes are harmless. */
  prune(): void {
    this.written = 0
    const entries: Array<{ file: string, size: number, mtimeMs: number }> = []
    let total = 0
    let buckets: string[]
    try {
      buckets = fs.readdirSync(this.dir).filter(b => BUCKET.test(b))
    }
    catch {
      return
    }
    const now = Date.now()
    for (const bucket of buckets) {
      const dir = path.join(this.dir, bucket)
      let names: string[]
      try {
        names = fs.readdirSync(dir)
      }
      catch {
        continue
      }
      for (const name of names) {
        const file = path.join(dir, name)
        const entry = ENTRY.test(name)
        if (!entry && !TEMP.test(name))
          continue
        try {
          const st = fs.statSync(file)
          if (entry) {
            entries.push({ file, size: st.size, mtimeMs: st.mtimeMs })
            total += st.size
          }
          else if (now - st.mtimeMs > STALE_TEMP_MS) {
            fs.rmSync(file, { force: true })
          }
        }
        catch {}
      }
    }
    if (total <= this.maxBytes)
      return
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs)
    for (const e of entries) {
      if (total <= this.maxBytes * PRUNE_TO)
        break
      try {
        fs.rmSync(e.file, { force: true })
      }
      catch {}
      total -= e.size
    }
  }

  private touch(file: string): void {
    try {
      const now = Date.now()
      if (now - fs.statSync(file).mtimeMs > TOUCH_AFTER_MS)
        fs.utimesSync(file, now / 1000, now / 1000)
    }
    catch {}
  }
}

/** An entry's value when its header is ours, for this key and version, and its body is intact. */
function parseEntry(text: string, key: string): CachedResult | null {
  const newline = text.indexOf('\n')
  if (newline < 0)
    return null
  try {
    const header = JSON.parse(text.slice(0, newline))
    const body = text.slice(newline + 1)
    if (
      header?.magic !== MAGIC
      || header.format !== FORMAT
      || header.version !== pkg.version
      || header.key !== key
      || header.sha256 !== sha256Hex(body)
    ) {
      return null
    }
    const value = JSON.parse(body) as CachedResult
    const shaped = typeof value?.lockEntryText === 'string'
      && typeof value.manifest === 'object' && value.manifest !== null
      && Array.isArray(value.diagnostics) && Array.isArray(value.scenarioDrafts) && Array.isArray(value.sources)
    return shaped ? value : null
  }
  catch {
    return null
  }
}
