import type { Set130 } from './regex-subset'
import { B, END, isWord, NON_ASCII, parse, prefixes, Unsupported } from './regex-subset'

/**
 * The lookup tables of a prefilter finder (see prefilter.ts), built from its tokens.
 *
 * A key is (previous character word or not, bucket of the character, bucket of the next one); its entry
 * is the list of tokens whose matches can start there and, per later position (third to eighth
 * character), the buckets allowed there. Entries with equal contents share a group.
 *
 * Built without per-key work where it can be avoided (it runs once per finder, in a fresh process or
 * worker, mostly as unoptimised code): each token prefix (a "part") touches only the keys of its own
 * first two character sets, and a key's entry is a node in a trie of the parts that touched it, in
 * order. Keys touched by the same parts share one node, so masks are OR-ed once per node, not per key.
 * Groups are numbered from the touched keys only, and pair rows are copied per first-byte bucket.
 * Token analyses, character-set bitsets and 257-byte mask templates are shared by every finder.
 * The tables are those of the straightforward construction, byte for byte
 * (test/scanner/prefilter-tables.test.ts compares them with it, kept in prefilter-reference.ts).
 */

/** Lookups over a text's latin1 bytes, plus the code-unit path for texts with code units above 0xFF. */
export interface FinderTables {
  /** Byte group of (byte, next byte), index `x << 8 | y`; 0: no token starts there. */
  pair: Uint16Array
  /** Byte group of a text's last byte (the next "character" is the end of the text). */
  last: Uint16Array
  /** Per byte group: 1 when a non-word byte may precede, 2 when a word byte may. */
  pw: Uint8Array
  /**
   * Per byte group, 257 entries each (byte, or 256 = end of text): allowed third and fourth bytes, the JS
   * loop's checks (the kernel checks the third to eighth bytes per token prefix: `tbits`).
   */
  m3: Uint8Array
  m4: Uint8Array
  /** Class-window bitset in front of the pair lookup (`classFilter`). */
  filter: Int32Array
  /**
   * The group's checks of the third to eighth bytes, per token prefix ("part"; up to 8 bits per group, parts merged to fit):
   * `tpw[g * 4 + WORD_BIT[previous byte]]` and, per position p (third to eighth byte),
   * `tbits[(p - 3) * groups * 257 + g * 257 + byte]` are the bits that allow it. A candidate whose AND
   * of them is 0 cannot start any token of its group, where the group's masks alone would pass it when
   * one prefix allows its third byte and another its fifth (`token` + `["']?\s*[:=]` vs "token error").
   */
  tpw: Uint8Array
  tbits: Uint8Array
  /** Per group and bit (`g * 8 + bit`): the tokens (bit k: the group's k-th token; -1: any) its parts belong to. */
  bitTokens: Uint32Array
  /** Per byte group, the tokens (indices, ascending) its sticky regex tries; group 0 has none. */
  groups: number[][]
  /** Code-unit path: group per (previous is word, bucket, next bucket), index `(pw * 129 + a) * 130 + b`. */
  unitTable: Uint16Array
  /** Per code-unit group, 257 entries: allowed third and fourth code units (`WIDE_BYTE` stands for any above 0xFF). */
  unitM3: Uint8Array
  unitM4: Uint8Array
  unitGroups: number[][]
}

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

/** Six 130-bit masks (third to eighth character) as 5 words each, in plain arrays (no off-heap allocation per entry). */
const WORDS = 5
const MASKS = 6
type Masks = number[]

/** One prefix of a token: the first and second buckets it takes, and the masks it adds to the keys it touches. */
interface Part {
  as: number[]
  bs: number[]
  masks: Masks
}

/**
 * An entry: the token list and masks after a given sequence of parts (shared by every key that saw it);
 * the sequence is the chain of `parent` entries, each added by its `part` (an id).
 */
interface Entry {
  list: number[]
  listHash: number
  masks: Masks
  unit: number
  parent: number
  part: number
}

const bit = (m: Masks, base: number, c: number): number => (m[base + (c >> 5)]! >>> (c & 31)) & 1

