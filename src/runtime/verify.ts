import type { ManifestSkill } from '../core/types'
import { compareUtf8, computeSkillDigest, sha256Hex } from './digest'

/** Files fetched at runtime, by posix path relative to the skill root. Strings are hashed as UTF-8. */
export type FetchedFiles
  = | ReadonlyMap<string, Uint8Array | string>
    | Readonly<Record<string, Uint8Array | string>>
    | ReadonlyArray<{ path: string, bytes: Uint8Array | string }>

export interface VerifyOptions {
  /** Only some files were fetched: don't report the others as missing, and skip the digest check. */
  partial?: boolean
}

export interface SkillVerification {
  skill: string
  /** Every check passed: files and digest match the manifest. */
  ok: boolean
  /** Manifest files whose bytes hash differently. */
  modified: string[]
  /** Manifest files not supplied (always empty with `partial`). */
  missing: string[]
  /** Supplied files the manifest does not list. */
  unexpected: string[]
  /** The manifest's whole-artifact digest. */
  expectedDigest: string
  /** The digest recomputed from the supplied files (null with `partial`). */
  actualDigest: string | null
  /** The manifest's own file list hashes to its digest (false: the manifest entry itself was altered). */
  manifestConsistent: boolean
}

/** `./a/b` and `a//b` name the same file as `a/b`; anything escaping the root stays as given (and never matches). */
function normalisePath(p: string): string {
  return p
    .replace(/\\/g, '/')
    .split('/')
    .filter(s => s !== '' && s !== '.')
    .join('/')
}

type Entry = [path: unknown, bytes: unknown]

/** The supplied files as entries; anything that is not a container (null, a number, a string) supplies none. */
function entries(files: unknown): Entry[] {
  if (Array.isArray(files))
    return files.map((f: { path?: unknown, bytes?: unknown } | null | undefined): Entry => [f?.path, f?.bytes])
  if (files instanceof Map)
    return [...files.entries()]
  return files !== null && typeof files === 'object' ? Object.entries(files) : []
}

/** What verification reads of a manifest entry. `wellFormed` is false when any of it is missing or malformed. */
interface Expected {
  name: string
  digest: string
  files: Array<{ path: string, sha256: string }>
  wellFormed: boolean
}

function expectedOf(skill: unknown): Expected {
  const s = (skill !== null && typeof skill === 'object' ? skill : {}) as Record<string, unknown>
  const listed: unknown[] | null = Array.isArray(s.files) ? s.files : null
  const files = (listed ?? []).filter((f): f is { path: string, sha256: string } => {
    const entry = f as { path?: unknown, sha256?: unknown } | null | undefined
    return typeof entry?.path === 'string' && typeof entry.sha256 === 'string'
  })
  const digest = typeof s.digest === 'string' ? s.digest : ''
  const wellFormed = listed !== null && files.length === listed.length && digest !== ''
  return { name: typeof s.name === 'string' ? s.name : '', digest, files, wellFormed }
}

/**
 * Recomputes the SHA-256 of files fetched at runtime (from a CDN, a cache, ...) and compares them,
 * and the whole-artifact digest, with the pre-compiled manifest. Never throws on bad input, since it
 * guards what an app loads: an unreadable entry counts as modified, files that are no container
 * (`null`) as none supplied, and a skill that is no manifest entry (`null`, no `files`) fails with
 * `manifestConsistent: false`. Whatever else goes wrong (a throwing getter) fails verification too.
 */
export function verifySkill(skill: ManifestSkill, files: FetchedFiles, options: VerifyOptions = {}): SkillVerification {
  try {
    return verify(expectedOf(skill), files, options?.partial === true)
  }
  catch {
    return {
      skill: '',
      ok: false,
      modified: [],
      missing: [],
      unexpected: [],
      expectedDigest: '',
      actualDigest: null,
      manifestConsistent: false,
    }
  }
}

function verify(skill: Expected, files: unknown, partial: boolean): SkillVerification {
  const expected = new Map(skill.files.map(f => [f.path, f.sha256]))
  const actual = new Map<string, string>()
  const modified: string[] = []
  const unexpected: string[] = []
  for (const [rawPath, bytes] of entries(files)) {
    const path = normalisePath(String(rawPath))
    let hash: string
    try {
      hash = sha256Hex(bytes as Uint8Array | string)
    }
    catch {
      hash = ''
    }
    actual.set(path, hash)
    const want = expected.get(path)
    if (want === undefined)
      unexpected.push(path)
    else if (want !== hash)
      modified.push(path)
  }
  const missing = partial ? [] : [...expected.keys()].filter(p => !actual.has(p))
  const actualDigest = partial ? null : computeSkillDigest([...actual].map(([path, sha256]) => ({ path, sha256 })))
  const manifestConsistent = skill.wellFormed && computeSkillDigest(skill.files) === skill.digest
  const sort = (list: string[]) => list.sort(compareUtf8)
  return {
    skill: skill.name,
    ok:
      modified.length === 0
      && missing.length === 0
      && unexpected.length === 0
      && manifestConsistent
      && (actualDigest === null || actualDigest === skill.digest),
    modified: sort(modified),
    missing: sort(missing),
    unexpected: sort(unexpected),
    expectedDigest: skill.digest,
    actualDigest,
    manifestConsistent,
  }
}
