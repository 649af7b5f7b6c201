import { SATURATED } from './wasm-narrow'

/** Code units above 0xFF: a string with one has no exact latin1 copy. */
const WIDE = /[^\0-\xFF]/
/** The same, in runs. */
const WIDE_RUNS = /[^\0-\xFF]+/g

/**
 * The byte a code unit above 0xFF becomes in a text's byte copy (the kernel's SIMD narrowing saturates to
 * it). The finder tables treat every byte from 128 alike (the NON_ASCII bucket), as the code-unit path
 * treats every unit from 128, so the copy yields the same candidates, each verified on the text itself.
 * A latin1 write alone keeps a unit's low byte: U+2028 would read as `(`.
 */
export const WIDE_BYTE = SATURATED

export const hasWide = (text: string): boolean => WIDE.test(text)

/**
 * Overwrites the bytes of `text`'s code units above 0xFF, in its latin1 copy at `offset` of `bytes`, with
 * `WIDE_BYTE`.
 */
export function patchWide(text: string, bytes: Uint8Array, offset: number): void {
  WIDE_RUNS.lastIndex = 0
  for (let m = WIDE_RUNS.exec(text); m; m = WIDE_RUNS.exec(text))
    bytes.fill(WIDE_BYTE, offset + m.index, offset + m.index + m[0].length)
}