// Contents are compared through a hash and then exactly (no key strings: this runs cold, once per finder).
const mix = (h: number, v: number): number => Math.imul(h ^ v, 0x01000193)
function hashWords(h: number, m: Masks, from: number, to: number): number {
  for (let w = from; w < to; w++) h = mix(h, m[w]!)
  return h
}
function sameWords(a: Masks, b: Masks, from: number, to: number): boolean {
  for (let w = from; w < to; w++) {
    if (a[w] !== b[w])
      return false
  }
  return true
}
/** Whether the mask at `from` is one that allows every byte (`mode.any` or `mode.all`). */
function allowsAll(mode: Mode, m: Masks, from: number): boolean {
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
function sameList(a: number[], b: number[]): boolean {
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
function listHash(list: number[]): number {
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
interface Mode {
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

function modeOf(ignoreCase: boolean): Mode {
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
function template(mode: Mode, m: Masks, base: number): Template {
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

/** A token's analysis (whether it starts with `\b`, its distinct prefixes of up to 8 sets as parts), shared by every finder with that token. */
interface Analysis {
  lead: boolean
  parts: Part[]
}
const ANALYSES = new Map<string, Analysis>()

function analyse(token: string, ignoreCase: boolean): Analysis {
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

let built = 0
/** How many times this thread built tables (tests check that importing the scanner builds none). */
export const tablesBuilt = (): number => built

/** The byte tables the WebAssembly loop reads (see wasm-filter.ts). */
export type KernelTables = Pick<FinderTables, 'filter' | 'pair' | 'pw' | 'm3' | 'm4' | 'tpw' | 'tbits'>
/**
 * Where the byte tables are written, given the number of groups: zeroed arrays of their sizes. The
 * default makes new ones; the finder passes views of the kernel's memory (no copy, no second set).
 */
export type TableSink = (groups: number) => KernelTables
export const newTables: TableSink = n => ({
  filter: new Int32Array(FILTER_WORDS),
  pair: new Uint16Array(65536),
  pw: new Uint8Array(n),
  m3: new Uint8Array(n * 257),
  m4: new Uint8Array(n * 257),
  tpw: new Uint8Array(n * 4),
  tbits: new Uint8Array(MASKS * n * 257),
})
/** Size of the class filter: a bit per 19-bit key. */
export const FILTER_WORDS = 1 << 14

/** Scratch of the build, reused (a table build allocates no large temporary arrays). */
let scratch: { slot: Int32Array, bucketGroups: Uint16Array } | null = null

/** The tables of `new RegExp(tokens.join('|'), ignoreCase ? 'gi' : 'g')`, or null when the analyser cannot take the tokens. */
export function buildTables(
  tokens: readonly string[],
  ignoreCase: boolean,
  sink: TableSink = newTables,
): FinderTables | null {
  built++
  const mode = modeOf(ignoreCase)
  // Parts in token, then prefix order (the order the keys are first touched in, which numbers the
  // code-unit groups). A key's entry is a node of a trie: edges are (entry, part number).
  // (Indexed loops throughout: this code runs once per finder, mostly unoptimised, where `for of` allocates.)
  const analyses: Analysis[] = []
  try {
    for (let t = 0; t < tokens.length; t++) analyses.push(analyse(tokens[t]!, ignoreCase))
  }
  catch (error) {
    if (error instanceof Unsupported)
      return null
    throw error
  }
  const entries: Entry[] = [
    {
      list: [],
      listHash: listHash([]),
      masks: new Array<number>(WORDS * MASKS).fill(0),
      unit: 0,
      parent: -1,
      part: -1,
    },
  ]
  // Per part id: its token and masks (for the per-token tables).
  const partToken: number[] = []
  const partMasks: Masks[] = []
  const edges = new Map<number, number>()
  let stride = 1
  for (let t = 0; t < analyses.length; t++) stride += analyses[t]!.parts.length
  scratch ??= { slot: new Int32Array(2 * END * B), bucketGroups: new Uint16Array(END * B) }
  const { slot, bucketGroups } = scratch
  slot.fill(0)
  bucketGroups.fill(0)
  const created: number[] = []
  let id = 0
  for (let t = 0; t < analyses.length; t++) {
    const { lead, parts } = analyses[t]!
    for (let pi = 0; pi < parts.length; pi++, id++) {
      const { as, bs, masks: add } = parts[pi]!
      partToken.push(t)
      partMasks.push(add)
      for (let ai = 0; ai < as.length; ai++) {
        const a = as[ai]!
        const wordA = a < 128 && isWord(a)
        for (let pw = 0; pw < 2; pw++) {
          // `\b` first: a word character needs a non-word one before it, and the other way round.
          if (lead && (pw === 1) === wordA)
            continue
          const base = (pw * END + a) * B
          for (let bi = 0; bi < bs.length; bi++) {
            const key = base + bs[bi]!
            const cur = slot[key]!
            if (cur === 0)
              created.push(key)
            let to = edges.get(cur * stride + id)
            if (to === undefined) {
              const from = entries[cur]!
              const masks = from.masks.slice()
              for (let w = 0; w < WORDS * MASKS; w++) masks[w]! |= add[w]!
              const same = from.list[from.list.length - 1] === t
              to = entries.length
              entries.push({
                list: same ? from.list : [...from.list, t],
                listHash: same ? from.listHash : mix(from.listHash, t),
                masks,
                unit: 0,
                parent: cur,
                part: id,
              })
              edges.set(cur * stride + id, to)
            }
            slot[key] = to
          }
        }
      }
    }
  }

  // Code-unit groups: entries with equal tokens and third/fourth masks.
  const unitTable = new Uint16Array(2 * END * B)
  const unitByHash = new Map<number, number[]>()
  const unitOwners: Entry[] = [entries[0]!]
  for (let k = 0; k < created.length; k++) {
    const key = created[k]!
    const e = entries[slot[key]!]!
    if (e.unit === 0) {
      const h = hashWords(e.listHash, e.masks, 0, 2 * WORDS)
      let bucket = unitByHash.get(h)
      if (!bucket)
        unitByHash.set(h, (bucket = []))
      for (let i = 0; i < bucket.length && e.unit === 0; i++) {
        const o = unitOwners[bucket[i]!]!
        if (sameList(o.list, e.list) && sameWords(o.masks, e.masks, 0, 2 * WORDS))
          e.unit = bucket[i]!
      }
      if (e.unit === 0) {
        e.unit = unitOwners.length
        if (e.unit > 65535)
          return null
        unitOwners.push(e)
        bucket.push(e.unit)
      }
    }
    unitTable[key] = e.unit
  }
  const unitM3 = new Uint8Array(unitOwners.length * 257)
  const unitM4 = new Uint8Array(unitOwners.length * 257)
  for (let g = 1; g < unitOwners.length; g++) {
    unitM3.set(template(mode, unitOwners[g]!.masks, 0).bytes, g * 257)
    unitM4.set(template(mode, unitOwners[g]!.masks, WORDS).bytes, g * 257)
  }

  // Byte groups, numbered in (byte bucket, next bucket) order: over raw bytes the previous-is-word bit
  // moves from the key into the group, so the two entries of a bucket pair merge (token lists and masks
  // united, which only adds candidates).
  const pairs = Int32Array.from(created, key => (key >= END * B ? key - END * B : key)).sort()
  const byHash = new Map<number, number[]>()
  const merged = new Map<number, number>()
  const groups: number[][] = [[]]
  const groupMasks: Masks[] = [entries[0]!.masks]
  const groupPw: number[] = [0]
  for (let k = 0; k < pairs.length; k++) {
    const ab = pairs[k]!
    if (k > 0 && ab === pairs[k - 1])
      continue
    const n0 = slot[ab]!
    const n1 = slot[END * B + ab]!
    const pair = n0 * entries.length + n1
    let g = merged.get(pair)
    if (g === undefined) {
      const e0 = entries[n0]!
      const e1 = entries[n1]!
      let list: number[]
      let masks: Masks
      let h: number
      if (n0 === 0 || n1 === 0 || n0 === n1) {
        list = n0 ? e0.list : e1.list
        masks = n0 ? e0.masks : e1.masks
        h = n0 ? e0.listHash : e1.listHash
      }
      else {
        list = [...new Set([...e0.list, ...e1.list])].sort((x, y) => x - y)
        masks = e0.masks.slice()
        for (let w = 0; w < WORDS * MASKS; w++) masks[w]! |= e1.masks[w]!
        h = listHash(list)
      }
      const pw = (n0 ? 1 : 0) | (n1 ? 2 : 0)
      h = mix(hashWords(h, masks, 0, WORDS * MASKS), pw)
      let bucket = byHash.get(h)
      if (!bucket)
        byHash.set(h, (bucket = []))
      for (let i = 0; i < bucket.length && g === undefined; i++) {
        const o = bucket[i]!
        if (groupPw[o] === pw && sameList(groups[o]!, list) && sameWords(groupMasks[o]!, masks, 0, WORDS * MASKS))
          g = o
      }
      if (g === undefined) {
        g = groups.length
        groups.push(list)
        groupMasks.push(masks)
        groupPw.push(pw)
        bucket.push(g)
      }
      merged.set(pair, g)
    }
    bucketGroups[ab] = g
  }
  if (groups.length > 65535)
    return null
  const n = groups.length
  const t = sink(n)
  const last = new Uint16Array(256)
  for (let g = 1; g < n; g++) t.pw[g] = groupPw[g]!
  const zs: number[][] = [[]]
  for (let g = 1; g < n; g++) {
    t.m3.set(template(mode, groupMasks[g]!, 0).bytes, g * 257)
    t.m4.set(template(mode, groupMasks[g]!, WORDS).bytes, g * 257)
    zs.push(template(mode, groupMasks[g]!, 0).classes)
  }
  // Rows of (byte, next byte), one per first-byte bucket that starts anything, copied to each of its bytes.
  const row = new Uint16Array(256)
  for (let k = 0; k < pairs.length; k++) {
    const a = (pairs[k]! / B) | 0
    if (k > 0 && a === ((pairs[k - 1]! / B) | 0))
      continue
    const base = a * B
    for (let y = 0; y < 128; y++) row[y] = bucketGroups[base + mode.fold[y]!]!
    row.fill(bucketGroups[base + NON_ASCII]!, 128)
    const xs = mode.bytesOf[a]!
    for (let i = 0; i < xs.length; i++) {
      t.pair.set(row, xs[i]! << 8)
      last[xs[i]!] = bucketGroups[base + END]!
    }
  }
  classFilter(t.filter, mode, pairs, bucketGroups, t.pw, zs)
  const bitTokens = tokenBits(t, mode, n, merged, entries, groups, partToken, partMasks)
  return { ...t, last, groups, bitTokens, unitTable, unitM3, unitM4, unitGroups: unitOwners.map(e => e.list) }
}

/**
 * The first stage over (previous byte's word-ness, three bytes), in classes: one lookup per byte of a
 * rolling 4-class window. Built from the exact tables, so it passes every position the pair lookup would:
 * each (first class, second class, group) of a bucket pair is marked with the third classes of the group.
 */
function classFilter(
  f: Int32Array,
  mode: Mode,
  pairs: Int32Array,
  bucketGroups: Uint16Array,
  pw: Uint8Array,
  zs: number[][],
): void {
  // A bitset: 64 KB stays in cache where a byte per key (512 KB) measured 2.5x slower.
  const done = new Set<number>()
  for (let k = 0; k < pairs.length; k++) {
    const ab = pairs[k]!
    const b = ab % B
    // The end of the text is no byte: the filter looks at pairs of bytes only.
    if ((k > 0 && ab === pairs[k - 1]) || b === END)
      continue
    const g = bucketGroups[ab]!
    const xs = mode.classesOf[(ab - b) / B]!
    const ys = mode.classesOf[b]!
    const z = zs[g]!
    for (let i = 0; i < xs.length; i++) {
      for (let j = 0; j < ys.length; j++) {
        const once = ((xs[i]! << 6) | ys[j]!) * 65536 + g
        if (done.has(once))
          continue
        done.add(once)
        const base = (xs[i]! << 12) | (ys[j]! << 6)
        for (let w = 0; w < 2; w++) {
          if ((pw[g]! & (w + 1)) === 0)
            continue
          for (let k = 0; k < z.length; k++) {
            const key = (w << 18) | base | z[k]!
            f[key >> 5] |= 1 << (key & 31)
          }
        }
      }
    }
  }
}

/** Bits set in the five words from `base` (a bucket mask's size). */
function count(m: Masks, base: number): number {
  let n = 0
  for (let w = base; w < base + WORDS; w++) {
    let x = m[w]! - ((m[w]! >>> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
    n += Math.imul((x + (x >>> 4)) & 0x0F0F0F0F, 0x01010101) >>> 24
  }
  return n
}

/** Parts of a group sharing one bit: the OR of their masks and word-ness (1 and/or 2), and their tokens. */
interface Box {
  masks: Masks
  wb: number
  tokens: number
}
/** How many (word-ness, third to eighth bucket) tuples a box admits: the candidates it lets through. */
function volume(b: Box): number {
  let v = b.wb === 3 ? 2 : 1
  for (let m = 0; m < MASKS; m++) v *= count(b.masks, m * WORDS)
  return v
}
/** `volume(union(a, b))` without making the union. */
function unionVolume(a: Box, b: Box): number {
  let v = (a.wb | b.wb) === 3 ? 2 : 1
  for (let m = 0; m < MASKS; m++) {
    let n = 0
    for (let w = m * WORDS; w < (m + 1) * WORDS; w++) {
      let x = a.masks[w]! | b.masks[w]!
      x -= (x >>> 1) & 0x55555555
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
      n += Math.imul((x + (x >>> 4)) & 0x0F0F0F0F, 0x01010101) >>> 24
    }
    v *= n
  }
  return v
}

/** Most boxes a group's greedy merge searches over. */
const MAX_SEARCH = 24

/**
 * Merges boxes, in place, until 8 are left: each time the first pair (in order) whose union adds the
 * fewest tuples. Pair costs are kept and only the merged box's are recomputed (this runs cold, once
 * per finder, where a group can have 50 parts).
 */
function mergeTo8(boxes: Box[]): void {
  // Groups with very many parts (a token with classes and repeats unrolled) first merge neighbours
  // (successive prefixes of one token are alike), so the search below stays small.
  while (boxes.length > MAX_SEARCH) {
    let w = 0
    for (let i = 0; i < boxes.length; i += 2)
      boxes[w++] = i + 1 < boxes.length ? union(boxes[i]!, boxes[i + 1]!) : boxes[i]!
    boxes.length = w
  }
  const n = boxes.length
  if (n <= 8)
    return
  const vols = boxes.map(volume)
  const cost = new Float64Array(n * n)
  const alive = new Uint8Array(n).fill(1)
  const pairCost = (i: number, j: number): number => unionVolume(boxes[i]!, boxes[j]!) - vols[i]! - vols[j]!
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) cost[i * n + j] = pairCost(i, j)
  }
  for (let left = n; left > 8; left--) {
    let best = Infinity
    let bi = 0
    let bj = 0
    for (let i = 0; i < n; i++) {
      if (!alive[i])
        continue
      for (let j = i + 1; j < n; j++) {
        if (alive[j] && cost[i * n + j]! < best) {
          best = cost[i * n + j]!
          bi = i
          bj = j
        }
      }
    }
    boxes[bi] = union(boxes[bi]!, boxes[bj]!)
    vols[bi] = volume(boxes[bi]!)
    alive[bj] = 0
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === bi)
        continue
      if (k < bi)
        cost[k * n + bi] = pairCost(k, bi)
      else cost[bi * n + k] = pairCost(bi, k)
    }
  }
  let w = 0
  for (let i = 0; i < n; i++) {
    if (alive[i])
      boxes[w++] = boxes[i]!
  }
  boxes.length = w
}

function union(a: Box, b: Box): Box {
  const masks = a.masks.slice()
  for (let w = 0; w < WORDS * MASKS; w++) masks[w]! |= b.masks[w]!
  return { masks, wb: a.wb | b.wb, tokens: a.tokens | b.tokens }
}

/**
 * The per-part tables (`tpw`, `tbits`, `bitTokens`): each part that touched a key of a group (with the
 * previous byte's word-ness of that key) gets a bit, set for the bytes its masks allow. With more than 8
 * parts, the two whose union adds the fewest tuples share a bit, until 8 are left. A group's masks are the
 * OR of its bits, so these tables only remove candidates that no token's own prefix fits.
 */
function tokenBits(
  t: KernelTables,
  mode: Mode,
  n: number,
  merged: Map<number, number>,
  entries: Entry[],
  groups: number[][],
  partToken: number[],
  partMasks: Masks[],
): Uint32Array {
  const size = n * 257
  const bitTokens = new Uint32Array(n * 8)
  const row = new Uint8Array(B)
  // Per group, its parts by id, with the word-ness they were seen with.
  const partsOf: Array<Map<number, number>> = []
  for (let g = 0; g < n; g++) partsOf.push(new Map())
  const chain: number[] = []
  const add = (g: number, e: Entry, wb: number): void => {
    const m = partsOf[g]!
    chain.length = 0
    for (let x = e; x.parent !== -1; x = entries[x.parent]!) chain.push(x.part)
    for (let k = chain.length - 1; k >= 0; k--) m.set(chain[k]!, (m.get(chain[k]!) ?? 0) | wb)
  }
  for (const [pair, g] of merged) {
    const n1 = pair % entries.length
    const n0 = (pair - n1) / entries.length
    // Slot 0 of a key: the previous byte is not a word byte (WORD_BIT 1); slot 1: it is (2).
    if (n0)
      add(g, entries[n0]!, 1)
    if (n1)
      add(g, entries[n1]!, 2)
  }
  for (let g = 1; g < n; g++) {
    const list = groups[g]!
    const boxes: Box[] = []
    for (const [id, wb] of partsOf[g]!) {
      const k = list.indexOf(partToken[id]!)
      boxes.push({ masks: partMasks[id]!, wb, tokens: k < 32 ? 1 << k : -1 })
    }
    mergeTo8(boxes)
    for (let b = 0; b < boxes.length; b++) {
      const box = boxes[b]!
      bitTokens[g * 8 + b] = box.tokens
      if (box.wb & 1)
        t.tpw[g * 4 + 1]! |= 1 << b
      if (box.wb & 2)
        t.tpw[g * 4 + 2]! |= 1 << b
    }
    // Per position: the bits of each bucket, then bytes through the case folding (as `template` does).
    // Most masks allow anything (a token ended before): those bits go to every byte at once.
    for (let m = 0; m < MASKS; m++) {
      const from = m * WORDS
      row.fill(0)
      let any = 0
      let specific = false
      for (let b = 0; b < boxes.length; b++) {
        const k = boxes[b]!.masks
        if (allowsAll(mode, k, from)) {
          any |= 1 << b
          continue
        }
        specific = true
        for (let w = 0; w < WORDS; w++) {
          for (let x = k[from + w]!; x !== 0; x &= x - 1) row[w * 32 + 31 - Math.clz32(x & -x)]! |= 1 << b
        }
      }
      const base = m * size + g * 257
      if (!specific) {
        t.tbits.fill(any, base, base + 257)
        continue
      }
      for (let z = 0; z < 128; z++) t.tbits[base + z] = row[mode.fold[z]!]! | any
      t.tbits.fill(row[NON_ASCII]! | any, base + 128, base + 256)
      t.tbits[base + 256] = row[END]! | any
    }
  }
  return bitTokens
}
