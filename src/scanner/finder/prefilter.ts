import type { Kernel } from './kernel'
import type { FinderTables, KernelTables } from './tables'
import { Buffer } from 'node:buffer'
import { createKernel } from './kernel'
import { B, END, isWord, NON_ASCII } from './regex-subset'
import { shippedStore } from './store'
import { buildTables, newTables } from './tables'
import { CLS, CLS_START, WORD_BIT } from './token-masks'
import { hasWide, patchWide, WIDE_BYTE } from './wide'

/**
 * A literal-speed stand-in for `combined.exec(text)` over a big alternation of anchor tokens.
 *
 * V8 runs an alternation of ~120 case-insensitive tokens slowly because it tries every
 * alternative at every position. Here each token is reduced (by a small regex analyser) to the set of
 * character pairs its matches can start with; one pass over the text looks the pair at each position
 * up in a table and only where a pair fits runs a sticky regex of the few tokens that can start with
 * it, in their original order. Positions no token can start at cannot start a match of the
 * alternation, and among the tokens that can, the first one that matches wins as before: the hits
 * (position and matched text) are exactly those of the global regex.
 *
 * Stages per position, cheapest first: a 64 KB bitset over (previous byte's word-ness, three byte
 * classes); the exact pair table with the allowed third to eighth bytes of its group, per token prefix
 * (`tbits`); the sticky regex of the tokens left, skipped when the one token left is a short literal
 * whose every byte was checked. The first two run in a small WebAssembly loop (wasm-filter.ts) over the
 * text's latin1 bytes (the JS loop, without WebAssembly, checks per group and runs the group's regex).
 * The regex analyser is regex-subset.ts, the tables are built by finder-tables.ts (on a finder's
 * first use when it comes from `lazyFinder`: importing the scanner builds nothing).
 * gates.ts derives the line patterns' conditions from the same analyser (`conditionsOf`), used by text-scan.ts.
 */

/** Top-level alternatives of a regex source (groups and classes respected). */
export function splitAlternatives(src: string): string[] {
  const parts: string[] = []
  let depth = 0
  let cls = false
  let cur = ''
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!
    if (ch === '\\') {
      cur += ch + (src[i + 1] ?? '')
      i++
      continue
    }
    if (cls) {
      if (ch === ']')
        cls = false
      cur += ch
      continue
    }
    if (ch === '[')
      cls = true
    else if (ch === '(')
      depth++
    else if (ch === ')')
      depth--
    if (ch === '|' && depth === 0) {
      parts.push(cur)
      cur = ''
      continue
    }
    cur += ch
  }
  parts.push(cur)
  return parts
}

export interface Finder {
  /**
   * Start offset of the next hit at or after `from`, with its text; null when there is none. Same hits as
   * the source regex with the `g` flag.
   */
  next: (text: string, from: number) => { index: number, text: string } | null
  /** Whether the source regex matches anywhere (its `test`). */
  test: (text: string) => boolean
  /** False when the analyser gave up and the finder runs the source regex itself. */
  fast: boolean
}

/** A text's byte copy for the JS loop (the kernel keeps its own in its memory). */
function latin1Copy(text: string, wide: boolean): Uint8Array {
  const buf = Buffer.from(text, 'latin1')
  // A plain Uint8Array view keeps the hot loop monomorphic.
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length)
  if (wide)
    patchWide(text, bytes, 0)
  return bytes
}

/**
 * The group of the candidate a hot loop returned last. Returned apart from the position: packed in one
 * number, positions past 16K left the small-integer range and the callers' arithmetic went to doubles.
 */
let found = 0

/** What the hot loops read: the byte tables' pair/last/word/third/fourth-byte lookups (and the class filter). */
type ByteTables = Pick<FinderTables, 'pair' | 'last' | 'pw' | 'm3' | 'm4'>
type LoopTables = ByteTables & Pick<FinderTables, 'filter'>

/**
 * The hot loop: the first position >= from whose (byte, next byte) has a group that admits the previous
 * byte (word or not) and the third and fourth bytes, or -1; its group is left in `found`.
 */
