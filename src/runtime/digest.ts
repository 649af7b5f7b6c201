import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { digestInput } from '../core/digest'

/**
 * Bytewise (UTF-8) order without Buffer: comparing code points gives the same order as
 * comparing UTF-8 bytes, which is what `LC_ALL=C sort` and the engine use.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b)
    return 0
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(j)!
    if (x !== y)
      return x - y
    i += x > 0xFFFF ? 2 : 1
    j += y > 0xFFFF ? 2 : 1
  }
  return a.length - i - (b.length - j)
}

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data))
}

/**
 * The whole-artifact digest of a skill, the same recipe as the engine (and `sha256sum`): SHA-256 of
 * one `<sha256><two spaces><path>\n` line per file, files sorted bytewise by path. Sorts a copy, so
 * callers may pass files in any order.
 */
export function computeSkillDigest(files: ReadonlyArray<{ path: string, sha256: string }>): string {
  return sha256Hex(digestInput([...files].sort((a, b) => compareUtf8(a.path, b.path))))
}
