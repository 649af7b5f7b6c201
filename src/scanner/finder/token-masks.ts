import type { Set130 } from './regex-subset'
import { B, END, isWord, NON_ASCII, parse, prefixes, Unsupported } from './regex-subset'

/**
 * What a finder's tables are made of, shared by every finder: byte classes, each token's analysis into
 * parts (its distinct prefixes, as the bucket masks they allow at the third to eighth character), and
 * the 257-byte forms of those masks. tables.ts builds a finder's tables from them, token-bits.ts the
 * per-part checks.
 */

/**
 * Byte classes for the first-stage filter, 6 bits: odd for word characters, so that in a rolling window
 * of four classes bit 18 is the previous byte's word-ness. Letters fold to one class per letter, digits
 * share one, punctuation keeps its own, everything else shares class 0. Classes only merge bytes, so a
 * filter built through them admits every byte sequence the exact tables admit.
 */
export const CLS = (() => {
  const out = new Uint8Array(256)
  const punct = '!"#$%&\'()*+,-./:;<=>?@[\\]^`{|}'
  for (let c = 0; c < 256; c++) {
    if (c >= 97 && c <= 122)
      out[c] = 2 * (c - 97) + 1
    else if (c >= 65 && c <= 90)
      out[c] = 2 * (c - 65) + 1
    else if (c >= 48 && c <= 57)
      out[c] = 53
    else if (c === 95)
      out[c] = 55
    else if (c === 9 || c === 10 || c === 11 || c === 12 || c === 13 || c === 32)
      out[c] = 2
    else if (c < 128 && punct.includes(String.fromCharCode(c)))
      out[c] = 4 + 2 * punct.indexOf(String.fromCharCode(c))
    else out[c] = 0
  }
  return out
})()
/** Class of the virtual byte before a text (a space: not a word character). */
export const CLS_START = 2
/** 1 when the byte is not a word character, 2 when it is (matches a group's `pw` bits). */
export const WORD_BIT = new Uint8Array(256).map((_, c) => (isWord(c) ? 2 : 1))

/**
 * Six 130-bit masks (third to eighth character) as 5 words each, in plain arrays
 * (no off-heap allocation per entry).
 */
export const WORDS = 5
export const MASKS = 6
export type Masks = number[]

/** One prefix of a token: the first and second buckets it takes, and the masks it adds to the keys it touches. */
export interface Part {
  as: number[]
  bs: number[]
  masks: Masks
}

/**
 * An entry: the token list and masks after a given sequence of parts (shared by every key that saw it);
 * the sequence is the chain of `parent` entries, each added by its `part` (an id).
 */
export interface Entry {
  list: number[]
  listHash: number
  masks: Masks
  unit: number
  parent: number
  part: number
}

const bit = (m: Masks, base: number, c: number): number => (m[base + (c >> 5)]! >>> (c & 31)) & 1

// Contents are compared through a hash and then exactly (no key strings: this runs cold, once per finder).
export const mix = (h: number, v: number): number => Math.imul(h ^ v, 0x01000193)
export function hashWords(h: number, m: Masks, from: number, to: number): number {
  for (let w = from; w < to; w++) h = mix(h, m[w]!)
  return h
}
export function sameWords(a: Masks, b: Masks, from: number, to: number): boolean {
  for (let w = from; w < to; w++) {
    if (a[w] !== b[w])
      return false
  }
  return true
}
/** Whether the mask at `from` is one that allows every byte (`mode.any` or `mode.all`). */
export function allowsAll(mode: Mode, m: Masks, from: number): boolean {
  let any = true
  let all = true
  for (let w = 0; w < WORDS; w++) {
    if (m[from + w] !== mode.any[w])
      any = false
    if (m[from + w] !== mode.all[w])
      all = false
  }
  return any || all
}
export function sameList(a: number[], b: number[]): boolean {
  if (a === b)
    return true
  if (a.length !== b.length)
    return false
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i])
      return false
  }
  return true
}
export function listHash(list: number[]): number {
  let h = 0x811C9DC5
  for (let i = 0; i < list.length; i++) h = mix(h, list[i]!)
  return h
}

/** Per character set: its folded buckets as first character, as second, and as a mask. */
interface SetInfo {
  as: number[]
  bs: number[]
  bits: number[]
}
/** A bucketed 257-byte mask and the byte classes it admits. */
interface Template {
  words: Masks
  bytes: Uint8Array
  classes: number[]
}

/** What depends only on the case mode; made on first use and shared by every finder of that mode. */
export interface Mode {
  fold: Uint8Array
  /** Keyed by the parser's sets, which are shared and never modified. */
  info: WeakMap<Set130, SetInfo>
  /** All 130 buckets (a prefix that ended), and the folded ones (anything after a one-character prefix). */
  all: number[]
  any: number[]
  /** Per bucket: the bytes that fall in it, and their classes. */
  bytesOf: number[][]
  classesOf: number[][]
  /** By hash of the mask's words. */
  templates: Map<number, Template[]>
  anyTemplate?: Template
}
const MODES: Array<Mode | undefined> = []

