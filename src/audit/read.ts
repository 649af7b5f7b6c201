import type { Diagnostic, SkillFile } from '../core/types'
import { Buffer, isAscii, isUtf8 } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'
import { compareBytewise, diagnostic } from '../core/diagnostics'
import { isInside } from '../core/fs'
import { sha256Hex } from '../core/hash'
import { archiveMembers } from './archive'
import { childPath, IGNORED_DIRS, isSkillDir, listsSkillFile, SKILL_FILE } from './layout'
import { isPickle, pickleCalls } from './pickle'

const MAX_DEPTH = 16
const MAX_FILES = 10_000

/**
 * A file found by the walk, not read yet. `realPath` is set for symlinks that stay inside the skill.
 * `size`/`mtimeMs` are -1 when listed without stat, until `readEntry` fills them from the open file.
 */
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

/** One skill's walk: where it is, what it reports, and the listing it fills. */
interface Context {
  skillDir: string
  /** Resolved when the first symlink needs it (most skills have none). */
  realSkillDir: string | null
  /** Stat every file while listing (for a fingerprint before reading); else `readEntry` fills size/mtime. */
  stat: boolean
  relDir: string
  skill: string | null
  out: SkillListing
}

// Control characters and backslashes would make the digest text (and `sha256sum` output) ambiguous.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const BAD_NAME = /[\u0000-\u001F\u007F\\]/

/**
 * Lists a skill's files without reading them. Symlinks are resolved and checked: one that leaves the
 * skill is an error and its target is never read; loops and dangling links are errors too.
 * Nested skills (a subfolder with its own SKILL.md) are excluded: they are skills of their own.
 */
export function listSkill(
  skillDir: string,
  relDir: string,
  skill: string | null,
  { stat = true }: { stat?: boolean } = {},
): SkillListing {
  const out: SkillListing = { entries: [], dirs: [], diagnostics: [] }
  walk({ skillDir, realSkillDir: null, stat, relDir, skill, out }, skillDir, '', 0)
  out.entries.sort((a, b) => compareBytewise(a.path, b.path))
  return out
}

function walk(ctx: Context, dir: string, rel: string, depth: number): void {
  const { out } = ctx
  let dirents: fs.Dirent[]
  try {
    dirents = fs.readdirSync(dir, { withFileTypes: true })
  }
  catch (error) {
    out.dirs.push(dir)
    out.diagnostics.push(fsError(error, join(ctx.relDir, rel), ctx.skill))
    return
  }
  // A nested skill is a skill of its own (discovery lists it by the same test), not part of this one.
  if (depth > 0 && listsSkillFile(dirents))
    return
  out.dirs.push(dir)
  for (const dirent of dirents) {
    const name = dirent.name
    const relPath = intern(rel ? `${rel}/${name}` : name)
    const absPath = childPath(dir, name)
    if (BAD_NAME.test(name)) {
      out.diagnostics.push(
        diagnostic({
          code: 'fs/bad-filename',
          severity: 'error',
          message: `file name ${JSON.stringify(relPath)} contains a control character or a backslash`,
          file: join(ctx.relDir, rel || '.'),
          skill: ctx.skill,
          hint: 'Rename it: such names make the file list (and the lock digest) ambiguous.',
        }),
      )
      continue
    }
    if (dirent.isDirectory()) {
      if (IGNORED_DIRS.has(name))
        continue
      if (depth + 1 > MAX_DEPTH) {
        // A nested skill down there is still not this skill's (nor too deep for it).
        if (isSkillDir(absPath))
          continue
        out.diagnostics.push(
          diagnostic({
            code: 'fs/too-deep',
            severity: 'error',
            message: `directory nesting exceeds ${MAX_DEPTH} levels`,
            file: join(ctx.relDir, relPath),
            skill: ctx.skill,
            hint: 'Flatten the skill layout.',
          }),
        )
        continue
      }
      walk(ctx, absPath, relPath, depth + 1)
    }
    else if (dirent.isFile()) {
      addFile(ctx, relPath, absPath)
    }
    else if (dirent.isSymbolicLink()) {
      followLink(ctx, relPath, absPath)
    }
    else {
      out.diagnostics.push(
        diagnostic({
          code: 'fs/special-file',
          severity: 'error',
          message: `${relPath} is not a regular file (FIFO, socket or device) and is not read`,
          file: join(ctx.relDir, relPath),
          skill: ctx.skill,
          hint: 'Skills may contain only regular files and directories.',
        }),
      )
    }
    if (out.entries.length > MAX_FILES) {
      out.diagnostics.push(
        diagnostic({
          code: 'fs/too-many-files',
          severity: 'error',
          message: `more than ${MAX_FILES} files`,
          file: ctx.relDir,
          skill: ctx.skill,
          hint: 'A skill this large is almost certainly a mistake (a vendored folder?).',
        }),
      )
      return
    }
  }
}

