import path from 'node:path'
import { diagnostic } from './diagnostics'
import type { DirListings, SkillLocation } from './discover'
import { checkEnterprise } from './enterprise'
import type { ParsedFrontmatter } from './frontmatter'
import { parseFrontmatter } from './frontmatter'
import { sha256Hex, skillDigest } from './hash'
import { diffSkill, serializeLockEntry } from './lockfile'
import type { SkillDrift } from './lockfile'
import { buildTree, toFinding } from './manifest'
import type { ResolvedOptions } from './options'
import { scanSkill } from './scanner'
import { normalizeFrontmatter, validateFrontmatter } from './schema'
import type { Diagnostic, LockSkill, ManifestSkill, ScanResult, SkillFile, SkillSource } from './types'
import type { FileEntry, SkillListing } from './walk'
import { joinPosix, listSkill, readEntry, SKILL_FILE } from './walk'

/** Phase A of a skill: its files listed and its SKILL.md read and parsed (enough to know its name). */
export interface SkillHead {
  location: SkillLocation
  listing: SkillListing
  /** path|size|mtime of every file: equal fingerprints mean the skill is unchanged on disk. */
  fingerprint: string
  name: string
  skillMd: SkillFile | null
  parsed: ParsedFrontmatter | null
  diagnostics: Diagnostic[]
}

/** Phase B: everything the build needs about one skill, cached by fingerprint. */
export interface ProcessedSkill {
  name: string
  location: SkillLocation
  fingerprint: string
  /** What the result depended on besides the files: names in the build, locked entry, options. */
  context: string
  lockEntry: LockSkill
  lockEntryText: string
  drift: SkillDrift | null
  manifest: ManifestSkill
  diagnostics: Diagnostic[]
  /** Text of each file that has a diagnostic, keyed by project-relative path (for code frames). */
  sources: Map<string, string>
  files: string[]
  dirs: string[]
}

export function fingerprintOf(entries: readonly FileEntry[]): string {
  let text = ''
  for (const e of entries) text += `${e.path}\0${e.size}\0${e.mtimeMs}\n`
  return sha256Hex(text)
}

export function readHead(location: SkillLocation, reuse?: { fingerprint: string; name: string }, known?: DirListings): SkillHead {
  const dirName = path.basename(location.dir)
  const listing = listSkill(location.dir, location.relDir, null, known)
  const fingerprint = fingerprintOf(listing.entries)
  const head: SkillHead = { location, listing, fingerprint, name: dirName, skillMd: null, parsed: null, diagnostics: [] }
  if (reuse && reuse.fingerprint === fingerprint) {
    head.name = reuse.name
    return head
  }
  const entry = listing.entries.find(e => e.path === SKILL_FILE)
  if (!entry) {
    head.diagnostics.push(diagnostic({ code: 'skill/no-skill-md', severity: 'error', message: 'SKILL.md is not a readable regular file', file: joinPosix(location.relDir, SKILL_FILE), skill: dirName, hint: 'A skill is a folder with a SKILL.md file.' }))
    return head
  }
  head.skillMd = readEntry(entry, location.relDir, dirName, head.diagnostics)
  if (head.skillMd?.text != null) {
    head.parsed = parseFrontmatter(head.skillMd.text)
    const name = head.parsed.data?.name
    if (typeof name === 'string' && name.trim()) head.name = name
  }
  return head
}

export interface ProcessContext {
  options: ResolvedOptions
  skillNames: ReadonlySet<string>
  /** The skill's locked entry; null when the lock exists but lacks it; undefined when there is no lock to compare. */
  locked: LockSkill | null | undefined
  /** Embed reference/example/scenario texts in the manifest (the CLI's `check` doesn't need them). */
  content: boolean
  scan: boolean
  customSchema: Record<string, unknown> | null
  /** Cache context for this skill; `usesNames` says whether the result depends on the set of skill names. */
  context: (usesNames: boolean) => string
}

