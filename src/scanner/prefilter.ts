import { createKernel } from './wasm-filter'

/**
 * A literal-speed stand-in for `combined.exec(text)` over a big alternation of anchor tokens.
 *
 * V8 runs an alternation of ~120 case-insensitive tokens at 10-25 MB/s because it tries every
 * alternative at every position. Here each token is reduced (by a small regex analyser) to the set of
 * character pairs its matches can start with; one pass over the text looks the pair at each position
 * up in a table and only where a pair fits runs a sticky regex of the few tokens that can start with
 * it, in their original order. Positions no token can start at cannot start a match of the
 * alternation, and among the tokens that can, the first one that matches wins as before: the hits
 * (position and matched text) are exactly those of the global regex.
 *
 * Stages per position, cheapest first: a 64 KB bitset over (previous byte's word-ness, three byte
 * classes); the exact pair table with the allowed third to eighth bytes of its group; the sticky regex.
 * The first two run in a small WebAssembly loop (wasm-filter.ts) over the text's latin1 bytes.
 * The module also derives literal gates of line patterns (`literalGate`), used by text-scan.ts.
 */

/** Buckets: ASCII code units (folded to lower case when ignoring case), 128 = any non-ASCII, 129 = end of text. */
const NON_ASCII = 128
const END = 129
const B = 130

type Set130 = Uint8Array

const full = (): Set130 => new Uint8Array(B).fill(1, 0, END)
const none = (): Set130 => new Uint8Array(B)

interface Node { t: 'chars'; set: Set130 }
interface Seq { t: 'seq'; items: Ast[] }
interface Alt { t: 'alt'; alts: Ast[] }
interface Rep { t: 'rep'; item: Ast; min: number; max: number }
interface Empty { t: 'empty'; wordBoundary?: boolean }
type Ast = Node | Seq | Alt | Rep | Empty

class Unsupported extends Error {}

const CLASS_S = [9, 10, 11, 12, 13, 32]
const isWord = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95

