import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'

export const toPosix = (p: string): string => p.split(path.sep).join('/')

/** posix path of `target` relative to `from` (`.` when equal). */
export function relativePosix(from: string, target: string): string {
  return toPosix(path.relative(from, target)) || '.'
}

/** Whether `child` is `parent` or inside it (both absolute, already resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/** What is at `file` now, symlinks followed; null when nothing is (or a link points nowhere). */
function statOf(file: string): fs.Stats | null {
  try {
    return fs.statSync(file)
  }
  catch {
    return null
  }
}

/**
 * Writes through a temp file in the same directory and renames it: readers never see half a file. A file that
 * exists keeps its permissions; a symlink stays a link, and the file it points to is written. A device, a FIFO
 * or a socket (`-o /dev/null`, `-o /dev/stdout`) is written in place: a rename would replace it with a file.
 */
export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  writeAtomicOver(file, content, statOf(file))
}

/** `writeFileAtomic` given what is at `file` now (`writeIfChanged` has looked already). */
function writeAtomicOver(file: string, content: string | Uint8Array, stat: fs.Stats | null): void {
  if (stat && !stat.isFile()) {
    if (stat.isDirectory())
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${file}'`), { code: 'EISDIR' })
    fs.writeFileSync(file, content)
    return
  }
  const target = stat ? fs.realpathSync(file) : file
  fs.mkdirSync(path.dirname(target), { recursive: true })
  const temp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`
  try {
    fs.writeFileSync(temp, content)
    if (stat)
      fs.chmodSync(temp, stat.mode & 0o7777)
    fs.renameSync(temp, target)
  }
  catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
}

/** Atomic write that leaves the file (and its mtime) alone when the content is already there. */
export function writeIfChanged(file: string, content: string): boolean {
  const stat = statOf(file)
  // Only a regular file is compared: reading a FIFO would wait for a writer.
  if (stat?.isFile()) {
    try {
      if (fs.readFileSync(file, 'utf8') === content)
        return false
    }
    catch {}
  }
  writeAtomicOver(file, content, stat)
  return true
}