/** Reads the rest of the skill once and runs every check on those bytes. */
export function processSkill(head: SkillHead, ctx: ProcessContext): ProcessedSkill {
  const { location, listing } = head
  const { options } = ctx
  const skill = head.name
  const skillMdPath = joinPosix(location.relDir, SKILL_FILE)
  const diagnostics: Diagnostic[] = [...listing.diagnostics, ...head.diagnostics].map(d => ({ ...d, skill }))

  const files: SkillFile[] = []
  for (const entry of listing.entries) {
    const file = entry.path === SKILL_FILE && head.skillMd ? head.skillMd : readEntry(entry, location.relDir, skill, diagnostics)
    if (file) files.push(file)
  }
  const skillMd = files.find(f => f.path === SKILL_FILE) ?? null
  const parsed = head.parsed
  const data = parsed?.data ?? null
  for (const issue of parsed?.diagnostics ?? []) diagnostics.push(diagnostic({ ...issue, file: skillMdPath, skill }))

  const dirName = path.basename(location.dir)
  const locate = (key: string): { line: number; column: number } | null => parsed?.locate(key) ?? null
  if (data) {
    diagnostics.push(...validateFrontmatter(data, { profile: options.profile, custom: ctx.customSchema, file: skillMdPath, skill, locate }))
    if (typeof data.name === 'string' && data.name !== dirName) {
      const at = locate('name')
      diagnostics.push(diagnostic({ code: 'skill/name-mismatch', severity: 'error', message: `name \`${data.name}\` differs from its folder \`${dirName}\``, file: skillMdPath, line: at?.line, column: at?.column, skill, hint: `Rename the folder to \`${data.name}\` or set \`name: ${dirName}\`.` }))
    }
  }
  checkStructure(files, parsed, ctx, location.relDir, skill, diagnostics)

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
  const scan: ScanResult = ctx.scan ? scanSkill(source, { ...options.scanner, deny: options.deny }) : { diagnostics: [], capabilities: { declared: [], detected: [] }, suppressions: [] }
  diagnostics.push(...scan.diagnostics)
  const enterprise = checkEnterprise(source, { options, scan, skillNames: ctx.skillNames })
  diagnostics.push(...enterprise.diagnostics)

  const digest = skillDigest(files)
  const version = typeof data?.version === 'string' ? data.version : null
  const lockEntry: LockSkill = { name: skill, source: location.source, version, digest, files: files.map(f => ({ path: f.path, sha256: f.sha256, size: f.size })) }
  const drift = ctx.locked === undefined ? null : diffSkill(lockEntry, ctx.locked, p => lineEndingAlternates(files.find(f => f.path === p)))

  const manifest: ManifestSkill = {
    name: skill,
    description: typeof data?.description === 'string' ? data.description : '',
    version,
    source: location.source,
    path: location.relDir,
    digest,
    integrity: { algorithm: 'sha-256', value: digest },
    frontmatter: data ? normalizeFrontmatter(data) : {},
    body: source.body,
    files: lockEntry.files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
    tree: buildTree(files, ctx.content),
    capabilities: scan.capabilities,
    findings: scan.diagnostics.map(toFinding),
    suppressions: scan.suppressions,
    scenarios: enterprise.scenarios,
    links: enterprise.links,
    workload: enterprise.workload,
    requiresApproval: enterprise.requiresApproval,
  }
  if (enterprise.uri) manifest.uri = enterprise.uri
  if (enterprise.urn) manifest.urn = enterprise.urn

  const sources = new Map<string, string>()
  for (const d of diagnostics) {
    if (!d.file || d.line === null || sources.has(d.file)) continue
    const file = files.find(f => joinPosix(location.relDir, f.path) === d.file)
    if (file?.text != null) sources.set(d.file, file.text)
  }
  return {
    name: skill,
    location,
    fingerprint: head.fingerprint,
    // Only scenarios (expected_skills) look at other skills: the rest stays cached when skills come and go.
    context: ctx.context(enterprise.scenarios.some(s => s.expected_skills.length > 0)),
    lockEntry,
    lockEntryText: serializeLockEntry(lockEntry),
    drift,
    manifest,
    diagnostics,
    sources,
    files: listing.entries.map(e => e.absPath),
    dirs: listing.dirs,
  }
}

/** Progressive disclosure (enterprise: references/ and examples/ required) and the body-size budget. */
function checkStructure(files: readonly SkillFile[], parsed: ParsedFrontmatter | null, ctx: ProcessContext, relDir: string, skill: string, out: Diagnostic[]): void {
  const skillMdPath = joinPosix(relDir, SKILL_FILE)
  for (const file of files) {
    if (file.size === 0 && file.path !== SKILL_FILE && !file.path.endsWith('.gitkeep'))
      out.push(diagnostic({ code: 'fs/empty-file', severity: 'warning', message: `${file.path} is empty`, file: joinPosix(relDir, file.path), skill, hint: 'Remove it or give it content.' }))
  }
  if (ctx.options.profile === 'enterprise') {
    const references = files.some(f => f.path.startsWith('references/') && f.path.endsWith('.md') && f.size > 0)
    const examples = files.some(f => f.path.startsWith('examples/') && f.size > 0)
    if (!references) out.push(diagnostic({ code: 'structure/references', severity: 'error', message: 'references/ must hold at least one non-empty .md file (enterprise profile)', file: skillMdPath, skill, hint: 'Move detailed guides out of SKILL.md into references/*.md, or set `profile: \'agentskills\'`.' }))
    if (!examples) out.push(diagnostic({ code: 'structure/examples', severity: 'error', message: 'examples/ must hold at least one non-empty file (enterprise profile)', file: skillMdPath, skill, hint: 'Add a usage example under examples/, or set `profile: \'agentskills\'`.' }))
  }
  if (parsed) {
    const lines = parsed.body.split('\n').length - (parsed.body.endsWith('\n') ? 1 : 0)
    if (lines > ctx.options.maxBodyLines) {
      out.push(diagnostic({
        code: 'structure/body-too-long',
        severity: 'warning',
        message: `the SKILL.md body has ${lines} lines (budget ${ctx.options.maxBodyLines})`,
        file: skillMdPath,
        line: parsed.bodyLine + ctx.options.maxBodyLines,
        column: 1,
        skill,
        hint: 'Keep SKILL.md a summary: move detail into references/*.md (progressive disclosure), or raise `maxBodyLines`.',
      }))
    }
  }
}

/** Hashes of a text file with the other line endings, to tell a CRLF/LF-only change from a real one. */
function lineEndingAlternates(file: SkillFile | undefined): { crlf?: string; lf?: string } {
  if (!file || file.text === null) return {}
  const raw = Buffer.from(file.bytes).toString('utf8')
  return raw.includes('\r\n') ? { lf: sha256Hex(raw.replace(/\r\n/g, '\n')) } : { crlf: sha256Hex(raw.replace(/\n/g, '\r\n')) }
}

function emptyFile(dir: string): SkillFile {
  return { path: SKILL_FILE, absPath: path.join(dir, SKILL_FILE), bytes: new Uint8Array(), size: 0, sha256: sha256Hex(''), text: '' }
}
