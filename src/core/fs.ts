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

/** Writes through a temp file in the same directory and renames it: readers never see half a file. */
export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`
  try {
    fs.writeFileSync(temp, content)
    fs.renameSync(temp, file)
  }
  catch (error) {
    fs.rmSync(temp, { force: true })
    throw error
  }
}

/** Atomic write that leaves the file (and its mtime) alone when the content is already there. */
export function writeIfChanged(file: string, content: string): boolean {
  try {
    if (fs.readFileSync(file, 'utf8') === content)
      return false
  }
  catch {}
  writeFileAtomic(file, content)
  return true
}