// Skills share layouts (SKILL.md, references/guide.md, ...): one string per path, not one per skill and
// file, for what the engine keeps (manifest and lock entries). Bounded, so odd trees can't grow it.
const interned = new Map<string, string>()
function intern(relPath: string): string {
  const known = interned.get(relPath)
  if (known !== undefined)
    return known
  if (interned.size < 4096)
    interned.set(relPath, relPath)
  return relPath
}

function followLink(ctx: Context, relPath: string, absPath: string): void {
  const { out } = ctx
  const display = join(ctx.relDir, relPath)
  let target: string
  try {
    target = fs.realpathSync.native(absPath)
  }
  catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const loop = code === 'ELOOP'
    out.diagnostics.push(
      diagnostic({
        code: loop ? 'fs/symlink-loop' : 'fs/symlink-dangling',
        severity: 'error',
        message: loop ? `symlink ${relPath} is part of a loop` : `symlink ${relPath} points to nothing (${code})`,
        file: display,
        skill: ctx.skill,
        hint: 'Replace the link with the file itself.',
      }),
    )
    return
  }
  try {
    ctx.realSkillDir ??= fs.realpathSync.native(ctx.skillDir)
  }
  catch (error) {
    out.diagnostics.push(fsError(error, display, ctx.skill))
    return
  }
  if (!isInside(ctx.realSkillDir, target)) {
    out.diagnostics.push(
      diagnostic({
        code: 'fs/symlink-escape',
        severity: 'error',
        message: `symlink ${relPath} points outside the skill; its target is not read`,
        file: display,
        skill: ctx.skill,
        hint: 'A skill must be self-contained: copy the file into the skill instead of linking to it.',
      }),
    )
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
    addFile(ctx, relPath, absPath, { realPath: target, stat })
  }
  else {
    out.diagnostics.push(
      diagnostic({
        code: 'fs/symlink-directory',
        severity: 'warning',
        message: `symlink ${relPath} points to a directory and is not followed`,
        file: display,
        skill: ctx.skill,
        hint: 'Its files are not part of the skill; copy them in if they should be.',
      }),
    )
  }
}

/** Lists a file; `link`: a symlink's checked target and its stat. */
function addFile(ctx: Context, relPath: string, absPath: string, link?: { realPath: string, stat: fs.Stats }): void {
  let stat = link?.stat
  if (!stat && ctx.stat) {
    try {
      stat = fs.statSync(absPath)
    }
    catch (error) {
      ctx.out.diagnostics.push(fsError(error, join(ctx.relDir, relPath), ctx.skill))
      return
    }
  }
  const size = stat?.size ?? -1
  ctx.out.entries.push({ path: relPath, absPath, size, mtimeMs: stat?.mtimeMs ?? -1, realPath: link?.realPath })
}

const TEXT_EXTENSIONS = new RegExp(
  String.raw`\.(?:${[
    'md|markdown|mdx|txt|rst',
    'js|mjs|cjs|jsx|ts|mts|cts|tsx',
    'py|sh|bash|zsh|fish|ps1|psm1|bat|cmd',
    'rb|go|rs|java|kt|php|pl|lua|r|sql',
    'json|jsonc|ya?ml|toml|ini|cfg|conf|env|csv|tsv|xml',
    'html?|css|scss|svg|graphql|gql|proto|dockerfile|makefile|tf|hcl',
  ].join('|')})$`,
  'i',
)
// O_NONBLOCK: a file swapped for a FIFO after the walk must not block the open; fstat then rejects it.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0)
// A file the walk saw as regular and that is a symlink by read time is not followed (ELOOP): it could
// point outside the skill. Symlinks the walk checked are opened by their resolved path.
const OPEN_FLAGS_REGULAR = OPEN_FLAGS | (fs.constants.O_NOFOLLOW ?? 0)

/**
 * One buffer for every read. Bytes are hashed and decoded while they are in it and never kept, so
 * reading 10,000 files allocates no 10,000 Buffers (and puts no external-memory pressure on the GC).
 * `readBytes` leaves a skill's bytes in it, one file after another, until `releaseBytes`: a check whose
 * stored result stands decodes none of them.
 */
const INITIAL_BUFFER = 256 * 1024
const MAX_KEPT_BUFFER = 16 * 1024 * 1024
let shared = Buffer.allocUnsafe(INITIAL_BUFFER)
/** Bytes of `shared` held by reads not released yet. */
let held = 0