/** Parses the subset of regex syntax the anchor tokens use; anything else throws Unsupported. */
function parse(src: string, ignoreCase: boolean): Ast {
  let i = 0
  const add = (set: Set130, c: number): void => {
    if (c >= 128) { set[NON_ASCII] = 1; return }
    set[c] = 1
    if (ignoreCase && c >= 65 && c <= 90) set[c + 32] = 1
    if (ignoreCase && c >= 97 && c <= 122) set[c - 32] = 1
  }
  const addRange = (set: Set130, a: number, b: number): void => { for (let c = a; c <= Math.min(b, 127); c++) add(set, c); if (b >= 128) set[NON_ASCII] = 1 }
  const escapeClass = (set: Set130, ch: string): boolean => {
    if (ch === 's') { for (const c of CLASS_S) add(set, c); set[NON_ASCII] = 1; return true }
    if (ch === 'S') { for (let c = 0; c < 128; c++) if (!CLASS_S.includes(c)) add(set, c); set[NON_ASCII] = 1; return true }
    if (ch === 'w') { for (let c = 0; c < 128; c++) if (isWord(c)) add(set, c); return true }
    if (ch === 'W') { for (let c = 0; c < 128; c++) if (!isWord(c)) add(set, c); set[NON_ASCII] = 1; return true }
    if (ch === 'd') { addRange(set, 48, 57); return true }
    if (ch === 'D') { for (let c = 0; c < 128; c++) if (c < 48 || c > 57) add(set, c); set[NON_ASCII] = 1; return true }
    return false
  }
  const escapedChar = (): number => {
    const ch = src[i]!
    if (ch === 'u' && /^[0-9A-Fa-f]{4}$/.test(src.slice(i + 1, i + 5))) { i += 5; return Number.parseInt(src.slice(i - 4, i), 16) }
    if (ch === 'x' && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) { i += 3; return Number.parseInt(src.slice(i - 2, i), 16) }
    if (/[0-9A-Za-z]/.test(ch) && !'tnrvf'.includes(ch)) throw new Unsupported(`\\${ch}`)
    i++
    return ({ t: 9, n: 10, r: 13, v: 11, f: 12 } as Record<string, number>)[ch] ?? ch.charCodeAt(0)
  }
  function cls(): Node {
    i++ // [
    const negate = src[i] === '^'
    if (negate) i++
    const set = none()
    let first = true
    while (i < src.length && (src[i] !== ']' || first)) {
      first = false
      let a: number
      if (src[i] === '\\') {
        i++
        if (escapeClass(set, src[i]!)) { i++; continue }
        a = escapedChar()
      } else a = src.charCodeAt(i++)
      if (src[i] === '-' && src[i + 1] !== ']' && i + 1 < src.length) {
        i++
        let b: number
        if (src[i] === '\\') { i++; b = escapedChar() } else b = src.charCodeAt(i++)
        addRange(set, a, b)
        // With /i, a range like A-Z also covers the other case (add() folds ASCII letters).
      } else add(set, a)
    }
    if (src[i] !== ']') throw new Unsupported('unterminated class')
    i++
    if (!negate) return { t: 'chars', set }
    const out = none()
    for (let c = 0; c < 128; c++) if (!set[c]) out[c] = 1
    // Some non-ASCII character is always outside the class. With /i, add() put both cases of a letter in `set`.
    out[NON_ASCII] = 1
    return { t: 'chars', set: out }
  }
  function atom(): Ast {
    const ch = src[i]!
    if (ch === '(') {
      i++
      if (src.startsWith('?:', i)) i += 2
      else if (src.startsWith('?=', i) || src.startsWith('?!', i) || src.startsWith('?<=', i) || src.startsWith('?<!', i)) {
        // Lookarounds consume nothing: skip the group (treated as always true, which only widens the candidates).
        let depth = 1
        while (i < src.length && depth) {
          if (src[i] === '\\') { i += 2; continue }
          if (src[i] === '[') { while (i < src.length && src[i] !== ']') { if (src[i] === '\\') i++; i++ } }
          if (src[i] === '(') depth++
          else if (src[i] === ')') depth--
          i++
        }
        return { t: 'empty' }
      } else if (src[i] === '?') throw new Unsupported('group kind')
      const inner = alternation()
      if (src[i] !== ')') throw new Unsupported('unbalanced group')
      i++
      return inner
    }
    if (ch === '[') return cls()
    if (ch === '.') { i++; const set = full(); set[10] = 0; set[13] = 0; return { t: 'chars', set } }
    if (ch === '^' || ch === '$') { i++; return { t: 'empty' } }
    if (ch === '\\') {
      i++
      const e = src[i]!
      if (e === 'b' || e === 'B') { i++; return { t: 'empty', wordBoundary: e === 'b' } }
      const set = none()
      if (escapeClass(set, e)) { i++; return { t: 'chars', set } }
      add(set, escapedChar())
      return { t: 'chars', set }
    }
    if (ch === ')' || ch === '|' || ch === '*' || ch === '+' || ch === '?' || ch === '{') throw new Unsupported(`unexpected ${ch}`)
    const set = none()
    add(set, src.charCodeAt(i++))
    return { t: 'chars', set }
  }
  function quantified(): Ast {
    let a = atom()
    for (;;) {
      const ch = src[i]
      let min: number
      let max: number
      if (ch === '*') { min = 0; max = Infinity; i++ }
      else if (ch === '+') { min = 1; max = Infinity; i++ }
      else if (ch === '?') { min = 0; max = 1; i++ }
      else if (ch === '{') {
        const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(src.slice(i))
        if (!m) throw new Unsupported('brace')
        min = Number(m[1])
        max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min
        i += m[0].length
      } else return a
      if (src[i] === '?') i++ // lazy: same language
      a = { t: 'rep', item: a, min, max }
    }
  }
  function sequence(): Ast {
    const items: Ast[] = []
    while (i < src.length && src[i] !== '|' && src[i] !== ')') items.push(quantified())
    return { t: 'seq', items }
  }
  function alternation(): Ast {
    const alts = [sequence()]
    while (src[i] === '|') { i++; alts.push(sequence()) }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts }
  }
  const ast = alternation()
  if (i !== src.length) throw new Unsupported('trailing input')
  return ast
}

/** Prefixes of length <= k: `complete` ones are whole matches shorter than k. */
interface Prefix { sets: Set130[]; complete: boolean }
const LIMIT = 4096

