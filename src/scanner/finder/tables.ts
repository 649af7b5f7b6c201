import type { Analysis, Entry, Masks, Mode } from './token-masks'
import { B, END, isWord, NON_ASCII, Unsupported } from './regex-subset'
import { tokenBits } from './token-bits'
import { analyse, hashWords, listHash, MASKS, mix, modeOf, sameList, sameWords, template, WORDS } from './token-masks'

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
 * Token analyses, character-set bitsets and 257-byte mask templates are shared by every finder
 * (token-masks.ts); the per-part checks of the third to eighth bytes are made in token-bits.ts.
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
   * The group's checks of the third to eighth bytes, per token prefix ("part"; up to 8 bits per group,
   * parts merged to fit):
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

let built = 0
/** How many times this thread built tables (tests check that importing the scanner builds none). */
export const tablesBuilt = (): number => built

/** The byte tables the WebAssembly loop reads (see kernel.ts). */
export type KernelTables = Pick<FinderTables, 'filter' | 'pair' | 'pw' | 'm3' | 'm4' | 'tpw' | 'tbits'>
/**
 * Where the byte tables are written, given the number of groups: zeroed arrays of their sizes. The
 * default makes new ones; the finder passes views of the kernel's memory (no copy, no second set).
 */
export type TableSink = (groups: number) => KernelTables
/** Size of the class filter: a bit per 19-bit key. */
export const FILTER_WORDS = 1 << 14
export const newTables: TableSink = n => ({
  filter: new Int32Array(FILTER_WORDS),
  pair: new Uint16Array(65536),
  pw: new Uint8Array(n),
  m3: new Uint8Array(n * 257),
  m4: new Uint8Array(n * 257),
  tpw: new Uint8Array(n * 4),
  tbits: new Uint8Array(MASKS * n * 257),
})

/** Scratch of the build, reused (a table build allocates no large temporary arrays). */
let scratch: { slot: Int32Array, bucketGroups: Uint16Array } | null = null

/**
 * The tables of `new RegExp(tokens.join('|'), ignoreCase ? 'gi' : 'g')`, or null when the analyser cannot
 * take the tokens.
 */
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
  classFilter({ filter: t.filter, mode, pairs, bucketGroups, pw: t.pw, thirdClasses: zs })
  const bitTokens = tokenBits({ tpw: t.tpw, tbits: t.tbits, mode, merged, entries, groups, partToken, partMasks })
  return { ...t, last, groups, bitTokens, unitTable, unitM3, unitM4, unitGroups: unitOwners.map(e => e.list) }
}

/** What `classFilter` reads of a table build, and the filter it fills. */
interface ClassFilterInput {
  /** Zeroed, `FILTER_WORDS` long: a bitset (64 KB, which stays in cache where a byte per key, 512 KB, would not). */
  filter: Int32Array
  mode: Mode
  /** The keys that start anything, as (bucket, next bucket) pairs, sorted (repeats allowed). */
  pairs: Int32Array
  /** Per bucket pair: its byte group. */
  bucketGroups: Uint16Array
  /** Per byte group: 1 when a non-word byte may precede, 2 when a word byte may. */
  pw: Uint8Array
  /** Per byte group: the classes its third byte may have. */
  thirdClasses: number[][]
}

/**
 * The first stage over (previous byte's word-ness, three bytes), in classes: one lookup per byte of a
 * rolling 4-class window. Built from the exact tables, so it passes every position the pair lookup would:
 * each (first class, second class, group) of a bucket pair is marked with the third classes of the group.
 */
function classFilter({ filter: f, mode, pairs, bucketGroups, pw, thirdClasses: zs }: ClassFilterInput): void {
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
