import type { ParsedFrontmatter } from '../core/frontmatter'
import type { ResolvedOptions } from '../core/options'
import type { Diagnostic, LockSkill, ManifestSkill, ScanResult, SkillFile, SkillSource } from '../core/types'
import type { ScenarioDraft } from '../enterprise/scenarios'
import type { SkillLocation } from './discover'
import type { LockRead, SkillDrift } from './lockfile'
import type { FileEntry, ReadBytes, SkillListing } from './read'
import type { CachedResult, ResultCache } from './result-cache'
import path from 'node:path'
import { detach } from '../core/detach'
import { diagnostic } from '../core/diagnostics'
import { parseFrontmatter } from '../core/frontmatter'
import { sha256Hex, skillDigest } from '../core/hash'
import { endTiming, startTiming, timed } from '../core/timings'
import { checkEnterprise } from '../enterprise'
import { settleScenarios } from '../enterprise/scenarios'
import { SKILL_FILE } from './layout'
import { diffSkill, lockedEntry, serializeLockEntry } from './lockfile'
import { buildTree, toFinding } from './manifest'
import { skillPolicy } from './policy'
import { fileOfRead, joinPosix, listSkill, readBytes, readPath, releaseBytes } from './read'
import { cacheKey } from './result-cache'
import { scannerLoaded, ScannerNotLoaded, scanSkill } from './scanner-load'
import { normalizeFrontmatter, validateFrontmatter } from './schema'

/**
 * Phase A of a skill: its files listed and its SKILL.md read. Its frontmatter is parsed (`parseHead`) only when
 * the skill is checked: a stored result already knows the name it gives.
 */
export interface SkillHead {
  location: SkillLocation
  listing: SkillListing
  /**
   * path|size|mtime of every file: equal fingerprints mean the skill is unchanged on disk. Empty when the
   * listing was not stat'ed (nothing cached to compare with): `processSkill` computes it from the reads.
   */
  fingerprint: string
  /** The folder's name until the frontmatter is parsed, then the name it gives (if any). */
  name: string
  /** Its bytes as read (decoded when the skill is checked), or the decoded file. */
  skillMd: ReadBytes | SkillFile | null
  parsed: ParsedFrontmatter | null
  diagnostics: Diagnostic[]
}

/**
 * Everything the build needs about one skill, cached by fingerprint. It depends on this skill's files
 * only (and its locked entry): what depends on the other skills (scenarios' expected skills) is
 * settled per audit by `settleSkill`. Plain data: a worker thread sends it back as it is.
 */
export interface ProcessedSkill {
  name: string
  location: SkillLocation
  fingerprint: string
  /** The skill's lock entry, serialised as it is written in the lock (the only form kept). */
  lockEntryText: string
  drift: SkillDrift | null
  /** The manifest entry, `scenarios` still empty (see `settleSkill`). */
  manifest: ManifestSkill
  diagnostics: Diagnostic[]
  scenarioDrafts: ScenarioDraft[]
  /** For code frames, per project-relative path of a file with a (possible) diagnostic: the lines around them. */
  sources: Map<string, string>
  /** Listed files that could not be read (absolute): `skillFiles` adds them to the manifest's files. */
  unread: string[]
  /** Every directory walked, relative to the skill (`''` for itself): `skillDirs` makes them absolute. */
  dirs: string[]
}

/** Absolute path of every directory of a skill, for bundler watchers. */
export function skillDirs(skill: ProcessedSkill): string[] {
  const dir = skill.location.dir
  return skill.dirs.map(rel => (rel ? path.join(dir, rel) : dir))
}

/** Absolute path of every listed file of a skill, for bundler watchers. */
export function skillFiles(skill: ProcessedSkill): string[] {
  const dir = skill.location.dir
  const join
    = path.sep === '/' ? (rel: string): string => `${dir}/${rel}` : (rel: string): string => path.join(dir, rel)
  const files = skill.manifest.files.map(f => join(f.path))
  return skill.unread.length ? [...files, ...skill.unread] : files
}