function candidate(bytes: Uint8Array, from: number, t: ByteTables): number {
  const { pair, last, pw, m3, m4 } = t
  const n = bytes.length
  let p = from > 0 ? bytes[from - 1]! : 32
  let x = bytes[from]!
  for (let i = from; i < n - 1; i++) {
    const y = bytes[i + 1]!
    const g = pair[(x << 8) | y]!
    if (
      g !== 0
      && (pw[g]! & WORD_BIT[p]!) !== 0
      && m3[g * 257 + (i + 2 < n ? bytes[i + 2]! : 256)] !== 0
      && m4[g * 257 + (i + 3 < n ? bytes[i + 3]! : 256)] !== 0
    ) {
      return ((found = g), i)
    }
    p = x
    x = y
  }
  const g = last[x]!
  return g !== 0 && (pw[g]! & WORD_BIT[p]!) !== 0 ? ((found = g), n - 1) : -1
}

/**
 * The next position >= from (and < bytes.length - 2) the class filter passes, or -1: the hot loop, one
 * lookup per byte.
 */
function nextPass(bytes: Uint8Array, from: number, f: Int32Array): number {
  const n = bytes.length
  let h = ((from > 0 ? CLS[bytes[from - 1]!]! : CLS_START) << 12) | (CLS[bytes[from]!]! << 6) | CLS[bytes[from + 1]!]!
  for (let j = from + 2; j < n; j++) {
    h = (h << 6) | CLS[bytes[j]!]!
    const k = h & 0x7FFFF
    if ((f[k >> 5]! & (1 << (k & 31))) !== 0)
      return j - 2
  }
  return -1
}

/** `candidate` with the class filter in front: the same answer, a cheap lookup at most positions. */
function candidateFast(bytes: Uint8Array, from: number, t: ByteTables, f: Int32Array): number {
  const n = bytes.length
  const { pair, pw, m3, m4 } = t
  while (n - from >= 3) {
    const i = nextPass(bytes, from, f)
    if (i < 0) {
      from = n - 2
      break
    }
    const g = pair[(bytes[i]! << 8) | bytes[i + 1]!]!
    if (
      g !== 0
      && (pw[g]! & WORD_BIT[i > 0 ? bytes[i - 1]! : 32]!) !== 0
      && m3[g * 257 + bytes[i + 2]!] !== 0
      && m4[g * 257 + (i + 3 < n ? bytes[i + 3]! : 256)] !== 0
    ) {
      return ((found = g), i)
    }
    from = i + 1
  }
  return candidate(bytes, from, t)
}

/** A candidate's token bits when any token of its group may match. */
const ALL_BITS = 0xFF
/** Regex syntax characters: a token without them (after a leading `\b`, escaped punctuation aside) is a literal. */
const SYNTAX = new Set('\\^$.|?*+()[]{}'.split(''))

/**
 * The length of the text a token matches when it is a literal of at most 8 printable ASCII characters
 * (optionally after `\b`): the kernel checks each of its bytes. 0 for anything else.
 */
function literalLength(token: string): number {
  let i = token.startsWith('\\b') ? 2 : 0
  let n = 0
  for (; i < token.length; i++, n++) {
    let ch = token[i]!
    if (ch === '\\') {
      ch = token[++i] ?? 'a'
      if (/[0-9A-Za-z]/.test(ch))
        return 0
    }
    else if (SYNTAX.has(ch)) {
      return 0
    }
    const code = ch.charCodeAt(0)
    if (code < 32 || code > 126)
      return 0
  }
  return n >= 1 && n <= 8 ? n : 0
}

/** The WebAssembly copy of the hot loop, compiled on first use (null without WebAssembly: the JS loop runs). */
let kernel: Kernel | null | undefined
function getKernel(): Kernel | null {
  return kernel === undefined ? (kernel = createKernel(CLS, WORD_BIT, CLS_START)) : kernel
}
/** Whether finders run the WebAssembly loop (tests check that it compiled). */
export const kernelActive = (): boolean => getKernel() !== null

