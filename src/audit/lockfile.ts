import type { ValidateFunction } from 'ajv'
import type { Capability, Diagnostic, LockFile, LockSkill } from '../core/types'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { compareBytewise, diagnostic } from '../core/diagnostics'
import { lockfile } from '../generated/lock-validator.js'
import { jsonSyntaxError, locateJsonPointer } from './json-locate'
import { lineColumn } from './read'

export const LOCKFILE_VERSION = 2

const validateLock = lockfile as ValidateFunction<LockFile>

/** One skill's entry as it is written in the lock: 2-space JSON, indented for its place in `skills`. */
export function serializeLockEntry(entry: LockSkill): string {
  return JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ').replace(/^/, '    ')
}

const LOCK_HEAD = `{\n  "lockfileVersion": ${LOCKFILE_VERSION},\n  "skills": [\n`
const LOCK_TAIL = '\n  ]\n}\n'
const EMPTY_LOCK = `{\n  "lockfileVersion": ${LOCKFILE_VERSION},\n  "skills": []\n}\n`

/** The lock text from serialised entries (already sorted by name): deterministic, trailing newline. */
export function joinLock(entries: readonly string[]): string {
  return entries.length ? `${LOCK_HEAD}${entries.join(',\n')}${LOCK_TAIL}` : EMPTY_LOCK
}

/**
 * SHA-256 of `joinLock(entries)`, fed entry by entry: the whole text needn't exist, and joining every
 * entry into one string would cost more than hashing them.
 */
export function lockDigest(entries: readonly string[]): string {
  const hash = createHash('sha256')
  if (!entries.length)
    return hash.update(EMPTY_LOCK).digest('hex')
  hash.update(LOCK_HEAD)
  entries.forEach((entry, i) => {
    if (i)
      hash.update(',\n')
    hash.update(entry)
  })
  return hash.update(LOCK_TAIL).digest('hex')
}

export type LockRead
  = | { status: 'missing' }
    | { status: 'corrupt', diagnostic: Diagnostic, text?: string }
    | { status: 'ok', lock: LockFile, text: string, bySkill: Map<string, LockSkill>, outdated: Diagnostic | null }

/** Reads and validates `.manifest.lock`. A broken lock is reported, never repaired. */
export function readLock(file: string, display: string): LockRead {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  }
  catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { status: 'missing' }
    return corrupt(display, `the lock could not be read (${(error as NodeJS.ErrnoException).code})`, 1, 1)
  }
  return parseLock(text, display)
}

/** A skill's locked entry: null when the lock lacks it, undefined when there is no valid lock to compare with. */
export function lockedEntry(read: LockRead | null, name: string): LockSkill | null | undefined {
  return read?.status === 'ok' ? (read.bySkill.get(name) ?? null) : undefined
}

/** Validates the text of a lock (`display`: its path as diagnostics show it). */
export function parseLock(text: string, display: string): LockRead {
  let data: unknown
  try {
    data = JSON.parse(text)
  }
  catch (error) {
    // Our own scan names the broken place on every Node version; JSON.parse's message only as a last resort.
    const broken = jsonSyntaxError(text) ?? { offset: 0, message: (error as Error).message }
    const { line, column } = lineColumn(text, broken.offset)
    return { ...corrupt(display, `the lock is not valid JSON: ${broken.message}`, line, column), text }
  }
  const at = (pointer: string, key = false): { line: number, column: number } => {
    const spot = locateJsonPointer(text, pointer)
    return lineColumn(text, spot ? (key && spot.key !== null ? spot.key : spot.value) : 0)
  }
  if (!validateLock(data)) {
    const error = validateLock.errors?.[0]
    const version = (data as { lockfileVersion?: unknown } | null)?.lockfileVersion
    if (version !== undefined && version !== 1 && version !== LOCKFILE_VERSION) {
      const where = at('/lockfileVersion')
      const message = `lockfileVersion ${JSON.stringify(version)} is not supported (expected ${LOCKFILE_VERSION})`
      return { ...corrupt(display, message, where.line, where.column), text }
    }
    // An unexpected key is shown at the key; any other fault at the value that breaks the shape.
    const extra = error?.keyword === 'additionalProperties'
      ? (error.params as { additionalProperty: string }).additionalProperty
      : null
    const where = extra !== null
      ? at(`${error!.instancePath}/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}`, true)
      : at(error?.instancePath ?? '')
    const fault = extra !== null ? `has an unexpected key \`${extra}\`` : error?.message
    const shape = `the lock does not have the expected shape: ${error?.instancePath || '(root)'} ${fault}`
    return { ...corrupt(display, shape, where.line, where.column), text }
  }
  const bySkill = new Map<string, LockSkill>()
  for (const [i, skill] of data.skills.entries()) {
    if (bySkill.has(skill.name)) {
      const where = at(`/skills/${i}/name`)
      const twice = `the lock lists skill \`${skill.name}\` twice`
      return { ...corrupt(display, twice, where.line, where.column), text }
    }
    bySkill.set(skill.name, skill)
  }
  const old = data.lockfileVersion === 1 ? outdated(display, at('/lockfileVersion')) : null
  return { status: 'ok', lock: data, text, bySkill, outdated: old }
}