export function fingerprintOf(entries: readonly FileEntry[]): string {
  let text = ''
  for (const e of entries) text += `${e.path}\0${e.size}\0${e.mtimeMs}\n`
  return sha256Hex(text)
}

/**
 * Lists a skill and reads its SKILL.md. With `reuse` (a result held in memory), the listing is stat'ed and an
 * unchanged fingerprint stops there: that result stands.
 */
export function readHead(location: SkillLocation, reuse?: { fingerprint: string, name: string }): SkillHead {
  const dirName = path.basename(location.dir)
  // Without a cached result to compare with, size and mtime come from the reads (one fstat per open file).
  const listing = timed('list files', () => listSkill(location.dir, location.relDir, null, { stat: !!reuse }))
  const fingerprint = reuse ? fingerprintOf(listing.entries) : ''
  const head: SkillHead = {
    location,
    listing,
    fingerprint,
    name: dirName,
    skillMd: null,
    parsed: null,
    diagnostics: [],
  }
  if (reuse && reuse.fingerprint === fingerprint) {
    head.name = reuse.name
    return head
  }
  const entry = listing.entries.find(e => e.path === SKILL_FILE)
  if (!entry) {
    head.diagnostics.push(
      diagnostic({
        code: 'skill/no-skill-md',
        severity: 'error',
        message: 'SKILL.md is not a readable regular file',
        file: joinPosix(location.relDir, SKILL_FILE),
        skill: dirName,
        hint: 'A skill is a folder with a SKILL.md file.',
      }),
    )
    return head
  }
  const reading = startTiming()
  // Left in the reads' buffer for `processSkill`, which releases it.
  head.skillMd = readBytes(entry, location.relDir, dirName, head.diagnostics)
  endTiming('read + hash', reading)
  return head
}

/** Parses the SKILL.md a head holds (once), which names the skill. */
function parseHead(head: SkillHead): ParsedFrontmatter | null {
  if (head.parsed || !head.skillMd || 'entry' in head.skillMd || head.skillMd.text === null)
    return head.parsed
  const text = head.skillMd.text
  head.parsed = timed('frontmatter + schema', () => parseFrontmatter(text))
  const name = head.parsed.data?.name
  if (typeof name === 'string' && name.trim())
    head.name = name
  return head.parsed
}

export interface ProcessContext {
  options: ResolvedOptions
  /** The lock as read (null: no lock is compared, as with `lock: false`). */
  lock: LockRead | null
  /** Embed reference/example/scenario texts in the manifest (the CLI's `check` doesn't need them). */
  content: boolean
  scan: boolean
  customSchema: Record<string, unknown> | null
  /** The persistent cache (`cache` option), or null: the results of a skill whose bytes and policy were seen. */
  cache?: ResultCache | null
}

/**
 * Reads the rest of the skill once and runs every check on those bytes, or takes what a check of the same
 * bytes under the same policy stored (`result-cache.ts`).
 */
