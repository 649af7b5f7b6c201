import { createHash } from 'node:crypto'
import { digestInput } from './digest'

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Whole-artifact digest of a skill; `files` must already be sorted bytewise by path. */
export function skillDigest(files: ReadonlyArray<{ path: string, sha256: string }>): string {
  return sha256Hex(digestInput(files))
}
