/**
 * The small regex analyser behind the scanner's prefilter: parses the subset of regex syntax anchor
 * tokens and line patterns use into sets of character buckets, and lists the prefixes a pattern's
 * matches can start with. Anything outside the subset throws `Unsupported` (callers then fall back
 * to the regex itself).
 */

/** Buckets: ASCII code units (folded to lower case when ignoring case), 128 = any non-ASCII, 129 = end of text. */
export const NON_ASCII = 128
export const END = 129
export const B = 130

/** A set of buckets as 0/1 per bucket: a plain array (small typed arrays cost an off-heap allocation each). */
export type Set130 = number[]

function full(): Set130 {
  const s = new Array<number>(B).fill(1)
  s[END] = 0
  return s
}
export const none = (): Set130 => new Array<number>(B).fill(0)

interface Node {
  t: 'chars'
  set: Set130
}
interface Seq {
  t: 'seq'
  items: Ast[]
}
interface Alt {
  t: 'alt'
  alts: Ast[]
}
interface Rep {
  t: 'rep'
  item: Ast
  min: number
  max: number
}
interface Empty {
  t: 'empty'
  wordBoundary?: boolean
}
export type Ast = Node | Seq | Alt | Rep | Empty

export class Unsupported extends Error {}

export const CLASS_S = [9, 10, 11, 12, 13, 32]
export function isWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
}

/**
 * Sets of single characters and of `\s`-like escapes, shared by every parse (at most a few hundred):
 * most atoms are one of them. Sets in an Ast are therefore never modified.
 */
const SHARED = new Map<string, Set130>()
/** The single-character sets, by bucket (plus B when ignoring case). */
const CHARS: Array<Set130 | undefined> = []