export function processSkill(head: SkillHead, ctx: ProcessContext): ProcessedSkill {
  // Read with the folder's name: the files' bytes, not the name the frontmatter gives, make the cache key.
  const read: Diagnostic[] = [...head.listing.diagnostics, ...head.diagnostics]
  const { relDir } = head.location
  const reading = startTiming()
  // The bytes stay in the reads' buffer until the cache has answered: a stored result needs none decoded.
  const raws: Array<ReadBytes | SkillFile> = []
  for (const entry of head.listing.entries) {
    const raw = entry.path === SKILL_FILE && head.skillMd ? head.skillMd : readBytes(entry, relDir, head.name, read)
    if (raw)
      raws.push(raw)
  }
  endTiming('read + hash', reading)
  try {
    const { cache } = ctx
    const looking = startTiming()
    // The name, and with it the policy (the overrides that name the skill), follow from these bytes and options.
    const key = cache
      ? cacheKey({
          location: head.location,
          files: raws.map(r => ({ path: readPath(r), sha256: r.sha256, size: r.size })),
          diagnostics: read,
          options: ctx.options,
          customSchema: ctx.customSchema,
          content: ctx.content,
          scan: ctx.scan,
        })
      : ''
    const hit = cache?.get(key)
    endTiming('cache', looking)
    if (hit)
      return timed('cache', () => fromCache(head, raws, hit, ctx))
    // Before anything is decoded: the caller loads the scanner and checks this skill again.
    if (ctx.scan && !scannerLoaded())
      throw new ScannerNotLoaded()
    const decoding = startTiming()
    const files = raws.map(r => fileOfRead(r, relDir, head.name, read))
    endTiming('read + hash', decoding)
    head.skillMd = files.find(f => f.path === SKILL_FILE) ?? null
    parseHead(head)
    const skill = head.name
    const result = checkSkill(
      head,
      files,
      read.map(d => ({ ...d, skill })),
      ctx,
    )
    if (cache)
      timed('cache', () => cache.set(key, toCache(result)))
    return result
  }
  finally {
    releaseBytes()
  }
}

/** How a skill differs from its locked entry (null: no lock to compare with, or no difference). */
function driftOf(
  entry: LockSkill,
  locked: LockSkill | null | undefined,
  fileOf: (path: string) => SkillFile | undefined,
): SkillDrift | null {
  return locked === undefined ? null : diffSkill(entry, locked, p => lineEndingAlternates(fileOf(p)))
}

/**
 * What the cache keeps of a result: the texts (body, tree) stay placeholders, so the keys keep their order.
 * The drift is not kept: it is the locked entry's, compared anew, so updating the lock spoils no entry.
 */
function toCache(skill: ProcessedSkill): CachedResult {
  return {
    lockEntryText: skill.lockEntryText,
    manifest: { ...skill.manifest, body: '', tree: null },
    diagnostics: skill.diagnostics,
    scenarioDrafts: skill.scenarioDrafts,
    sources: [...skill.sources],
  }
}

/**
 * A stored result for the files just read: the texts come from them, as `checkSkill` makes them. Only a
 * manifest with contents decodes them (and parses the frontmatter again, for the body); a drift report
 * decodes the files that differ from the lock.
 */
function fromCache(
  head: SkillHead,
  raws: ReadonlyArray<ReadBytes | SkillFile>,
  hit: CachedResult,
  ctx: ProcessContext,
): ProcessedSkill {
  const { content } = ctx
  // The stored findings already hold what decoding finds: its diagnostics are not kept.
  const decode = (r: ReadBytes | SkillFile): SkillFile => fileOfRead(r, head.location.relDir, null, [])
  const files = raws.map(r => (content || !('entry' in r)
    ? decode(r)
    : { path: r.entry.path, absPath: r.entry.absPath, size: r.size, sha256: r.sha256, text: null }))
  const manifest = hit.manifest as unknown as ManifestSkill
  if (content)
    head.skillMd = files.find(f => f.path === SKILL_FILE) ?? null
  manifest.body = content ? parseHead(head)?.body ?? '' : ''
  manifest.tree = buildTree(files, content, manifest.files)
  const locked = lockedEntry(ctx.lock, manifest.name)
  // `files` and `raws` are in the same order; with contents the files are decoded already.
  const fileOf = (p: string): SkillFile | undefined => {
    const i = files.findIndex(f => f.path === p)
    return i === -1 || content ? files[i] : decode(raws[i]!)
  }
  return {
    name: manifest.name,
    location: head.location,
    ...listingFacts(head, files),
    lockEntryText: hit.lockEntryText,
    // The entry is the JSON of a LockSkill, parsed only when there is a lock to compare it with.
    drift: locked === undefined ? null : driftOf(JSON.parse(hit.lockEntryText) as LockSkill, locked, fileOf),
    manifest,
    diagnostics: hit.diagnostics,
    scenarioDrafts: hit.scenarioDrafts,
    sources: new Map(hit.sources),
  }
}