/** A version 1 lock: its files are still compared, but it records no capabilities for review. */
function outdated(file: string, where: { line: number, column: number }): Diagnostic {
  return diagnostic({
    code: 'lock/outdated',
    severity: 'error',
    message: `${file} is lockfileVersion 1, which records no capabilities: it must be upgraded to version 2`,
    file,
    ...where,
    hint: 'Run `npx unplugin-skills lock`: it upgrades the lock and prints each skill\'s capabilities for review; '
      + 'commit the result.',
  })
}

function corrupt(
  file: string,
  message: string,
  line: number,
  column: number,
): Extract<LockRead, { status: 'corrupt' }> {
  return {
    status: 'corrupt',
    diagnostic: diagnostic({
      code: 'lock/corrupt',
      severity: 'error',
      message,
      file,
      line,
      column,
      hint:
        'The lock was edited by hand or damaged. Restore it from version control, or regenerate it on purpose '
        + 'with `unplugin-skills lock --force` and review the diff.',
    }),
  }
}

export interface FileChange {
  path: string
  change: 'added' | 'removed' | 'modified'
  /** Only line endings differ (CRLF vs LF). */
  lineEndings?: 'crlf-now' | 'lf-now'
}

export interface SkillDrift {
  name: string
  change: 'added' | 'removed' | 'modified'
  version?: [string | null, string | null]
  source?: [string, string]
  /** Capabilities detected now and not recorded in the lock (`added`), or recorded and no longer detected. */
  capabilities?: { added: Capability[], removed: Capability[] }
  files: FileChange[]
}

/**
 * Compares one skill with its locked entry. `alternates` gives, for text files, the hash with the other
 * line endings.
 */
export function diffSkill(
  current: LockSkill,
  locked: LockSkill | null,
  alternates: (path: string) => { crlf?: string, lf?: string },
): SkillDrift | null {
  if (!locked)
    return { name: current.name, change: 'added', files: current.files.map(f => ({ path: f.path, change: 'added' })) }
  // Whole-entry comparison: a hand-edited file hash must not hide behind an untouched digest.
  if (sameEntry(locked, current))
    return null
  const drift: SkillDrift = { name: current.name, change: 'modified', files: [] }
  if (locked.version !== current.version)
    drift.version = [locked.version, current.version]
  if (locked.source !== current.source)
    drift.source = [locked.source, current.source]
  if (locked.capabilities) {
    const now = current.capabilities ?? []
    const added = now.filter(c => !locked.capabilities!.includes(c))
    const removed = locked.capabilities.filter(c => !now.includes(c))
    if (added.length || removed.length)
      drift.capabilities = { added, removed }
  }
  const before = new Map(locked.files.map(f => [f.path, f]))
  for (const file of current.files) {
    const old = before.get(file.path)
    before.delete(file.path)
    if (!old) {
      drift.files.push({ path: file.path, change: 'added' })
    }
    else if (old.sha256 !== file.sha256) {
      const alt = alternates(file.path)
      const change: FileChange = { path: file.path, change: 'modified' }
      if (alt.lf === old.sha256)
        change.lineEndings = 'crlf-now'
      else if (alt.crlf === old.sha256)
        change.lineEndings = 'lf-now'
      drift.files.push(change)
    }
  }
  for (const path of before.keys()) drift.files.push({ path, change: 'removed' })
  if (!drift.files.length && !drift.version && !drift.source && !drift.capabilities && locked.digest !== current.digest)
    drift.files.push({ path: '(digest)', change: 'modified' })
  drift.files.sort((a, b) => compareBytewise(a.path, b.path))
  return drift
}

