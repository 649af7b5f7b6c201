import type { Ast, Set130 } from '../../src/scanner/finder/regex-subset'
/**
 * The prefilter's table construction as it was before the fast builder (commit 33d6b97), kept verbatim
 * as the reference the tests compare the new tables with: same tokens in, byte-identical tables out.
 * Slow on purpose (per-pair entries, 130-byte masks, string keys); never used by the scanner.
 */
import { B, END, isWord, NON_ASCII, parse, Unsupported } from '../../src/scanner/finder/regex-subset'

interface Prefix {
  sets: Set130[]
  complete: boolean
}
const LIMIT = 4096

function prefixes(ast: Ast, k: number): Prefix[] {
  switch (ast.t) {
    case 'empty':
      return [{ sets: [], complete: true }]
    case 'chars':
      return k === 0 ? [{ sets: [], complete: false }] : [{ sets: [ast.set], complete: true }]
    case 'alt':
      return ast.alts.flatMap(a => prefixes(a, k))
    case 'seq': {
      let acc: Prefix[] = [{ sets: [], complete: true }]
      for (const item of ast.items) {
        const next: Prefix[] = []
        for (const p of acc) {
          if (!p.complete || p.sets.length >= k) {
            next.push({ sets: p.sets, complete: p.complete && p.sets.length < k })
            continue
          }
          for (const q of prefixes(item, k - p.sets.length))
            next.push({ sets: [...p.sets, ...q.sets], complete: q.complete })
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
      let out = prefixes({ t: 'seq', items }, k)
      if (ast.min > k)
        return out.map(p => ({ sets: p.sets, complete: false }))
      let tail: Ast[] = items
      for (let c = items.length; c < copies; c++) {
        tail = [...tail, ast.item]
        out = out.concat(prefixes({ t: 'seq', items: tail }, k))
      }
      return out
    }
  }
}

const FOLD = new Uint8Array(128).map((_, c) => c)

const CLS = (() => {
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

interface ByteTables {
  pair: Uint16Array
  last: Uint16Array
  pw: Uint8Array
  m3: Uint8Array
  m4: Uint8Array
  m5: Uint8Array
  m6: Uint8Array
  m7: Uint8Array
  m8: Uint8Array
}

function classFilter(t: ByteTables): Int32Array {
  // A bitset: 64 KB stays in cache where a byte per key (512 KB) does not.
  const f = new Int32Array(1 << 14)
  const zOf = new Map<number, number[]>()
  // Many byte pairs share their classes and group: each (class pair, group) is marked once.
  const done = new Set<number>()
  for (let x = 0; x < 256; x++) {
    for (let y = 0; y < 256; y++) {
      const g = t.pair[(x << 8) | y]!
      if (g === 0)
        continue
      const once = ((CLS[x]! << 6) | CLS[y]!) * 65536 + g
      if (done.has(once))
        continue
      done.add(once)
      let zs = zOf.get(g)
      if (!zs) {
        const set = new Set<number>()
        for (let z = 0; z < 256; z++) {
          if (t.m3[g * 257 + z])
            set.add(CLS[z]!)
        }
        zOf.set(g, (zs = [...set]))
      }
      const base = (CLS[x]! << 12) | (CLS[y]! << 6)
      for (const w of [0, 1]) {
        if ((t.pw[g]! & (w + 1)) === 0)
          continue
        for (const z of zs) {
          const k = (w << 18) | base | z
          f[k >> 5] |= 1 << (k & 31)
        }
      }
    }
  }
  return f
}

const maskKey = (m: Uint8Array): string => String.fromCharCode.apply(null, m as unknown as number[])

/** The tables as the old `buildFinder` made them; groups as their sticky regexes' sources. */
export interface ReferenceTables {
  pair: Uint16Array
  last: Uint16Array
  pw: Uint8Array
  m3: Uint8Array
  m4: Uint8Array
  m5: Uint8Array
  m6: Uint8Array
  m7: Uint8Array
  m8: Uint8Array
  filter: Int32Array
  sources: string[]
  unitTable: Uint16Array
  unitM3: Uint8Array
  unitM4: Uint8Array
  unitSources: string[]
}

/** The old tables of `buildFinder(tokens, ignoreCase)`, null where it fell back to the plain regex. */
export function referenceTables(tokens: readonly string[], ignoreCase: boolean): ReferenceTables | null {
  const fold = ignoreCase ? FOLD.map(c => (c >= 65 && c <= 90 ? c + 32 : c)) : FOLD
  const ANY = new Uint8Array(B).fill(1)
  interface Entry {
    list: number[]
    m3: Uint8Array
    m4: Uint8Array
    m5: Uint8Array
    m6: Uint8Array
    m7: Uint8Array
    m8: Uint8Array
  }
  const entries = new Map<number, Entry>()
  const or = (into: Uint8Array, set: ArrayLike<number> | null): void => {
    for (let c = 0; c < B; c++) {
      if (set ? set[c] && (c >= 128 || fold[c] === c) : 1)
        into[c] = 1
    }
  }
  try {
    tokens.forEach((token, t) => {
      const ast = parse(token, ignoreCase)
      const lead = ast.t === 'seq' && ast.items[0]?.t === 'empty' && ast.items[0].wordBoundary === true
      for (const p of prefixes(ast, 8)) {
        if (p.sets.length === 0)
          throw new Unsupported('token can match the empty string')
        const [s0, s1, s2, s3, s4, s5, s6, s7] = [
          p.sets[0]!,
          p.sets[1] ?? null,
          p.sets[2] ?? null,
          p.sets[3] ?? null,
          p.sets[4] ?? null,
          p.sets[5] ?? null,
          p.sets[6] ?? null,
          p.sets[7] ?? null,
        ]
        for (let a = 0; a < END; a++) {
          if (!s0[a] || (a < 128 && fold[a] !== a))
            continue
          const wordA = a < 128 && isWord(a)
          for (let pw = 0; pw < 2; pw++) {
            // `\b` first: a word character needs a non-word one before it, and the other way round.
            if (lead && (pw === 1) === wordA)
              continue
            for (let b = 0; b < B; b++) {
              // A one-character match may be followed by anything, including the end of the text.
              if (s1 && (!s1[b] || (b < 128 && fold[b] !== b)))
                continue
              const key = (pw * END + a) * B + b
              let e = entries.get(key)
              if (!e) {
                entries.set(
                  key,
                  (e = {
                    list: [],
                    m3: new Uint8Array(B),
                    m4: new Uint8Array(B),
                    m5: new Uint8Array(B),
                    m6: new Uint8Array(B),
                    m7: new Uint8Array(B),
                    m8: new Uint8Array(B),
                  }),
                )
              }
              if (e.list[e.list.length - 1] !== t)
                e.list.push(t)
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
  }
  catch (error) {
    if (error instanceof Unsupported)
      return null
    throw error
  }
  // Entries with equal tokens and masks share one group (sticky regex + masks over raw code units).
  const groupOf = new Map<string, number>()
  const groups: Array<{ re: RegExp, m3: Uint8Array, m4: Uint8Array }> = [
    { re: /(?!)/y, m3: new Uint8Array(257), m4: new Uint8Array(257) },
  ]
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
      if (g > 65535)
        return null
      groups.push({
        re: new RegExp(e.list.map(t => tokens[t]).join('|'), ignoreCase ? 'iy' : 'y'),
        m3: byBucket(e.m3),
        m4: byBucket(e.m4),
      })
      groupOf.set(id, g)
    }
    table[key] = g
  }
  const bucket = (c: number): number => (c < 128 ? fold[c]! : NON_ASCII)
  // Over raw latin1 bytes, the previous-is-word bit moves from the key into the group: entries that differ
  // only by it are merged (token lists and masks united, which only adds candidates).
  const byteGroupOf = new Map<string, number>()
  const byteGroups: Array<{
    re: RegExp
    m3: Uint8Array
    m4: Uint8Array
    m5: Uint8Array
    m6: Uint8Array
    m7: Uint8Array
    m8: Uint8Array
    pw: number
  }> = [
    {
      re: /(?!)/y,
      m3: new Uint8Array(257),
      m4: new Uint8Array(257),
      m5: new Uint8Array(257),
      m6: new Uint8Array(257),
      m7: new Uint8Array(257),
      m8: new Uint8Array(257),
      pw: 0,
    },
  ]
  const byteGroup = (a: number, b: number): number => {
    const e0 = entries.get((0 * END + a) * B + b)
    const e1 = entries.get((1 * END + a) * B + b)
    if (!e0 && !e1)
      return 0
    const list = [...new Set([...(e0?.list ?? []), ...(e1?.list ?? [])])].sort((x, y) => x - y)
    const m3 = new Uint8Array(B)
    const m4 = new Uint8Array(B)
    const m5 = new Uint8Array(B)
    const m6 = new Uint8Array(B)
    const m7 = new Uint8Array(B)
    const m8 = new Uint8Array(B)
    for (const e of [e0, e1]) {
      if (e) {
        for (let c = 0; c < B; c++) {
          m3[c] |= e.m3[c]!
          m4[c] |= e.m4[c]!
          m5[c] |= e.m5[c]!
          m6[c] |= e.m6[c]!
          m7[c] |= e.m7[c]!
          m8[c] |= e.m8[c]!
        }
      }
    }
    const pw = (e0 ? 1 : 0) | (e1 ? 2 : 0)
    const masks = [m3, m4, m5, m6, m7, m8].map(maskKey).join('')
    const id = `${list.join(',')}/${masks}/${pw}`
    let g = byteGroupOf.get(id)
    if (g === undefined) {
      g = byteGroups.length
      byteGroups.push({
        re: new RegExp(list.map(t => tokens[t]).join('|'), ignoreCase ? 'iy' : 'y'),
        m3: byBucket(m3),
        m4: byBucket(m4),
        m5: byBucket(m5),
        m6: byBucket(m6),
        m7: byBucket(m7),
        m8: byBucket(m8),
        pw,
      })
      byteGroupOf.set(id, g)
    }
    return g
  }
  const bucketGroups = new Uint16Array(END * B)
  for (let a = 0; a < END; a++) {
    for (let b = 0; b < B; b++) bucketGroups[a * B + b] = byteGroup(a, b)
  }
  if (byteGroups.length > 65535)
    return null
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
  byteGroups.forEach((g, k) => {
    bt.m3.set(g.m3, k * 257)
    bt.m4.set(g.m4, k * 257)
    bt.m5.set(g.m5, k * 257)
    bt.m6.set(g.m6, k * 257)
    bt.m7.set(g.m7, k * 257)
    bt.m8.set(g.m8, k * 257)
  })
  for (let x = 0; x < 256; x++) {
    bt.last[x] = bucketGroups[bucket(x) * B + END]!
    for (let y = 0; y < 256; y++) bt.pair[(x << 8) | y] = bucketGroups[bucket(x) * B + bucket(y)]!
  }
  const filter = classFilter(bt)

  const flat = (list: Uint8Array[]): Uint8Array => {
    const out = new Uint8Array(list.length * 257)
    list.forEach((m, k) => out.set(m, k * 257))
    return out
  }
  return {
    pair: bt.pair,
    last: bt.last,
    pw: bt.pw,
    m3: bt.m3,
    m4: bt.m4,
    m5: bt.m5,
    m6: bt.m6,
    m7: bt.m7,
    m8: bt.m8,
    filter,
    sources: byteGroups.map(g => g.re.source),
    unitTable: table,
    unitM3: flat(groups.map(g => g.m3)),
    unitM4: flat(groups.map(g => g.m4)),
    unitSources: groups.map(g => g.re.source),
  }
}