/** What a result says of the listing as it is on disk now (never cached: it is the walk's, not the bytes'). */
function listingFacts(
  head: SkillHead,
  files: readonly SkillFile[],
): Pick<ProcessedSkill, 'fingerprint' | 'unread' | 'dirs'> {
  const { location, listing } = head
  return {
    fingerprint: head.fingerprint || fingerprintOf(listing.entries),
    unread: files.length === listing.entries.length ? [] : unreadOf(listing.entries, files),
    dirs: listing.dirs.map(d => (d === location.dir ? '' : detach(path.relative(location.dir, d)))),
  }
}

/** Every check on a skill's files, already read (`processSkill`; a worker's warm-up passes files made in memory). */
export function checkSkill(
  head: SkillHead,
  files: SkillFile[],
  diagnostics: Diagnostic[],
  ctx: ProcessContext,
): ProcessedSkill {
  const { location } = head
  const parsed = parseHead(head)
  const skill = head.name
  const policy = skillPolicy(ctx.options, location, skill)
  const { options } = policy
  const skillMdPath = joinPosix(location.relDir, SKILL_FILE)
  const skillMd = files.find(f => f.path === SKILL_FILE) ?? null
  const data = parsed?.data ?? null
  for (const issue of parsed?.diagnostics ?? []) diagnostics.push(diagnostic({ ...issue, file: skillMdPath, skill }))

  const dirName = path.basename(location.dir)
  const locate = (key: string): { line: number, column: number } | null => parsed?.locate(key) ?? null
  const validating = startTiming()
  if (data) {
    diagnostics.push(
      ...validateFrontmatter(data, {
        profile: options.profile,
        custom: ctx.customSchema,
        file: skillMdPath,
        skill,
        locate,
      }),
    )
    if (typeof data.name === 'string' && data.name !== dirName) {
      const at = locate('name')
      diagnostics.push(
        diagnostic({
          code: 'skill/name-mismatch',
          severity: 'error',
          message: `name \`${data.name}\` differs from its folder \`${dirName}\``,
          file: skillMdPath,
          line: at?.line,
          column: at?.column,
          skill,
          hint: `Rename the folder to \`${data.name}\` or set \`name: ${dirName}\`.`,
        }),
      )
    }
  }
  diagnostics.push(...checkStructure({ files, parsed, options, relDir: location.relDir, skill }))
  endTiming('frontmatter + schema', validating)

  const source: SkillSource = {
    name: skill,
    dirName,
    dir: location.dir,
    relDir: location.relDir,
    source: location.source,
    files,
    skillMd: skillMd ?? emptyFile(location.dir),
    frontmatter: data ?? {},
    frontmatterOk: data !== null,
    body: parsed?.body ?? '',
    bodyLine: parsed?.bodyLine ?? 1,
    locate: key => parsed?.locate(key) ?? null,
  }
  const scanning = startTiming()
  const scan: ScanResult = ctx.scan
    ? scanSkill(source, { ...options.scanner, deny: options.deny, profile: options.profile, review: policy.review })
    : { diagnostics: [], capabilities: { declared: [], detected: [] }, suppressions: [] }
  endTiming('scan', scanning)
  diagnostics.push(...scan.diagnostics)
  const enterprise = timed('enterprise checks', () => checkEnterprise(source, { options, scan, skillNames: null }))
  diagnostics.push(...enterprise.diagnostics)
  const scenarioDrafts = enterprise.scenarioDrafts ?? []
  // `check` keeps no instruction texts: bodies and scenario references are in the manifest only when content is.
  if (!ctx.content) {
    for (const draft of scenarioDrafts) {
      if (draft.scenario)
        draft.scenario.reference = ''
    }
  }

  const digest = skillDigest(files)
  const version = typeof data?.version === 'string' ? data.version : null
  const lockEntry: LockSkill = {
    name: skill,
    source: location.source,
    version,
    digest,
    capabilities: scan.capabilities.detected,
    files: files.map(f => ({ path: f.path, sha256: f.sha256, size: f.size })),
  }
  const drift = driftOf(lockEntry, lockedEntry(ctx.lock, skill), p => files.find(f => f.path === p))

  const listed = lockEntry.files.map(({ path, size, sha256 }) => ({ path, size, sha256 }))
  const manifest: ManifestSkill = {
    name: skill,
    description: typeof data?.description === 'string' ? data.description : '',
    version,
    source: location.source,
    path: location.relDir,
    digest,
    integrity: { algorithm: 'sha-256', value: digest },
    frontmatter: data ? normalizeFrontmatter(data) : {},
    body: ctx.content ? source.body : '',
    files: listed,
    tree: buildTree(files, ctx.content, listed),
    capabilities: scan.capabilities,
    findings: scan.diagnostics.map(toFinding),
    suppressions: scan.suppressions,
    profile: options.profile,
    overrides: policy.overrides,
    scenarios: [],
    links: enterprise.links,
    workload: enterprise.workload,
    requiresApproval: enterprise.requiresApproval,
  }
  if (enterprise.uri)
    manifest.uri = enterprise.uri
  if (enterprise.urn)
    manifest.urn = enterprise.urn

  // Findings that settling may add need their frame lines too (the text is gone by then).
  const located: Array<Pick<Diagnostic, 'file' | 'line'>> = [
    ...diagnostics,
    ...scenarioDrafts.flatMap(d => [...d.names.map(n => ({ file: d.file, line: n.line })), ...d.then]),
  ]
  return {
    name: skill,
    location,
    ...listingFacts(head, files),
    lockEntryText: serializeLockEntry(lockEntry),
    drift,
    manifest,
    diagnostics,
    scenarioDrafts,
    sources: frameSources(located, files, location.relDir),
  }
}

