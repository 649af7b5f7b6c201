import type { Entry, Masks, Mode } from './token-masks'
import { B, END, NON_ASCII } from './regex-subset'
import { allowsAll, MASKS, WORDS } from './token-masks'

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

/** What `tokenBits` reads of a table build (tables.ts `buildTables`), and the tables it fills. */
export interface TokenBitsInput {
  /** Zeroed, of the sizes `FinderTables` gives them. */
  tpw: Uint8Array
  tbits: Uint8Array
  mode: Mode
  /** Per (slot 0 entry, slot 1 entry) of a bucket pair, as `n0 * entries.length + n1`: its byte group. */
  merged: Map<number, number>
  /** The build's entries: nodes of the trie of parts, each with its parent and the part that added it. */
  entries: Entry[]
  /** Per byte group, its tokens. */
  groups: number[][]
  /** Per part id: its token and its masks. */
  partToken: number[]
  partMasks: Masks[]
}

/**
 * The per-part tables (`tpw`, `tbits`, `bitTokens`): each part that touched a key of a group (with the
 * previous byte's word-ness of that key) gets a bit, set for the bytes its masks allow. With more than 8
 * parts, the two whose union adds the fewest tuples share a bit, until 8 are left. A group's masks are the
 * OR of its bits, so these tables only remove candidates that no token's own prefix fits.
 */
export function tokenBits(input: TokenBitsInput): Uint32Array {
  const { tpw, tbits, mode, merged, entries, groups, partToken, partMasks } = input
  const n = groups.length
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
        tpw[g * 4 + 1]! |= 1 << b
      if (box.wb & 2)
        tpw[g * 4 + 2]! |= 1 << b
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
        tbits.fill(any, base, base + 257)
        continue
      }
      for (let z = 0; z < 128; z++) tbits[base + z] = row[mode.fold[z]!]! | any
      tbits.fill(row[NON_ASCII]! | any, base + 128, base + 256)
      tbits[base + 256] = row[END]! | any
    }
  }
  return bitTokens
}
