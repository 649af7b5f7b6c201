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

function entries(files: FetchedFiles): Array<[string, Uint8Array | string]> {
  if (Array.isArray(files))
    return (files as ReadonlyArray<{ path: string, bytes: Uint8Array | string }>).map(f => [f.path, f.bytes])
  if (files instanceof Map)
    return [...files.entries()]
  return Object.entries(files as Record<string, Uint8Array | string>)
}

/**
 * Recomputes the SHA-256 of files fetched at runtime (from a CDN, a cache, ...) and compares them,
 * and the whole-artifact digest, with the pre-compiled manifest. Never throws on bad input: an
 * unreadable entry counts as modified.
 */
export function verifySkill(skill: ManifestSkill, files: FetchedFiles, options: VerifyOptions = {}): SkillVerification {
  const expected = new Map(skill.files.map(f => [f.path, f.sha256]))
  const actual = new Map<string, string>()
  const modified: string[] = []
  const unexpected: string[] = []
  for (const [rawPath, bytes] of entries(files)) {
    const path = normalisePath(String(rawPath))
    let hash: string
    try {
      hash = sha256Hex(bytes)
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
  const missing = options.partial ? [] : [...expected.keys()].filter(p => !actual.has(p))
  const actualDigest = options.partial
    ? null
    : computeSkillDigest([...actual].map(([path, sha256]) => ({ path, sha256 })))
  const manifestConsistent = computeSkillDigest(skill.files) === skill.digest
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