/** A file read and hashed, its bytes still in the reads' buffer (valid until `releaseBytes`). */
export interface ReadBytes {
  entry: FileEntry
  size: number
  sha256: string
  start: number
}

/**
 * Reads one listed file into the reads' buffer, after the bytes held there, and hashes it. The listing's size
 * and mtime are updated from the open file (what was read is what the fingerprint describes).
 */
export function readBytes(
  entry: FileEntry,
  relDir: string,
  skill: string | null,
  diagnostics: Diagnostic[],
): ReadBytes | null {
  let size: number
  let fd: number | undefined
  try {
    fd = entry.realPath ? fs.openSync(entry.realPath, OPEN_FLAGS) : fs.openSync(entry.absPath, OPEN_FLAGS_REGULAR)
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) {
      diagnostics.push(
        diagnostic({
          code: 'fs/special-file',
          severity: 'error',
          message: `${entry.path} is not a regular file (FIFO, socket or device) and is not read`,
          file: join(relDir, entry.path),
          skill,
          hint: 'Skills may contain only regular files and directories.',
        }),
      )
      return null
    }
    entry.mtimeMs = stat.mtimeMs
    size = readAll(fd, stat.size)
    entry.size = size
  }
  catch (error) {
    diagnostics.push(fsError(error, join(relDir, entry.path), skill))
    return null
  }
  finally {
    if (fd !== undefined)
      fs.closeSync(fd)
  }
  const start = held
  held += size
  return { entry, size, sha256: sha256Hex(shared.subarray(start, held)), start }
}

/** The file of bytes `readBytes` holds: for text, the decoded string (invalid UTF-8 is a diagnostic). */
export function decodeBytes(
  raw: ReadBytes,
  relDir: string,
  skill: string | null,
  diagnostics: Diagnostic[],
): SkillFile {
  const { entry, size, sha256 } = raw
  const bytes = shared.subarray(raw.start, raw.start + size)
  const text = decodeText(bytes, entry.path, relDir, skill, diagnostics)
  const file: SkillFile = { path: entry.path, absPath: entry.absPath, size, sha256, text }
  return text === null ? Object.assign(file, binaryFacts(bytes, entry.path)) : file
}

/**
 * What a binary file's bytes say: its format, for a pickle the globals it calls when loaded, for an archive the
 * text files inside.
 */
export function binaryFacts(bytes: Uint8Array, path: string): Pick<SkillFile, 'format' | 'calls' | 'members'> {
  const format = binaryFormat(bytes)
  const calls = isPickle(bytes) ? pickleCalls(bytes) : []
  const members = format === 'archive' ? archiveMembers(bytes, path) : []
  return { format, ...(calls.length ? { calls } : {}), ...(members.length ? { members } : {}) }
}

/** The path of a read, held bytes or a decoded file. */
export function readPath(r: ReadBytes | SkillFile): string {
  return 'entry' in r ? r.entry.path : r.path
}

/** The file of a read: its held bytes decoded, or the file itself when it already is one. */
export function fileOfRead(
  r: ReadBytes | SkillFile,
  relDir: string,
  skill: string | null,
  diagnostics: Diagnostic[],
): SkillFile {
  return 'entry' in r ? decodeBytes(r, relDir, skill, diagnostics) : r
}

/** Gives the reads' buffer back: the bytes held are gone (one huge skill must not keep a huge buffer). */
export function releaseBytes(): void {
  held = 0
  if (shared.length > MAX_KEPT_BUFFER)
    shared = Buffer.allocUnsafe(INITIAL_BUFFER)
}

/** Reads, hashes and decodes one listed file (`readBytes`, `decodeBytes`), keeping none of its bytes. */
export function readEntry(
  entry: FileEntry,
  relDir: string,
  skill: string | null,
  diagnostics: Diagnostic[],
): SkillFile | null {
  const mark = held
  const raw = readBytes(entry, relDir, skill, diagnostics)
  const file = raw && decodeBytes(raw, relDir, skill, diagnostics)
  held = mark
  if (!mark)
    releaseBytes()
  return file
}

/**
 * Reads to EOF into the shared buffer (growing it when the file is larger than fstat said). A read of a
 * regular file that returns less than asked for, once fstat's size is in, has met the end: the read
 * that would return 0 is skipped (one syscall in five per file). A file that grew since fstat fills
 * the byte asked for past its size and is read on.
 */
function readAll(fd: number, expected: number): number {
  if (shared.length < held + expected + 1)
    grow(held + expected + 1, held)
  let size = 0
  for (;;) {
    if (held + size === shared.length)
      grow(shared.length + 1, held + size)
    const room = shared.length - held - size
    const n = fs.readSync(fd, shared, held + size, room, null)
    size += n
    if (n === 0 || (n < room && size >= expected))
      return size
  }
}

