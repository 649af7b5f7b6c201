import fs from 'node:fs'
import path from 'node:path'
import { compareBytewise, diagnostic } from './diagnostics'
import { isInside } from './fs'
import { sha256Hex } from './hash'
import type { DirListings } from './discover'
import type { Diagnostic, SkillFile } from './types'

export const SKILL_FILE = 'SKILL.md'
/** Folders that never belong to a skill's artifact. */
export const IGNORED_DIRS = new Set(['node_modules', '.git'])
const MAX_DEPTH = 16
const MAX_FILES = 10_000

/** A file found by the walk, not read yet. `realPath` is set for symlinks that stay inside the skill. */
export interface FileEntry {
  path: string
  absPath: string
  size: number
  mtimeMs: number
  realPath?: string
}

export interface SkillListing {
  entries: FileEntry[]
  /** Every directory walked (absolute), for bundler watchers. */
  dirs: string[]
  diagnostics: Diagnostic[]
}

interface Context {
  skillDir: string
  realSkillDir: string
  relDir: string
  skill: string | null
  known: DirListings | undefined
}

// Control characters and backslashes would make the digest text (and `sha256sum` output) ambiguous.
const BAD_NAME = /[\u0000-\u001F\u007F\\]/

/**
 * Lists a skill's files without reading them. Symlinks are resolved and checked: one that leaves the
 * skill is an error and its target is never read; loops and dangling links are errors too.
 * Nested skills (a subfolder with its own SKILL.md) are excluded: they are skills of their own.
 */
export function listSkill(skillDir: string, relDir: string, skill: string | null, known?: DirListings): SkillListing {
  const listing: SkillListing = { entries: [], dirs: [], diagnostics: [] }
  let realSkillDir: string
  try {
    realSkillDir = fs.realpathSync.native(skillDir)
  }
  catch (error) {
    listing.diagnostics.push(fsError(error, relDir, skill))
    return listing
  }
  walk({ skillDir, realSkillDir, relDir, skill, known }, skillDir, '', 0, listing)
  listing.entries.sort((a, b) => compareBytewise(a.path, b.path))
  return listing
}

function walk(ctx: Context, dir: string, rel: string, depth: number, out: SkillListing): void {
  out.dirs.push(dir)
  let dirents = ctx.known?.entries.get(dir)
  if (!dirents) {
    try {
      dirents = fs.readdirSync(dir, { withFileTypes: true })
    }
    catch (error) {
      out.diagnostics.push(fsError(error, join(ctx.relDir, rel), ctx.skill))
      return
    }
  }
  for (const dirent of dirents) {
    const name = dirent.name
    const relPath = rel ? `${rel}/${name}` : name
    const absPath = path.join(dir, name)
    const display = join(ctx.relDir, relPath)
    if (BAD_NAME.test(name)) {
      out.diagnostics.push(diagnostic({
        code: 'fs/bad-filename',
        severity: 'error',
        message: `file name ${JSON.stringify(relPath)} contains a control character or a backslash`,
        file: join(ctx.relDir, rel || '.'),
        skill: ctx.skill,
        hint: 'Rename it: such names make the file list (and the lock digest) ambiguous.',
      }))
      continue
    }
    if (dirent.isDirectory()) {
      if (IGNORED_DIRS.has(name)) continue
      if (isNestedSkill(ctx, absPath)) continue
      if (depth + 1 > MAX_DEPTH) {
        out.diagnostics.push(diagnostic({ code: 'fs/too-deep', severity: 'error', message: `directory nesting exceeds ${MAX_DEPTH} levels`, file: display, skill: ctx.skill, hint: 'Flatten the skill layout.' }))
        continue
      }
      walk(ctx, absPath, relPath, depth + 1, out)
    }
    else if (dirent.isFile()) {
      addFile(ctx, out, relPath, absPath, undefined)
    }
    else if (dirent.isSymbolicLink()) {
      followLink(ctx, out, relPath, absPath)
    }
    else {
      out.diagnostics.push(diagnostic({ code: 'fs/special-file', severity: 'error', message: `${relPath} is not a regular file (FIFO, socket or device) and is not read`, file: display, skill: ctx.skill, hint: 'Skills may contain only regular files and directories.' }))
    }
    if (out.entries.length > MAX_FILES) {
      out.diagnostics.push(diagnostic({ code: 'fs/too-many-files', severity: 'error', message: `more than ${MAX_FILES} files`, file: ctx.relDir, skill: ctx.skill, hint: 'A skill this large is almost certainly a mistake (a vendored folder?).' }))
      return
    }
  }
}

/** Discovery's answer where it listed the folder (it stops at its depth bound); the disk's otherwise. */
function isNestedSkill(ctx: Context, dir: string): boolean {
  return ctx.known?.entries.has(dir) ? ctx.known.skillDirs.has(dir) : fs.existsSync(path.join(dir, SKILL_FILE))
}