export function modeOf(ignoreCase: boolean): Mode {
  const known = MODES[ignoreCase ? 1 : 0]
  if (known)
    return known
  const fold = new Uint8Array(128).map((_, c) => (ignoreCase && c >= 65 && c <= 90 ? c + 32 : c))
  const all = new Array<number>(WORDS).fill(0)
  const any = new Array<number>(WORDS).fill(0)
  for (let c = 0; c < B; c++) {
    all[c >> 5]! |= 1 << (c & 31)
    if (c >= 128 || fold[c] === c)
      any[c >> 5]! |= 1 << (c & 31)
  }
  const bytesOf: number[][] = Array.from({ length: B }, () => [])
  const classesOf: number[][] = Array.from({ length: B }, () => [])
  for (let x = 0; x < 256; x++) {
    const a = x < 128 ? fold[x]! : NON_ASCII
    bytesOf[a]!.push(x)
    if (!classesOf[a]!.includes(CLS[x]!))
      classesOf[a]!.push(CLS[x]!)
  }
  const mode: Mode = { fold, info: new WeakMap(), all, any, bytesOf, classesOf, templates: new Map() }
  MODES[ignoreCase ? 1 : 0] = mode
  return mode
}

function setInfo(mode: Mode, set: Set130): SetInfo {
  let out = mode.info.get(set)
  if (out)
    return out
  out = { as: [], bs: [], bits: new Array<number>(WORDS).fill(0) }
  for (let c = 0; c < B; c++) {
    if (!set[c] || (c < 128 && mode.fold[c] !== c))
      continue
    if (c < END)
      out.as.push(c)
    out.bs.push(c)
    out.bits[c >> 5]! |= 1 << (c & 31)
  }
  mode.info.set(set, out)
  return out
}

/** The 257-byte form of one 130-bit mask (byte, or 256 = end of text), shared by equal masks of every finder. */
export function template(mode: Mode, m: Masks, base: number): Template {
  // Most later-character masks allow anything: no key to build for those.
  if (
    m[base] === mode.any[0]
    && m[base + 1] === mode.any[1]
    && m[base + 2] === mode.any[2]
    && m[base + 3] === mode.any[3]
    && m[base + 4] === mode.any[4]
  ) {
    return (mode.anyTemplate ??= make(mode, m, base))
  }
  const h = hashWords(0x811C9DC5, m, base, base + WORDS)
  let bucket = mode.templates.get(h)
  if (bucket) {
    for (let i = 0; i < bucket.length; i++) {
      const w = bucket[i]!.words
      if (
        w[0] === m[base]
        && w[1] === m[base + 1]
        && w[2] === m[base + 2]
        && w[3] === m[base + 3]
        && w[4] === m[base + 4]
      ) {
        return bucket[i]!
      }
    }
  }
  if (mode.templates.size >= 4096)
    mode.templates.clear()
  if (!bucket)
    mode.templates.set(h, (bucket = []))
  const t = make(mode, m, base)
  bucket.push(t)
  return t
}

function make(mode: Mode, m: Masks, base: number): Template {
  const words = m.slice(base, base + WORDS)
  const bytes = new Uint8Array(257)
  for (let z = 0; z < 128; z++) bytes[z] = bit(m, base, mode.fold[z]!)
  bytes.fill(bit(m, base, NON_ASCII), 128, 256)
  bytes[256] = bit(m, base, END)
  const seen = new Uint8Array(64)
  const classes: number[] = []
  for (let c = 0; c < END; c++) {
    if (!bit(m, base, c))
      continue
    const of = mode.classesOf[c]!
    for (let i = 0; i < of.length; i++) {
      if (!seen[of[i]!]) {
        seen[of[i]!] = 1
        classes.push(of[i]!)
      }
    }
  }
  return { words, bytes, classes }
}

const EVERY_B = Array.from({ length: B }, (_, b) => b)

/**
 * A token's analysis (whether it starts with `\b`, its distinct prefixes of up to 8 sets as parts), shared
 * by every finder with that token.
 */
export interface Analysis {
  lead: boolean
  parts: Part[]
}
const ANALYSES = new Map<string, Analysis>()

export function analyse(token: string, ignoreCase: boolean): Analysis {
  const key = `${ignoreCase ? 'i' : 'c'}${token}`
  let a = ANALYSES.get(key)
  if (a)
    return a
  const ast = parse(token, ignoreCase)
  const lead = ast.t === 'seq' && ast.items[0]?.t === 'empty' && ast.items[0].wordBoundary === true
  const mode = modeOf(ignoreCase)
  const seen = new Set<string>()
  const ids = new Map<Set130, number>()
  const parts: Part[] = []
  const all = prefixes(ast, 8)
  for (let i = 0; i < all.length; i++) {
    const sets = all[i]!.sets
    const n = sets.length
    if (n === 0)
      throw new Unsupported('token can match the empty string')
    // Prefixes repeat (`\s*` unrolled): only the sets (by identity) and their number matter.
    const same = sets.map(s => ids.get(s) ?? (ids.set(s, ids.size), ids.size - 1)).join(',')
    if (seen.has(same))
      continue
    seen.add(same)
    const masks: Masks = new Array<number>(WORDS * MASKS)
    // Mask k (third to eighth character) reads set k - 1: all characters once the prefix ended
    // there, its folded buckets if the prefix is longer, and anything when it is a single character.
    for (let k = 3; k <= 8; k++) {
      const m = n >= k - 1 ? (sets[k - 1] ? setInfo(mode, sets[k - 1]!).bits : mode.all) : mode.any
      for (let w = 0; w < WORDS; w++) masks[(k - 3) * WORDS + w] = m[w]!
    }
    parts.push({ as: setInfo(mode, sets[0]!).as, bs: n > 1 ? setInfo(mode, sets[1]!).bs : EVERY_B, masks })
  }
  // Built-in tokens are a few hundred; a caller feeding endless new ones does not grow this without bound.
  if (ANALYSES.size >= 4096)
    ANALYSES.clear()
  ANALYSES.set(key, (a = { lead, parts }))
  return a
}