const ENTRY_KEYS = ['name', 'source', 'version', 'digest', 'capabilities', 'files']
/** A version 1 entry: no capabilities (compared by files only; the lock as a whole is reported outdated). */
const V1_ENTRY_KEYS = ['name', 'source', 'version', 'digest', 'files']
const FILE_KEYS = ['path', 'sha256', 'size']

/** Whether an object's own keys are `keys`, in that order (JSON.stringify writes them in that order). */
function keysAre(value: object, keys: readonly string[]): boolean {
  let i = 0
  for (const key in value) {
    if (key !== keys[i++])
      return false
  }
  return i === keys.length
}

/**
 * `JSON.stringify(locked) === JSON.stringify(current)` without writing either: the same values, and the
 * locked entry's keys in the order the engine writes them (`current` is the engine's, always in that order).
 */
function sameEntry(locked: LockSkill, current: LockSkill): boolean {
  if (
    locked.name !== current.name
    || locked.source !== current.source
    || locked.version !== current.version
    || locked.digest !== current.digest
  ) {
    return false
  }
  const v1 = locked.capabilities === undefined
  if (!v1 && !sameList(locked.capabilities!, current.capabilities ?? []))
    return false
  if (locked.files.length !== current.files.length || !keysAre(locked, v1 ? V1_ENTRY_KEYS : ENTRY_KEYS))
    return false
  for (let i = 0; i < current.files.length; i++) {
    const a = locked.files[i]
    const b = current.files[i]
    if (a.path !== b.path || a.sha256 !== b.sha256 || a.size !== b.size || !keysAre(a, FILE_KEYS))
      return false
  }
  return true
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

export function removedSkill(locked: LockSkill): SkillDrift {
  return { name: locked.name, change: 'removed', files: locked.files.map(f => ({ path: f.path, change: 'removed' })) }
}

const CHANGE_WORDS: Record<SkillDrift['change'], string> = {
  modified: 'changed',
  added: 'is not in the lock',
  removed: 'is in the lock but no longer found',
}

/** `+ network, + process, - env`: what a review of the new version must look at first. */
export function capabilityChange(change: { added: Capability[], removed: Capability[] }): string {
  return [...change.added.map(c => `+ ${c}`), ...change.removed.map(c => `- ${c}`)].join(', ')
}

/** Human summary of one skill's drift, one line per file. */
export function describeDrift(drift: SkillDrift): string {
  const lines = [
    `skill \`${drift.name}\` ${CHANGE_WORDS[drift.change]}`,
  ]
  if (drift.version)
    lines.push(`  version ${drift.version[0] ?? '(none)'} -> ${drift.version[1] ?? '(none)'}`)
  if (drift.source)
    lines.push(`  source ${drift.source[0]} -> ${drift.source[1]}`)
  if (drift.capabilities)
    lines.push(`  capabilities: ${capabilityChange(drift.capabilities)}`)
  if (drift.change === 'modified') {
    for (const f of drift.files) {
      const note
        = f.lineEndings === 'crlf-now'
          ? ' (only line endings: now CRLF, locked as LF)'
          : f.lineEndings === 'lf-now'
            ? ' (only line endings: now LF, locked as CRLF)'
            : ''
      lines.push(`  ${f.change === 'added' ? '+' : f.change === 'removed' ? '-' : '~'} ${f.path}${note}`)
    }
  }
  return lines.join('\n')
}