function prefixes(ast: Ast, k: number): Prefix[] {
  switch (ast.t) {
    case 'empty': return [{ sets: [], complete: true }]
    case 'chars': return k === 0 ? [{ sets: [], complete: false }] : [{ sets: [ast.set], complete: true }]
    case 'alt': return ast.alts.flatMap(a => prefixes(a, k))
    case 'seq': {
      let acc: Prefix[] = [{ sets: [], complete: true }]
      for (const item of ast.items) {
        const next: Prefix[] = []
        for (const p of acc) {
          if (!p.complete || p.sets.length >= k) { next.push({ sets: p.sets, complete: p.complete && p.sets.length < k }); continue }
          for (const q of prefixes(item, k - p.sets.length)) next.push({ sets: [...p.sets, ...q.sets], complete: q.complete })
        }
        if (next.length > LIMIT) throw new Unsupported('too many prefixes')
        acc = next
      }
      return acc
    }
    case 'rep': {
      // Only the first k characters matter: min copies, then up to k optional ones.
      const copies = Math.min(ast.max, ast.min + k)
      const items: Ast[] = []
      for (let c = 0; c < Math.min(ast.min, k); c++) items.push(ast.item)
      let out = prefixes({ t: 'seq', items }, k)
      if (ast.min > k) return out.map(p => ({ sets: p.sets, complete: false }))
      let tail: Ast[] = items
      for (let c = items.length; c < copies; c++) {
        tail = [...tail, ast.item]
        out = out.concat(prefixes({ t: 'seq', items: tail }, k))
      }
      return out
    }
  }
}

/** Top-level alternatives of a regex source (groups and classes respected). */
export function splitAlternatives(src: string): string[] {
  const parts: string[] = []
  let depth = 0
  let cls = false
  let cur = ''
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!
    if (ch === '\\') { cur += ch + (src[i + 1] ?? ''); i++; continue }
    if (cls) { if (ch === ']') cls = false; cur += ch; continue }
    if (ch === '[') cls = true
    else if (ch === '(') depth++
    else if (ch === ')') depth--
    if (ch === '|' && depth === 0) { parts.push(cur); cur = ''; continue }
    cur += ch
  }
  parts.push(cur)
  return parts
}

export interface Finder {
  /** Start offset of the next hit at or after `from`, with its text; null when there is none. Same hits as the source regex with the `g` flag. */
  next: (text: string, from: number) => { index: number; text: string } | null
  /** Whether the source regex matches anywhere (its `test`). */
  test: (text: string) => boolean
  /** False when the analyser gave up and the finder runs the source regex itself. */
  fast: boolean
}

const FOLD = new Uint8Array(128).map((_, c) => c)
/** A code unit above 0xFF: the string has no exact latin1 copy. */
const WIDE = /[^\x00-\xFF]/

/**
 * The hot loop: the first position >= from whose (byte, next byte) has a group that admits the previous
 * byte (word or not) and the third and fourth bytes, as `position * 0x10000 + group`, or -1.
 */
function candidate(bytes: Uint8Array, from: number, t: ByteTables): number {
  const { pair, last, pw, m3, m4 } = t
  const n = bytes.length
  let p = from > 0 ? bytes[from - 1]! : 32
  let x = bytes[from]!
  for (let i = from; i < n - 1; i++) {
    const y = bytes[i + 1]!
    const g = pair[(x << 8) | y]!
    if (g !== 0 && (pw[g]! & WORD_BIT[p]!) !== 0 && m3[g * 257 + (i + 2 < n ? bytes[i + 2]! : 256)] !== 0 && m4[g * 257 + (i + 3 < n ? bytes[i + 3]! : 256)] !== 0)
      return i * 0x10000 + g
    p = x
    x = y
  }
  const g = last[x]!
  return g !== 0 && (pw[g]! & WORD_BIT[p]!) !== 0 ? (n - 1) * 0x10000 + g : -1
}

/**
 * Byte classes for the first-stage filter, 6 bits: odd for word characters, so that in a rolling window
 * of four classes bit 18 is the previous byte's word-ness. Letters fold to one class per letter, digits
 * share one, punctuation keeps its own, everything else shares class 0. Classes only merge bytes, so a
 * filter built through them admits every byte sequence the exact tables admit.
 */
