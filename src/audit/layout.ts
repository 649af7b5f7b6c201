/**
 * What a skill looks like on disk, for discovery (which folders are skills) and the walk (which files
 * belong to one): both read it here, so they never disagree about a nested skill.
 */
import fs from 'node:fs'
import path from 'node:path'

export const SKILL_FILE = 'SKILL.md'

/** Folders that never belong to a skill's artifact, nor hold skills. */
export const IGNORED_DIRS = new Set(['node_modules', '.git'])

/** What both read of a directory entry (an `fs.Dirent`). */
export interface DirEntry {
  name: string
  isFile: () => boolean
  isSymbolicLink: () => boolean
}

/** A folder is a skill when it lists a SKILL.md that is a file or a symlink (the walk checks where it points). */
export function listsSkillFile(entries: readonly DirEntry[]): boolean {
  return entries.some(isSkillFile)
}

/** The same test, for a folder whose listing is not at hand: its SKILL.md's own entry (not followed). */
export function isSkillDir(dir: string): boolean {
  let stat: fs.Stats | undefined
  try {
    stat = fs.lstatSync(path.join(dir, SKILL_FILE), { throwIfNoEntry: false })
  }
  catch {
    return false
  }
  return !!stat && (stat.isFile() || stat.isSymbolicLink())
}

function isSkillFile(entry: DirEntry): boolean {
  return entry.name === SKILL_FILE && (entry.isFile() || entry.isSymbolicLink())
}

// `dir` is absolute and normalised, and a listed name holds no separator: path.join's normalising
// is wasted on the walk's every entry.
export const childPath
  = path.sep === '/'
    ? (dir: string, name: string): string => (dir.endsWith('/') ? dir + name : `${dir}/${name}`)
    : path.join