/** Parses the subset of regex syntax the anchor tokens use; anything else throws Unsupported. */
export function parse(src: string, ignoreCase: boolean): Ast {
  let i = 0
  const add = (set: Set130, c: number): void => {
    if (c >= 128) {
      set[NON_ASCII] = 1
      return
    }
    set[c] = 1
    if (ignoreCase && c >= 65 && c <= 90)
      set[c + 32] = 1
    if (ignoreCase && c >= 97 && c <= 122)
      set[c - 32] = 1
  }
  const addRange = (set: Set130, a: number, b: number): void => {
    for (let c = a; c <= Math.min(b, 127); c++) add(set, c)
    if (b >= 128)
      set[NON_ASCII] = 1
  }
  const escapeClass = (set: Set130, ch: string): boolean => {
    if (ch === 's') {
      for (const c of CLASS_S) add(set, c)
      set[NON_ASCII] = 1
      return true
    }
    if (ch === 'S') {
      for (let c = 0; c < 128; c++) {
        if (!CLASS_S.includes(c))
          add(set, c)
      }
      set[NON_ASCII] = 1
      return true
    }
    if (ch === 'w') {
      for (let c = 0; c < 128; c++) {
        if (isWord(c))
          add(set, c)
      }
      return true
    }
    if (ch === 'W') {
      for (let c = 0; c < 128; c++) {
        if (!isWord(c))
          add(set, c)
      }
      set[NON_ASCII] = 1
      return true
    }
    if (ch === 'd') {
      addRange(set, 48, 57)
      return true
    }
    if (ch === 'D') {
      for (let c = 0; c < 128; c++) {
        if (c < 48 || c > 57)
          add(set, c)
      }
      set[NON_ASCII] = 1
      return true
    }
    return false
  }
  const shared = (key: string, fill: (set: Set130) => void): Set130 => {
    const k = `${ignoreCase ? 'i' : ''}${key}`
    let set = SHARED.get(k)
    if (!set) {
      set = none()
      fill(set)
      SHARED.set(k, set)
    }
    return set
  }
  const charSet = (c: number): Set130 => {
    const k = (ignoreCase ? B : 0) + (c < 128 ? c : NON_ASCII)
    return (CHARS[k] ??= (() => {
      const set = none()
      add(set, c)
      return set
    })())
  }
  const escapedChar = (): number => {
    const ch = src[i]!
    if (ch === 'u' && /^[0-9A-Fa-f]{4}$/.test(src.slice(i + 1, i + 5))) {
      i += 5
      return Number.parseInt(src.slice(i - 4, i), 16)
    }
    if (ch === 'x' && /^[0-9A-Fa-f]{2}$/.test(src.slice(i + 1, i + 3))) {
      i += 3
      return Number.parseInt(src.slice(i - 2, i), 16)
    }
    if (/[0-9A-Za-z]/.test(ch) && !'tnrvf'.includes(ch))
      throw new Unsupported(`\\${ch}`)
    i++
    return ({ t: 9, n: 10, r: 13, v: 11, f: 12 } as Record<string, number>)[ch] ?? ch.charCodeAt(0)
  }
  function cls(): Node {
    i++ // [
    const negate = src[i] === '^'
    if (negate)
      i++
    const set = none()
    let first = true
    while (i < src.length && (src[i] !== ']' || first)) {
      first = false
      let a: number
      if (src[i] === '\\') {
        i++
        if (escapeClass(set, src[i]!)) {
          i++
          continue
        }
        a = escapedChar()
      }
      else {
        a = src.charCodeAt(i++)
      }
      if (src[i] === '-' && src[i + 1] !== ']' && i + 1 < src.length) {
        i++
        let b: number
        if (src[i] === '\\') {
          i++
          b = escapedChar()
        }
        else {
          b = src.charCodeAt(i++)
        }
        addRange(set, a, b)
        // With /i, a range like A-Z also covers the other case (add() folds ASCII letters).
      }
      else {
        add(set, a)
      }
    }
    if (src[i] !== ']')
      throw new Unsupported('unterminated class')
    i++
    if (!negate)
      return { t: 'chars', set }
    const out = none()
    for (let c = 0; c < 128; c++) {
      if (!set[c])
        out[c] = 1
    }
    // Some non-ASCII character is always outside the class. With /i, add() put both cases of a letter in `set`.
    out[NON_ASCII] = 1
    return { t: 'chars', set: out }
  }
  function atom(): Ast {
    const ch = src[i]!
    if (ch === '(') {
      i++
      if (src.startsWith('?:', i)) {
        i += 2
      }
      else if (
        src.startsWith('?=', i)
        || src.startsWith('?!', i)
        || src.startsWith('?<=', i)
        || src.startsWith('?<!', i)
      ) {
        // Lookarounds consume nothing: skip the group (treated as always true, which only widens the candidates).
        let depth = 1
        while (i < src.length && depth) {
          if (src[i] === '\\') {
            i += 2
            continue
          }
          if (src[i] === '[') {
            while (i < src.length && src[i] !== ']') {
              if (src[i] === '\\')
                i++
              i++
            }
          }
          if (src[i] === '(')
            depth++
          else if (src[i] === ')')
            depth--
          i++
        }
        return { t: 'empty' }
      }
      else if (src[i] === '?') {
        throw new Unsupported('group kind')
      }
      const inner = alternation()
      if (src[i] !== ')')
        throw new Unsupported('unbalanced group')
      i++
      return inner
    }
    if (ch === '[')
      return cls()
    if (ch === '.') {
      i++
      const set = full()
      set[10] = 0
      set[13] = 0
      return { t: 'chars', set }
    }
    if (ch === '^' || ch === '$') {
      i++
      return { t: 'empty' }
    }
    if (ch === '\\') {
      i++
      const e = src[i]!
      if (e === 'b' || e === 'B') {
        i++
        return { t: 'empty', wordBoundary: e === 'b' }
      }
      if (e !== undefined && 'sSwWdD'.includes(e)) {
        i++
        return { t: 'chars', set: shared(`\\${e}`, set => escapeClass(set, e)) }
      }
      return { t: 'chars', set: charSet(escapedChar()) }
    }
    if (ch === ')' || ch === '|' || ch === '*' || ch === '+' || ch === '?' || ch === '{')
      throw new Unsupported(`unexpected ${ch}`)
    return { t: 'chars', set: charSet(src.charCodeAt(i++)) }
  }
  function quantified(): Ast {
    let a = atom()
    for (;;) {
      const ch = src[i]
      let min: number
      let max: number
      if (ch === '*') {
        min = 0
        max = Infinity
        i++
      }
      else if (ch === '+') {
        min = 1
        max = Infinity
        i++
      }
      else if (ch === '?') {
        min = 0
        max = 1
        i++
      }
      else if (ch === '{') {
        const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(src.slice(i))
        if (!m)
          throw new Unsupported('brace')
        min = Number(m[1])
        max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min
        i += m[0].length
      }
      else {
        return a
      }
      if (src[i] === '?')
        i++ // lazy: same language
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
    while (src[i] === '|') {
      i++
      alts.push(sequence())
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts }
  }
  const ast = alternation()
  if (i !== src.length)
    throw new Unsupported('trailing input')
  return ast
}

/** Prefixes of length <= k: `complete` ones are whole matches shorter than k. */
export interface Prefix {
  sets: Set130[]
  complete: boolean
}
const LIMIT = 4096

/**
 * The prefixes of `ast`'s matches, up to k sets each, in a fixed order. `memo` keeps the answers per
 * (node, k) within one call: a node under an alternation or repetition is asked the same question many
 * times. Answers are shared, never modified.
 */
export function prefixes(ast: Ast, k: number, memo = new Map<Ast, Array<Prefix[] | undefined>>()): Prefix[] {
  let byK = memo.get(ast)
  const known = byK?.[k]
  if (known)
    return known
  const out = expand(ast, k, memo)
  if (!byK)
    memo.set(ast, (byK = []))
  byK[k] = out
  return out
}

function expand(ast: Ast, k: number, memo: Map<Ast, Array<Prefix[] | undefined>>): Prefix[] {
  switch (ast.t) {
    case 'empty':
      return [{ sets: [], complete: true }]
    case 'chars':
      return k === 0 ? [{ sets: [], complete: false }] : [{ sets: [ast.set], complete: true }]
    case 'alt':
      return ast.alts.flatMap(a => prefixes(a, k, memo))
    case 'seq': {
      // Indexed loops: this runs cold, once per token, where `for of` allocates an iterator result per step.
      let acc: Prefix[] = [{ sets: [], complete: true }]
      for (let i = 0; i < ast.items.length; i++) {
        const next: Prefix[] = []
        for (let j = 0; j < acc.length; j++) {
          const p = acc[j]!
          // Finished prefixes carry over (prefixes are never modified: the same object will do).
          if (!p.complete) {
            next.push(p)
            continue
          }
          if (p.sets.length >= k) {
            next.push({ sets: p.sets, complete: false })
            continue
          }
          const qs = prefixes(ast.items[i]!, k - p.sets.length, memo)
          for (let m = 0; m < qs.length; m++) next.push({ sets: p.sets.concat(qs[m]!.sets), complete: qs[m]!.complete })
        }
        if (next.length > LIMIT)
          throw new Unsupported('too many prefixes')
        acc = next
      }
      return acc
    }
    case 'rep': {
      // Only the first k characters matter: min copies, then up to k optional ones.
      const copies = Math.min(ast.max, ast.min + k)
      const items: Ast[] = []
      for (let c = 0; c < Math.min(ast.min, k); c++) items.push(ast.item)
      let out = prefixes({ t: 'seq', items }, k, memo)
      if (ast.min > k)
        return out.map(p => ({ sets: p.sets, complete: false }))
      let tail: Ast[] = items
      for (let c = items.length; c < copies; c++) {
        tail = [...tail, ast.item]
        out = out.concat(prefixes({ t: 'seq', items: tail }, k, memo))
      }
      return out
    }
  }
}