const CLS = (() => {
  const out = new Uint8Array(256)
  const punct = '!"#$%&\'()*+,-./:;<=>?@[\\]^`{|}'
  for (let c = 0; c < 256; c++) {
    if (c >= 97 && c <= 122) out[c] = 2 * (c - 97) + 1
    else if (c >= 65 && c <= 90) out[c] = 2 * (c - 65) + 1
    else if (c >= 48 && c <= 57) out[c] = 53
    else if (c === 95) out[c] = 55
    else if (c === 9 || c === 10 || c === 11 || c === 12 || c === 13 || c === 32) out[c] = 2
    else if (c < 128 && punct.includes(String.fromCharCode(c))) out[c] = 4 + 2 * punct.indexOf(String.fromCharCode(c))
    else out[c] = 0
  }
  return out
})()
/** Class of the virtual byte before a text (a space: not a word character). */
const CLS_START = 2

/**
 * The first stage over (previous byte's word-ness, three bytes), in classes: one lookup per byte of a
 * rolling 4-class window. Built from the exact tables, so it passes every position `candidate` would return.
 */
function classFilter(t: ByteTables): Int32Array {
  // A bitset: 64 KB stays in cache where a byte per key (512 KB) measured 2.5x slower.
  const f = new Int32Array(1 << 14)
  const zOf = new Map<number, number[]>()
  // Many byte pairs share their classes and group: each (class pair, group) is marked once.
  const done = new Set<number>()
  for (let x = 0; x < 256; x++) {
    for (let y = 0; y < 256; y++) {
      const g = t.pair[(x << 8) | y]!
      if (g === 0) continue
      const once = ((CLS[x]! << 6) | CLS[y]!) * 65536 + g
      if (done.has(once)) continue
      done.add(once)
      let zs = zOf.get(g)
      if (!zs) {
        const set = new Set<number>()
        for (let z = 0; z < 256; z++) if (t.m3[g * 257 + z]) set.add(CLS[z]!)
        zOf.set(g, zs = [...set])
      }
      const base = (CLS[x]! << 12) | (CLS[y]! << 6)
      for (const w of [0, 1]) {
        if ((t.pw[g]! & (w + 1)) === 0) continue
        for (const z of zs) {
          const k = (w << 18) | base | z
          f[k >> 5] |= 1 << (k & 31)
        }
      }
    }
  }
  return f
}

/** The next position >= from (and < bytes.length - 2) the class filter passes, or -1: the hot loop, one lookup per byte. */
function nextPass(bytes: Uint8Array, from: number, f: Int32Array): number {
  const n = bytes.length
  let h = ((from > 0 ? CLS[bytes[from - 1]!]! : CLS_START) << 12) | (CLS[bytes[from]!]! << 6) | CLS[bytes[from + 1]!]!
  for (let j = from + 2; j < n; j++) {
    h = (h << 6) | CLS[bytes[j]!]!
    const k = h & 0x7FFFF
    if ((f[k >> 5]! & (1 << (k & 31))) !== 0) return j - 2
  }
  return -1
}

/** `candidate` with the class filter in front: the same answer, a cheap lookup at most positions. */
function candidateFast(bytes: Uint8Array, from: number, t: ByteTables, f: Int32Array): number {
  const n = bytes.length
  const { pair, pw, m3, m4 } = t
  while (n - from >= 3) {
    const i = nextPass(bytes, from, f)
    if (i < 0) { from = n - 2; break }
    const g = pair[(bytes[i]! << 8) | bytes[i + 1]!]!
    if (g !== 0 && (pw[g]! & WORD_BIT[i > 0 ? bytes[i - 1]! : 32]!) !== 0 && m3[g * 257 + bytes[i + 2]!] !== 0 && m4[g * 257 + (i + 3 < n ? bytes[i + 3]! : 256)] !== 0)
      return i * 0x10000 + g
    from = i + 1
  }
  return candidate(bytes, from, t)
}

/** An exact string key of a 0/1 mask (TypedArray.join measured ~10x slower at table build time). */
const maskKey = (m: Uint8Array): string => String.fromCharCode.apply(null, m as unknown as number[])

/** Byte-level tables: group per (byte, next byte) and per last byte; per group the allowed previous-byte kinds and third/fourth bytes. */
interface ByteTables { pair: Uint16Array; last: Uint16Array; pw: Uint8Array; m3: Uint8Array; m4: Uint8Array; m5: Uint8Array; m6: Uint8Array; m7: Uint8Array; m8: Uint8Array }
/** 1 when the byte is not a word character, 2 when it is (matches a group's `pw` bits). */
const WORD_BIT = new Uint8Array(256).map((_, c) => (isWord(c) ? 2 : 1))
/** The WebAssembly copy of the hot loop (null without WebAssembly: the JS loop runs). */
const KERNEL = createKernel(CLS, WORD_BIT, CLS_START)
/** Whether finders run the WebAssembly loop (tests check that it compiled). */
export const KERNEL_ACTIVE = KERNEL !== null