/** A larger buffer for the reads, with the old one's first `keep` bytes at the same offsets. */
function grow(needed: number, keep: number): void {
  const grown = Buffer.allocUnsafe(Math.max(needed, shared.length * 2))
  shared.copy(grown, 0, 0, keep)
  shared = grown
}

/**
 * The text of a file's bytes (BOM stripped), or null for a binary file. Invalid UTF-8 in a file that
 * should be text is an error diagnostic at its first bad sequence, and the file gets no text.
 */
function decodeText(
  bytes: Buffer,
  relPath: string,
  relDir: string,
  skill: string | null,
  diagnostics: Diagnostic[],
): string | null {
  const knownText = TEXT_EXTENSIONS.test(relPath) || path.posix.basename(relPath) === SKILL_FILE
  if (!knownText && bytes.subarray(0, 8192).includes(0))
    return null
  // ASCII (most skill files) is its own UTF-8 decoding: latin1 copies it into a one-byte string.
  if (isAscii(bytes))
    return bytes.toString('latin1')
  if (isUtf8(bytes)) {
    const bom = bytes.length >= 3 && bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF
    return bytes.toString('utf8', bom ? 3 : 0)
  }
  if (!knownText)
    return null
  const lossy = bytes.toString('utf8')
  const at = lossy.indexOf('\uFFFD')
  const { line, column } = lineColumn(lossy, Math.max(at, 0))
  diagnostics.push(
    diagnostic({
      code: 'fs/invalid-utf8',
      severity: 'error',
      message: `${relPath} is not valid UTF-8`,
      file: join(relDir, relPath),
      line,
      column,
      skill,
      hint: 'Re-save the file as UTF-8.',
    }),
  )
  return null
}

const startsWith = (b: Uint8Array, at: number, ...sig: number[]): boolean => sig.every((x, i) => b[at + i] === x)

/** What a binary file is, from its magic bytes: executables and archives are what a reviewer cannot read. */
export function binaryFormat(b: Uint8Array): NonNullable<SkillFile['format']> {
  if (startsWith(b, 0, 0x7F, 0x45, 0x4C, 0x46))
    return 'elf'
  if (startsWith(b, 0, 0x4D, 0x5A))
    return 'pe'
  const be = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0
  if ([0xFEEDFACE, 0xFEEDFACF, 0xCEFAEDFE, 0xCFFAEDFE].includes(be))
    return 'mach-o'
  // 0xCAFEBABE is a universal Mach-O (a small architecture count follows) or a Java class (a version >= 45).
  if (be === 0xCAFEBABE)
    return ((b[4]! << 8) | b[5]!) === 0 && ((b[6]! << 8) | b[7]!) < 40 ? 'mach-o' : 'binary'
  const archive = [
    [0x50, 0x4B, 0x03, 0x04],
    [0x50, 0x4B, 0x05, 0x06],
    [0x1F, 0x8B],
    [0x42, 0x5A, 0x68],
    [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00],
    [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C],
    [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07],
    [0x28, 0xB5, 0x2F, 0xFD],
  ]
  if (archive.some(sig => startsWith(b, 0, ...sig)) || startsWith(b, 257, 0x75, 0x73, 0x74, 0x61, 0x72))
    return 'archive'
  const media = [
    [0x89, 0x50, 0x4E, 0x47],
    [0xFF, 0xD8, 0xFF],
    [0x47, 0x49, 0x46, 0x38],
    [0x25, 0x50, 0x44, 0x46],
    [0x00, 0x01, 0x00, 0x00],
    [0x4F, 0x54, 0x54, 0x4F],
    [0x77, 0x4F, 0x46, 0x46],
    [0x77, 0x4F, 0x46, 0x32],
    [0x00, 0x00, 0x01, 0x00],
    [0x49, 0x44, 0x33],
    [0x4F, 0x67, 0x67, 0x53],
    [0x66, 0x4C, 0x61, 0x43],
  ]
  if (media.some(sig => startsWith(b, 0, ...sig)) || startsWith(b, 0, 0x52, 0x49, 0x46, 0x46)
    || startsWith(b, 4, 0x66, 0x74, 0x79, 0x70)) {
    return 'media'
  }
  return 'binary'
}

export function lineColumn(text: string, offset: number): { line: number, column: number } {
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

function join(relDir: string, rel: string): string {
  return rel === '.' || rel === '' ? relDir : relDir === '.' ? rel : `${relDir}/${rel}`
}
export { join as joinPosix }