/**
 * Builds a finder equivalent to `new RegExp(tokens.join('|'), flags)`. Falls back to that regex when a
 * token uses syntax the analyser does not know (correct, just not faster).
 *
 * The tables (finder-tables.ts) are keyed by whether the previous character is a word character (a
 * leading `\b` needs a boundary) and the next two characters; each group also carries the characters
 * allowed third to eighth. Texts of 64 code units and more are read as their latin1 bytes with the same
 * tables re-keyed by byte (code units above 0xFF, in most real skills' texts, as `WIDE_BYTE`). Only the
 * rare positions that pass all of it run a (sticky) regex.
 */
export function buildFinder(
  tokens: readonly string[],
  ignoreCase: boolean,
  { kernel: useKernel = true }: { kernel?: boolean } = {},
): Finder {
  let kernel = useKernel ? getKernel() : null
  let block = -1
  // With the kernel, the tables are written into its memory and the JS loop reads them there (no
  // second copy); without (or when its memory cannot grow), the finder keeps its own.
  const sink = (groups: number): KernelTables => {
    try {
      if (kernel) {
        const r = kernel.reserve(groups)
        block = r.block
        return r.tables
      }
    }
    catch {
      kernel = null
    }
    return newTables(groups)
  }
  // Tables built with the package when it ships them (table-store.ts), else built here.
  let t: FinderTables | null | undefined
  try {
    t = shippedStore()?.get(tokens, ignoreCase, sink)
  }
  catch {}
  if (!t)
    t = buildTables(tokens, ignoreCase, sink)
  const KERNEL = kernel
  if (!t) {
    const combined = new RegExp(tokens.join('|') || '(?!)', ignoreCase ? 'gi' : 'g')
    return {
      next: (text, from) => {
        combined.lastIndex = from
        const m = combined.exec(text)
        return m ? { index: m.index, text: m[0] } : null
      },
      test: (text) => {
        combined.lastIndex = 0
        return combined.test(text)
      },
      fast: false,
    }
  }
  const own: LoopTables | null = KERNEL
    ? null
    : { pair: t.pair, last: t.last, pw: t.pw, m3: t.m3, m4: t.m4, filter: t.filter }
  const last = t.last
  let views: LoopTables | null = null
  let viewsOf = -1
  const tables = (): LoopTables => {
    if (own)
      return own
    if (viewsOf !== KERNEL!.generation()) {
      viewsOf = KERNEL!.generation()
      const v = KERNEL!.views(block)
      // Same shape as `own`: the loops stay monomorphic.
      views = { pair: v.pair, last, pw: v.pw, m3: v.m3, m4: v.m4, filter: v.filter }
    }
    return views!
  }
  // Sticky regexes of the groups, made when a candidate first needs one (most groups never verify).
  const byteRes: Array<RegExp | undefined> = []
  const unitRes: Array<RegExp | undefined> = []
  const { groups, unitGroups, unitTable, unitM3, unitM4 } = t
  const sticky = (lists: number[][], g: number): RegExp =>
    new RegExp(lists[g]!.map(k => tokens[k]).join('|') || '(?!)', ignoreCase ? 'iy' : 'y')
  const verify = (re: RegExp, text: string, i: number): { index: number, text: string } | null => {
    // Most candidates fail: `test` does not build a match array; a success leaves lastIndex at the match end.
    re.lastIndex = i
    return re.test(text) ? { index: i, text: text.slice(i, re.lastIndex) } : null
  }
  // The tokens of the candidate's group that can start there (bits, see `tbits` in finder-tables.ts):
  // the kernel tells; after the JS lookup, any of them.
  let bits = ALL_BITS
  // The WebAssembly loop stops two positions early; the JS lookup finishes the text.
  const kernelCandidate = (bytes: Uint8Array, i: number, n: number, bt: LoopTables): number => {
    const p = n - i >= 3 ? KERNEL!.scan(block, i) : -1
    if (p >= 0) {
      bits = KERNEL!.tokens()
      found = KERNEL!.group()
      return p
    }
    bits = ALL_BITS
    return candidate(bytes, Math.max(i, n - 2), bt)
  }
  // Length of each token that is a short literal (the kernel's checks then decide its match), else 0.
  const literal = tokens.map(literalLength)
  const { bitTokens } = t
  // Sticky regexes of the tokens of a group that a candidate's bits leave, per group by those tokens' bits.
  const subsetRes: Array<Map<number, RegExp> | undefined> = []
  const verifyBits = (g: number, text: string, i: number): { index: number, text: string } | null => {
    const list = groups[g]!
    let left = 0
    for (let v = bits; v !== 0; v &= v - 1) left |= bitTokens[g * 8 + 31 - Math.clz32(v & -v)]!
    // One token left, a literal whose every byte the kernel checked: it matches (and no token before it can).
    if ((left & (left - 1)) === 0 && left !== 0) {
      const k = list[31 - Math.clz32(left)]!
      if (literal[k])
        return { index: i, text: text.slice(i, i + literal[k]!) }
    }
    const all = list.length > 30 ? -1 : (1 << list.length) - 1
    if ((left & all) === all)
      return verify((byteRes[g] ??= sticky(groups, g)), text, i)
    const res = (subsetRes[g] ??= new Map())
    let re = res.get(left)
    if (!re)
      res.set(left, (re = sticky([list.filter((_, k) => (left & (1 << k)) !== 0)], 0)))
    return verify(re, text, i)
  }
  const fold = (c: number): number => (c < 128 ? (ignoreCase && c >= 65 && c <= 90 ? c + 32 : c) : NON_ASCII)
  let cachedText: string | null = null
  let cachedWide = false
  let ownBytes: Uint8Array | null = null
  const next = (text: string, from: number): { index: number, text: string } | null => {
    const n = text.length
    if (from >= n)
      return null
    if (text !== cachedText) {
      cachedText = text
      cachedWide = n >= 64 && hasWide(text)
      ownBytes = null
    }
    // Texts of 64 code units and more are read as bytes: by the kernel, which holds one text at a time
    // for every finder (`load` is a no-op while it is still there), or else by the JS loop over a copy.
    const loaded = KERNEL && n >= 64 ? KERNEL.load(text, cachedWide) : null
    const bytes = loaded ?? (n >= 64 ? (ownBytes ??= latin1Copy(text, cachedWide)) : null)
    if (bytes) {
      // Taken after `load`, which may have grown the kernel's memory.
      const bt = tables()
      // Either loop yields the next candidate's position (its group in `found`), or -1.
      for (let i = from; i < n; i++) {
        i = loaded ? kernelCandidate(bytes, i, n, bt) : candidateFast(bytes, i, bt, bt.filter)
        if (i < 0)
          return null
        const g = found
        const h = loaded ? verifyBits(g, text, i) : verify((byteRes[g] ??= sticky(groups, g)), text, i)
        if (h)
          return h
      }
      return null
    }
    // Short texts: the same lookups, one code unit at a time.
    const at = (j: number): number => (j < n ? text.charCodeAt(j) : -1)
    for (let i = from; i < n; i++) {
      const p = i > 0 ? text.charCodeAt(i - 1) : -1
      const pw = p >= 0 && p < 128 && isWord(p) ? 1 : 0
      const c1 = at(i + 1)
      const g = unitTable[(pw * END + fold(text.charCodeAt(i))) * B + (c1 < 0 ? END : fold(c1))]!
      if (g === 0)
        continue
      const c2 = at(i + 2)
      const c3 = at(i + 3)
      if (
        unitM3[g * 257 + (c2 < 0 ? 256 : c2 < 256 ? c2 : WIDE_BYTE)] === 0
        || unitM4[g * 257 + (c3 < 0 ? 256 : c3 < 256 ? c3 : WIDE_BYTE)] === 0
      ) {
        continue
      }
      const h = verify((unitRes[g] ??= sticky(unitGroups, g)), text, i)
      if (h)
        return h
    }
    return null
  }
  return { next, test: text => next(text, 0) !== null, fast: true }
}

/**
 * A finder whose tables are built on its first use (so importing the scanner builds nothing); `fast`
 * also builds them, to answer.
 */
export function lazyFinder(build: () => Finder): Finder {
  let f: Finder | null = null
  const get = (): Finder => (f ??= build())
  return {
    next: (text, from) => get().next(text, from),
    test: text => get().test(text),
    get fast() {
      return get().fast
    },
  }
}