/**
 * Builds a finder equivalent to `new RegExp(tokens.join('|'), flags)`. Falls back to that regex when a
 * token uses syntax the analyser does not know (correct, just not faster).
 *
 * The table is keyed by whether the previous character is a word character (a leading `\b` needs a
 * boundary) and the next two characters; each entry also carries the characters allowed third and
 * fourth. Strings without code units above 0xFF (nearly all) are read as latin1 bytes with the same
 * tables re-keyed by byte. Only the rare positions that pass all of it run a (sticky) regex.
 */
export function buildFinder(tokens: readonly string[], ignoreCase: boolean, { kernel: useKernel = true }: { kernel?: boolean } = {}): Finder {
  const combined = new RegExp(tokens.join('|') || '(?!)', ignoreCase ? 'gi' : 'g')
  const fallback: Finder = {
    next: (text, from) => { combined.lastIndex = from; const m = combined.exec(text); return m ? { index: m.index, text: m[0] } : null },
    test: text => { combined.lastIndex = 0; return combined.test(text) },
    fast: false,
  }
  const fold = ignoreCase ? FOLD.map(c => (c >= 65 && c <= 90 ? c + 32 : c)) : FOLD
  const ANY = new Uint8Array(B).fill(1)
  interface Entry { list: number[]; m3: Uint8Array; m4: Uint8Array; m5: Uint8Array; m6: Uint8Array; m7: Uint8Array; m8: Uint8Array }
  const entries = new Map<number, Entry>()
  const or = (into: Uint8Array, set: Set130 | null): void => { for (let c = 0; c < B; c++) if (set ? set[c] && (c >= 128 || fold[c] === c) : 1) into[c] = 1 }
  try {
    tokens.forEach((token, t) => {
      const ast = parse(token, ignoreCase)
      const lead = ast.t === 'seq' && ast.items[0]?.t === 'empty' && ast.items[0].wordBoundary === true
      for (const p of prefixes(ast, 8)) {
        if (p.sets.length === 0) throw new Unsupported('token can match the empty string')
        const [s0, s1, s2, s3, s4, s5, s6, s7] = [p.sets[0]!, p.sets[1] ?? null, p.sets[2] ?? null, p.sets[3] ?? null, p.sets[4] ?? null, p.sets[5] ?? null, p.sets[6] ?? null, p.sets[7] ?? null]
        for (let a = 0; a < END; a++) {
          if (!s0[a] || (a < 128 && fold[a] !== a)) continue
          const wordA = a < 128 && isWord(a)
          for (let pw = 0; pw < 2; pw++) {
            // `\b` first: a word character needs a non-word one before it, and the other way round.
            if (lead && (pw === 1) === wordA) continue
            for (let b = 0; b < B; b++) {
              // A one-character match may be followed by anything, including the end of the text.
              if (s1 && (!s1[b] || (b < 128 && fold[b] !== b))) continue
              const key = (pw * END + a) * B + b
              let e = entries.get(key)
              if (!e) entries.set(key, e = { list: [], m3: new Uint8Array(B), m4: new Uint8Array(B), m5: new Uint8Array(B), m6: new Uint8Array(B), m7: new Uint8Array(B), m8: new Uint8Array(B) })
              if (e.list[e.list.length - 1] !== t) e.list.push(t)
              or(e.m3, s1 ? s2 : ANY)
              or(e.m4, s1 && s2 ? s3 : ANY)
              or(e.m5, s1 && s2 && s3 ? s4 : ANY)
              or(e.m6, s1 && s2 && s3 && s4 ? s5 : ANY)
              or(e.m7, s1 && s2 && s3 && s4 && s5 ? s6 : ANY)
              or(e.m8, s1 && s2 && s3 && s4 && s5 && s6 ? s7 : ANY)
            }
          }
        }
      }
    })
  } catch (error) {
    if (error instanceof Unsupported) return fallback
    throw error
  }
  // Entries with equal tokens and masks share one group (sticky regex + masks over raw code units).
  const groupOf = new Map<string, number>()
  const groups: Array<{ re: RegExp; m3: Uint8Array; m4: Uint8Array }> = [{ re: /(?!)/y, m3: new Uint8Array(257), m4: new Uint8Array(257) }]
  const table = new Uint16Array(2 * END * B)
  const byBucket = (m: Uint8Array): Uint8Array => {
    const out = new Uint8Array(257)
    for (let z = 0; z < 256; z++) out[z] = m[z < 128 ? fold[z]! : NON_ASCII]!
    out[256] = m[END]!
    return out
  }
  for (const [key, e] of entries) {
    const id = `${e.list.join(',')}/${maskKey(e.m3)}/${maskKey(e.m4)}`
    let g = groupOf.get(id)
    if (g === undefined) {
      g = groups.length
      if (g > 65535) return fallback
      groups.push({ re: new RegExp(e.list.map(t => tokens[t]).join('|'), ignoreCase ? 'iy' : 'y'), m3: byBucket(e.m3), m4: byBucket(e.m4) })
      groupOf.set(id, g)
    }
    table[key] = g
  }
  const bucket = (c: number): number => (c < 128 ? fold[c]! : NON_ASCII)
  // Over raw latin1 bytes, the previous-is-word bit moves from the key into the group: entries that differ
  // only by it are merged (token lists and masks united, which only adds candidates).
  const byteGroupOf = new Map<string, number>()
  const byteGroups: Array<{ re: RegExp; m3: Uint8Array; m4: Uint8Array; m5: Uint8Array; m6: Uint8Array; m7: Uint8Array; m8: Uint8Array; pw: number }> = [{ re: /(?!)/y, m3: new Uint8Array(257), m4: new Uint8Array(257), m5: new Uint8Array(257), m6: new Uint8Array(257), m7: new Uint8Array(257), m8: new Uint8Array(257), pw: 0 }]
  const byteGroup = (a: number, b: number): number => {
    const e0 = entries.get((0 * END + a) * B + b)
    const e1 = entries.get((1 * END + a) * B + b)
    if (!e0 && !e1) return 0
    const list = [...new Set([...(e0?.list ?? []), ...(e1?.list ?? [])])].sort((x, y) => x - y)
    const m3 = new Uint8Array(B)
    const m4 = new Uint8Array(B)
    const m5 = new Uint8Array(B)
    const m6 = new Uint8Array(B)
    const m7 = new Uint8Array(B)
    const m8 = new Uint8Array(B)
    for (const e of [e0, e1]) if (e) for (let c = 0; c < B; c++) { m3[c] |= e.m3[c]!; m4[c] |= e.m4[c]!; m5[c] |= e.m5[c]!; m6[c] |= e.m6[c]!; m7[c] |= e.m7[c]!; m8[c] |= e.m8[c]! }
    const pw = (e0 ? 1 : 0) | (e1 ? 2 : 0)
    const id = `${list.join(',')}/${maskKey(m3)}${maskKey(m4)}${maskKey(m5)}${maskKey(m6)}${maskKey(m7)}${maskKey(m8)}/${pw}`
    let g = byteGroupOf.get(id)
    if (g === undefined) {
      g = byteGroups.length
      byteGroups.push({ re: new RegExp(list.map(t => tokens[t]).join('|'), ignoreCase ? 'iy' : 'y'), m3: byBucket(m3), m4: byBucket(m4), m5: byBucket(m5), m6: byBucket(m6), m7: byBucket(m7), m8: byBucket(m8), pw })
      byteGroupOf.set(id, g)
    }
    return g
  }
  const bucketGroups = new Uint16Array(END * B)
  for (let a = 0; a < END; a++) for (let b = 0; b < B; b++) bucketGroups[a * B + b] = byteGroup(a, b)
  if (byteGroups.length > 65535) return fallback
  const bt: ByteTables = {
    pair: new Uint16Array(65536),
    last: new Uint16Array(256),
    pw: Uint8Array.from(byteGroups, g => g.pw),
    m3: new Uint8Array(byteGroups.length * 257),
    m4: new Uint8Array(byteGroups.length * 257),
    m5: new Uint8Array(byteGroups.length * 257),
    m6: new Uint8Array(byteGroups.length * 257),
    m7: new Uint8Array(byteGroups.length * 257),
    m8: new Uint8Array(byteGroups.length * 257),
  }
  byteGroups.forEach((g, k) => { bt.m3.set(g.m3, k * 257); bt.m4.set(g.m4, k * 257); bt.m5.set(g.m5, k * 257); bt.m6.set(g.m6, k * 257); bt.m7.set(g.m7, k * 257); bt.m8.set(g.m8, k * 257) })
  for (let x = 0; x < 256; x++) {
    bt.last[x] = bucketGroups[bucket(x) * B + END]!
    for (let y = 0; y < 256; y++) bt.pair[(x << 8) | y] = bucketGroups[bucket(x) * B + bucket(y)]!
  }
  const filter = classFilter(bt)
  const block = KERNEL ? KERNEL.install({ filter, pair: bt.pair, pw: bt.pw, m3: bt.m3, m4: bt.m4, m5: bt.m5, m6: bt.m6, m7: bt.m7, m8: bt.m8 }) : -1
  const verify = (re: RegExp, text: string, i: number): { index: number; text: string } | null => {
    // Most candidates fail: `test` does not build a match array; a success leaves lastIndex at the match end.
    re.lastIndex = i
    return re.test(text) ? { index: i, text: text.slice(i, re.lastIndex) } : null
  }
  // The WebAssembly loop stops two positions early; the JS lookup finishes the text.
  const kernelCandidate = (bytes: Uint8Array, i: number, n: number): number => {
    const p = n - i >= 3 ? KERNEL!.scan(block, i) : -1
    return p >= 0 ? p * 0x10000 + KERNEL!.group() : candidate(bytes, Math.max(i, n - 2), bt)
  }
  let cachedText: string | null = null
  let cachedBytes: Uint8Array | null = null
  const next = (text: string, from: number): { index: number; text: string } | null => {
    const n = text.length
    if (from >= n) return null
    const loaded = KERNEL && useKernel && n >= 64 && (text === cachedText ? cachedBytes !== null : !WIDE.test(text)) ? KERNEL.load(text) : null
    if (loaded) {
      cachedText = text
      cachedBytes = loaded
    }
    else if (text !== cachedText) {
      cachedText = text
      const buf = n >= 64 && !WIDE.test(text) ? Buffer.from(text, 'latin1') : null
      // A plain Uint8Array view keeps the hot loop monomorphic.
      cachedBytes = buf && new Uint8Array(buf.buffer, buf.byteOffset, buf.length)
    }
    const bytes = cachedBytes
    if (bytes) {
      // Either loop yields the next candidate as position * 0x10000 + group, or -1.
      for (let i = from; i < n; i++) {
        const c = loaded ? kernelCandidate(bytes, i, n) : candidateFast(bytes, i, bt, filter)
        if (c < 0) return null
        const g = c % 0x10000
        i = (c - g) / 0x10000
        const h = verify(byteGroups[g]!.re, text, i)
        if (h) return h
      }
      return null
    }
    // Code units above 0xFF: the same lookups, one code unit at a time.
    const at = (j: number): number => (j < n ? text.charCodeAt(j) : -1)
    for (let i = from; i < n; i++) {
      const p = i > 0 ? text.charCodeAt(i - 1) : -1
      const pw = p >= 0 && p < 128 && isWord(p) ? 1 : 0
      const c1 = at(i + 1)
      const g = table[(pw * END + bucket(text.charCodeAt(i))) * B + (c1 < 0 ? END : bucket(c1))]!
      if (g === 0) continue
      const c2 = at(i + 2)
      const c3 = at(i + 3)
      const gr = groups[g]!
      if (gr.m3[c2 < 0 ? 256 : c2 < 256 ? c2 : 200] === 0 || gr.m4[c3 < 0 ? 256 : c3 < 256 ? c3 : 200] === 0) continue
      const h = verify(gr.re, text, i)
      if (h) return h
    }
    return null
  }
  return { next, test: text => next(text, 0) !== null, fast: true }
}