function followLink(ctx: Context, out: SkillListing, relPath: string, absPath: string): void {
  const display = join(ctx.relDir, relPath)
  let target: string
  try {
    target = fs.realpathSync.native(absPath)
  }
  catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const loop = code === 'ELOOP'
    out.diagnostics.push(diagnostic({
      code: loop ? 'fs/symlink-loop' : 'fs/symlink-dangling',
      severity: 'error',
      message: loop ? `symlink ${relPath} is part of a loop` : `symlink ${relPath} points to nothing (${code})`,
      file: display,
      skill: ctx.skill,
      hint: 'Replace the link with the file itself.',
    }))
    return
  }
  if (!isInside(ctx.realSkillDir, target)) {
    out.diagnostics.push(diagnostic({
      code: 'fs/symlink-escape',
      severity: 'error',
      message: `symlink ${relPath} points outside the skill; its target is not read`,
      file: display,
      skill: ctx.skill,
      hint: 'A skill must be self-contained: copy the file into the skill instead of linking to it.',
    }))
    return
  }
  let stat: fs.Stats
  try {
    stat = fs.statSync(target)
  }
  catch (error) {
    out.diagnostics.push(fsError(error, display, ctx.skill))
    return
  }
  if (stat.isFile()) {
    addFile(ctx, out, relPath, absPath, target, stat)
  }
  else {
    out.diagnostics.push(diagnostic({ code: 'fs/symlink-directory', severity: 'warning', message: `symlink ${relPath} points to a directory and is not followed`, file: display, skill: ctx.skill, hint: 'Its files are not part of the skill; copy them in if they should be.' }))
  }
}

function addFile(ctx: Context, out: SkillListing, relPath: string, absPath: string, realPath: string | undefined, known?: fs.Stats): void {
  let stat = known
  try {
    stat ??= fs.statSync(absPath)
  }
  catch (error) {
    out.diagnostics.push(fsError(error, join(ctx.relDir, relPath), ctx.skill))
    return
  }
  out.entries.push({ path: relPath, absPath, size: stat.size, mtimeMs: stat.mtimeMs, realPath })
}

const TEXT_EXTENSIONS = /\.(?:md|markdown|mdx|txt|rst|js|mjs|cjs|jsx|ts|mts|cts|tsx|py|sh|bash|zsh|fish|ps1|psm1|bat|cmd|rb|go|rs|java|kt|php|pl|lua|r|sql|json|jsonc|ya?ml|toml|ini|cfg|conf|env|csv|tsv|xml|html?|css|scss|svg|graphql|gql|proto|dockerfile|makefile|tf|hcl)$/i
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** Reads one listed file: bytes, SHA-256 and, for text, the decoded string. */
export function readEntry(entry: FileEntry, relDir: string, skill: string | null, diagnostics: Diagnostic[]): SkillFile | null {
  let bytes: Buffer
  try {
    bytes = fs.readFileSync(entry.realPath ?? entry.absPath)
  }
  catch (error) {
    diagnostics.push(fsError(error, join(relDir, entry.path), skill))
    return null
  }
  return {
    path: entry.path,
    absPath: entry.absPath,
    bytes,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    text: decodeText(bytes, entry.path, relDir, skill, diagnostics),
  }
}

function decodeText(bytes: Buffer, relPath: string, relDir: string, skill: string | null, diagnostics: Diagnostic[]): string | null {
  const knownText = TEXT_EXTENSIONS.test(relPath) || path.posix.basename(relPath) === SKILL_FILE
  const probe = bytes.subarray(0, 8192)
  if (!knownText && probe.includes(0)) return null
  try {
    return utf8.decode(bytes)
  }
  catch {
    if (!knownText) return null
    const lossy = bytes.toString('utf8')
    const at = lossy.indexOf('\uFFFD')
    const { line, column } = lineColumn(lossy, Math.max(at, 0))
    diagnostics.push(diagnostic({
      code: 'fs/invalid-utf8',
      severity: 'error',
      message: `${relPath} is not valid UTF-8`,
      file: join(relDir, relPath),
      line,
      column,
      skill,
      hint: 'Re-save the file as UTF-8.',
    }))
    return null
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let start = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    start = i + 1
  }
  return { line, column: offset - start + 1 }
}

function fsError(error: unknown, file: string, skill: string | null): Diagnostic {
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO'
  return diagnostic({
    code: 'fs/unreadable',
    severity: 'error',
    message: `${file} could not be read (${code})`,
    file,
    skill,
    hint: code === 'EACCES' || code === 'EPERM' ? 'Check the file permissions.' : null,
  })
}

const join = (relDir: string, rel: string): string => (rel === '.' || rel === '' ? relDir : relDir === '.' ? rel : `${relDir}/${rel}`)
export { join as joinPosix }