function unreadOf(entries: readonly FileEntry[], files: readonly SkillFile[]): string[] {
  const read = new Set(files.map(f => f.path))
  return entries.filter(e => !read.has(e.path)).map(e => e.absPath)
}

/**
 * The diagnostics and manifest entry of a skill in this build: its scenarios' expected skills checked
 * against `skillNames`.
 */
export function settleSkill(
  skill: ProcessedSkill,
  skillNames: ReadonlySet<string>,
): { diagnostics: Diagnostic[], manifest: ManifestSkill } {
  if (!skill.scenarioDrafts.length)
    return skill
  const { diagnostics, scenarios } = settleScenarios(skill.scenarioDrafts, skillNames)
  return {
    diagnostics: diagnostics.length ? [...skill.diagnostics, ...diagnostics] : skill.diagnostics,
    manifest: { ...skill.manifest, scenarios },
  }
}

/**
 * A code frame shows two lines either side of a diagnostic's: only those are kept, the rest blank, so no
 * whole text stays cached.
 */
const FRAME_REACH = 2

function frameSources(
  diagnostics: ReadonlyArray<Pick<Diagnostic, 'file' | 'line'>>,
  files: readonly SkillFile[],
  relDir: string,
): Map<string, string> {
  const wanted = new Map<string, number[]>()
  for (const d of diagnostics) {
    if (!d.file || d.line === null)
      continue
    const lines = wanted.get(d.file)
    if (lines)
      lines.push(d.line)
    else wanted.set(d.file, [d.line])
  }
  const sources = new Map<string, string>()
  if (!wanted.size)
    return sources
  for (const file of files) {
    const display = joinPosix(relDir, file.path)
    const lines = wanted.get(display)
    if (!lines || file.text === null)
      continue
    const text = file.text
    const keep = new Set<number>()
    let furthest = 0
    for (const line of lines) {
      for (let i = line - 1 - FRAME_REACH; i <= line - 1 + FRAME_REACH; i++) keep.add(i)
      furthest = Math.max(furthest, line)
    }
    // The lines up to the last one a frame shows (as `split('\n')` numbers them), slicing only those kept.
    const kept: string[] = []
    for (let i = 0, start = 0; i < furthest + FRAME_REACH && start <= text.length; i++) {
      let end = text.indexOf('\n', start)
      if (end < 0)
        end = text.length
      kept.push(keep.has(i) ? detach(text.slice(start, end)) : '')
      start = end + 1
    }
    sources.set(display, kept.join('\n'))
  }
  return sources
}