/** Requirements of a regex: every match contains at least one character of each set. */
function requirements(ast: Ast): Set130[] {
  switch (ast.t) {
    case 'empty': return []
    case 'chars': return [ast.set]
    case 'seq': return ast.items.flatMap(requirements)
    case 'rep': return ast.min >= 1 ? requirements(ast.item) : []
    case 'alt': {
      // Each branch contributes its narrowest requirement; the match contains a character of their union.
      const union = none()
      for (const a of ast.alts) {
        const reqs = requirements(a)
        if (!reqs.length) return []
        let best = reqs[0]!
        for (const r of reqs) if (r.reduce((n, x) => n + x, 0) < best.reduce((n, x) => n + x, 0)) best = r
        for (let c = 0; c < B; c++) union[c] |= best[c]!
      }
      return [union]
    }
  }
}

const MAX_REQUIRED_CHARS = 12

/**
 * Cheap necessary conditions of a line pattern: character classes that every match must contain a
 * character of (e.g. the `|` of `curl ... | sh`). A subject that fails one cannot match the pattern.
 * Unknown syntax, or conditions too broad to help, give none.
 */
export function requiredClasses(re: RegExp): RegExp[] {
  let ast: Ast
  try { ast = parse(re.source, re.flags.includes('i')) } catch (error) {
    if (error instanceof Unsupported) return []
    throw error
  }
  const out = new Map<string, RegExp>()
  for (const set of requirements(ast)) {
    const chars: number[] = []
    for (let c = 0; c < 128; c++) if (set[c]) chars.push(c)
    if (chars.length + (set[NON_ASCII] ? 8 : 0) > MAX_REQUIRED_CHARS) continue
    const body = chars.map(c => `\\x${c.toString(16).padStart(2, '0')}`).join('') + (set[NON_ASCII] ? '\\u0080-\\uFFFF' : '')
    if (body) out.set(body, new RegExp(`[${body}]`))
  }
  return [...out.values()]
}

/**
 * Literals a regex cannot match without: `{ all }` needs each part, `{ any }` one of them. Strings are
 * lower case and free of whitespace (a masked view blanks comments to spaces: a literal without
 * whitespace that occurs in the view occurs at the same place in the raw text).
 */
export type Gate = string | { all: Gate[] } | { any: Gate[] }

/** The single character a class stands for (both cases of one letter count as one), or null. */
function literalChar(set: Set130): string | null {
  let found = -1
  for (let c = 0; c < B; c++) {
    if (!set[c]) continue
    if (c >= 128) return null
    const lower = c >= 65 && c <= 90 ? c + 32 : c
    if (found !== -1 && found !== lower) return null
    found = lower
  }
  return found === -1 || CLASS_S.includes(found) ? null : String.fromCharCode(found)
}

function gateOf(ast: Ast): Gate | null {
  switch (ast.t) {
    case 'empty': return null
    case 'chars': return literalChar(ast.set)
    case 'rep': {
      if (ast.min < 1) return null
      const inner = gateOf(ast.item)
      // `x{2}` or `x+` still contains `x`; runs across copies are not joined (kept simple).
      return inner
    }
    case 'alt': {
      const parts: Gate[] = []
      for (const a of ast.alts) {
        const g = gateOf(a)
        if (g === null) return null
        parts.push(g)
      }
      return parts.length === 1 ? parts[0]! : { any: parts }
    }
    case 'seq': {
      const parts: Gate[] = []
      let run = ''
      const end = (): void => { if (run.length >= 2) parts.push(run); run = '' }
      for (const item of ast.items) {
        // Lookarounds and boundaries consume nothing: the characters around them stay adjacent.
        if (item.t === 'empty') continue
        if (item.t === 'chars') {
          const ch = literalChar(item.set)
          if (ch !== null) { run += ch; continue }
          end()
          continue
        }
        end()
        const g = gateOf(item)
        if (g !== null && !(typeof g === 'string' && g.length < 2)) parts.push(g)
      }
      end()
      return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { all: parts }
    }
  }
}

/** The literal gate of a line pattern, or null when none can be derived (the pattern then always runs). */
export function literalGate(re: RegExp): Gate | null {
  if (re.flags.includes('u') || re.flags.includes('v')) return null
  let ast: Ast
  try { ast = parse(re.source, true) } catch (error) {
    if (error instanceof Unsupported) return null
    throw error
  }
  const g = gateOf(ast)
  return typeof g === 'string' && g.length < 2 ? null : g
}

/** A gate as a test of a lower-cased text (closures: measured faster than walking the tree per hit). */
export function compileGate(gate: Gate): (lower: string) => boolean {
  if (typeof gate === 'string') return lower => lower.includes(gate)
  const parts = ('all' in gate ? gate.all : gate.any).map(compileGate)
  if ('all' in gate) return lower => { for (const p of parts) if (!p(lower)) return false; return true }
  return lower => { for (const p of parts) if (p(lower)) return true; return false }
}