interface StructureInput {
  files: readonly SkillFile[]
  parsed: ParsedFrontmatter | null
  options: Pick<ResolvedOptions, 'profile' | 'maxBodyLines'>
  relDir: string
  skill: string
}

/** Progressive disclosure (enterprise: references/ and examples/ required) and the body-size budget. */
function checkStructure({ files, parsed, options, relDir, skill }: StructureInput): Diagnostic[] {
  const out: Diagnostic[] = []
  const skillMdPath = joinPosix(relDir, SKILL_FILE)
  for (const file of files) {
    if (file.size === 0 && file.path !== SKILL_FILE && !file.path.endsWith('.gitkeep')) {
      out.push(
        diagnostic({
          code: 'fs/empty-file',
          severity: 'warning',
          message: `${file.path} is empty`,
          file: joinPosix(relDir, file.path),
          skill,
          hint: 'Remove it or give it content.',
        }),
      )
    }
  }
  if (options.profile === 'enterprise') {
    const references = files.some(f => f.path.startsWith('references/') && f.path.endsWith('.md') && f.size > 0)
    const examples = files.some(f => f.path.startsWith('examples/') && f.size > 0)
    if (!references) {
      out.push(
        diagnostic({
          code: 'structure/references',
          severity: 'error',
          message: 'references/ must hold at least one non-empty .md file (enterprise profile)',
          file: skillMdPath,
          skill,
          hint: 'Move detailed guides out of SKILL.md into references/*.md, or set `profile: \'agentskills\'`.',
        }),
      )
    }
    if (!examples) {
      out.push(
        diagnostic({
          code: 'structure/examples',
          severity: 'error',
          message: 'examples/ must hold at least one non-empty file (enterprise profile)',
          file: skillMdPath,
          skill,
          hint: 'Add a usage example under examples/, or set `profile: \'agentskills\'`.',
        }),
      )
    }
  }
  if (parsed) {
    const lines = parsed.body.split('\n').length - (parsed.body.endsWith('\n') ? 1 : 0)
    if (lines > options.maxBodyLines) {
      out.push(
        diagnostic({
          code: 'structure/body-too-long',
          severity: 'warning',
          message: `the SKILL.md body has ${lines} lines (budget ${options.maxBodyLines})`,
          file: skillMdPath,
          line: parsed.bodyLine + options.maxBodyLines,
          column: 1,
          skill,
          hint:
            'Keep SKILL.md a summary: move detail into references/*.md (progressive disclosure), '
            + 'or raise `maxBodyLines`.',
        }),
      )
    }
  }
  return out
}

/**
 * Hashes of a text file with the other line endings, to tell a CRLF/LF-only change from a real one.
 * Rebuilt from the text (bytes aren't kept): the text is the bytes decoded, minus a BOM when the hash says so.
 */
function lineEndingAlternates(file: SkillFile | undefined): { crlf?: string, lf?: string } {
  if (!file || file.text === null)
    return {}
  const raw = sha256Hex(file.text) === file.sha256 ? file.text : `\uFEFF${file.text}`
  return raw.includes('\r\n')
    ? { lf: sha256Hex(raw.replace(/\r\n/g, '\n')) }
    : { crlf: sha256Hex(raw.replace(/\n/g, '\r\n')) }
}

function emptyFile(dir: string): SkillFile {
  return { path: SKILL_FILE, absPath: path.join(dir, SKILL_FILE), size: 0, sha256: sha256Hex(''), text: '' }
}
