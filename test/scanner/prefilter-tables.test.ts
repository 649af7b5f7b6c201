import type { FinderTables } from '../../src/scanner/finder/tables'
import type { ReferenceTables } from './prefilter-reference'
import { Buffer } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { splitAlternatives } from '../../src/scanner/finder/prefilter'
import { buildTables } from '../../src/scanner/finder/tables'
import { AST_TRIGGER } from '../../src/scanner/js/trigger'
import { COMPILED } from '../../src/scanner/text-scan'
import { referenceTables } from './prefilter-reference'

/**
 * The new tables in the reference's shape: token lists become their sticky regexes' sources. The
 * reference's fifth to eighth byte masks have no runtime copy (the kernel checks those bytes per token
 * prefix, `tbits`, tested against them below).
 */
type Built = Omit<ReferenceTables, 'm5' | 'm6' | 'm7' | 'm8'>
function asReference(t: FinderTables, tokens: readonly string[], ignoreCase: boolean): Built {
  const sources = (lists: number[][]): string[] =>
    lists.map(l => new RegExp(l.map(k => tokens[k]).join('|') || '(?!)', ignoreCase ? 'iy' : 'y').source)
  return {
    pair: t.pair,
    last: t.last,
    pw: t.pw,
    m3: t.m3,
    m4: t.m4,
    filter: t.filter,
    sources: sources(t.groups),
    unitTable: t.unitTable,
    unitM3: t.unitM3,
    unitM4: t.unitM4,
    unitSources: sources(t.unitGroups),
  }
}

/** Names of the built tables that differ from the reference's (an exact, element by element comparison). */
function differences(a: ReferenceTables, b: Built): string[] {
  const out: string[] = []
  for (const k of Object.keys(b) as Array<keyof Built>) {
    const x = a[k]
    const y = b[k]
    const same = Array.isArray(x)
      ? JSON.stringify(x) === JSON.stringify(y)
      : Buffer.from((x as Uint8Array).buffer, (x as Uint8Array).byteOffset, (x as Uint8Array).byteLength).equals(
        Buffer.from((y as Uint8Array).buffer, (y as Uint8Array).byteOffset, (y as Uint8Array).byteLength),
      ) && (x as Uint8Array).constructor === (y as Uint8Array).constructor
    if (!same)
      out.push(k)
  }
  return out
}

function compare(tokens: readonly string[], ignoreCase: boolean): number {
  const want = referenceTables(tokens, ignoreCase)
  const got = buildTables(tokens, ignoreCase)
  if (want === null || got === null) {
    expect(got === null, JSON.stringify(tokens)).toBe(want === null)
    return 0
  }
  expect(differences(want, asReference(got, tokens, ignoreCase)), JSON.stringify(tokens)).toEqual([])
  return want.sources.length
}

describe('finder tables', () => {
  it('equal the straightforward construction for every built-in finder', () => {
    const lists = new Map<string, [string[], boolean]>()
    for (const t of Object.values(COMPILED)) {
      for (const re of [t.anchor, t.anchorAst]) lists.set(re.source, [splitAlternatives(re.source), true])
    }
    lists.set(AST_TRIGGER.source, [splitAlternatives(AST_TRIGGER.source), false])
    expect(lists.size).toBe(13)
    // Every list was analysed (none fell back), with real groups to compare.
    for (const [tokens, ignoreCase] of lists.values()) expect(compare(tokens, ignoreCase)).toBeGreaterThan(20)
  })

  it('equal it for seeded subsets of the tokens, with and without case folding', () => {
    const pool = [
      ...new Set([
        ...Object.values(COMPILED).flatMap(t => splitAlternatives(t.anchor.source)),
        ...splitAlternatives(AST_TRIGGER.source),
      ]),
    ]
    let seed = 11
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
      return seed / 0x7FFFFFFF
    }
    let groups = 0
    for (let k = 0; k < 12; k++) {
      const tokens = pool.filter(() => rnd() < 0.15).sort(() => rnd() - 0.5)
      groups += compare(tokens, k % 2 === 0)
    }
    expect(groups).toBeGreaterThan(300)
  })

  it('equal it on edge cases: leading and trailing boundaries, single characters, classes, fallbacks', () => {
    const cases: Array<[string[], boolean]> = [
      [['\\bkey', '[^a-z]x'], true],
      [['\\bkey', '[^a-z]x'], false],
      [['a', 'B', '\\bC\\b', '.', '\\s+x', 'é', '\\u00e9t'], true],
      [['x?'], true],
      [['(?<x>a)'], true],
      [[], true],
      [['\\bimport\\s*\\(', '(?:\\\\x[0-9A-Fa-f]{2}){4}', '[\'"`]constructor\\b'], false],
    ]
    for (const [tokens, ignoreCase] of cases) compare(tokens, ignoreCase)
    expect(buildTables(['x?'], true)).toBe(null)
    expect(buildTables(['(?<x>a)'], true)).toBe(null)
  })
})

describe('per-part bits (the kernel\'s candidate check)', () => {
  /**
   * The kernel's checks at position 0 of `text` (after a space): the surviving bits, and whether the group masks
   * alone pass.
   */
  function check(tokens: string[], text: string): { bits: number, masks: boolean } {
    const t = buildTables(tokens, true)!
    // The group masks of the straightforward construction (its groups are numbered as these: compared above).
    const ref = referenceTables(tokens, true)!
    const b = Buffer.from(text, 'latin1')
    const g = t.pair[(b[0]! << 8) | b[1]!]!
    const size = t.groups.length * 257
    let bits = g ? t.tpw[g * 4 + 1]! : 0
    let masks = g !== 0
    const ms = [ref.m3, ref.m4, ref.m5, ref.m6, ref.m7, ref.m8]
    for (let d = 0; d < 6; d++) {
      const x = 2 + d < b.length ? b[2 + d]! : 256
      bits &= t.tbits[d * size + g * 257 + x]!
      masks &&= ms[d]![g * 257 + x] !== 0
    }
    return { bits, masks }
  }

  it('reject a prefix that each position allows for a different token or prefix', () => {
    const tokens = ['(?:password|token)["\']?\\s*[:=]', 'to\\s+(?:the\\s+)?user', '\\bACCA', '\\bAccountKey']
    // "token e": the 7th byte fits `to  user`, the 6th only `token`.
    expect(check(tokens, 'token error')).toEqual({ bits: 0, masks: true })
    // "account ": ACCA ends after 4 bytes (any 5th to 8th), AccountKey needs its 8th to be k.
    expect(check(tokens, 'account re')).toEqual({ bits: 0, masks: true })
    expect(check(tokens, 'token = 1').bits).not.toBe(0)
    expect(check(tokens, 'to the user').bits).not.toBe(0)
    expect(check(tokens, 'AccountKey=').bits).not.toBe(0)
  })

  it('keep every group\'s masks: a byte passes a position\'s mask exactly when some bit allows it', () => {
    for (const t of Object.values(COMPILED)) {
      const tb = buildTables(splitAlternatives(t.anchor.source), true)!
      const ref = referenceTables(splitAlternatives(t.anchor.source), true)!
      const n = tb.groups.length
      expect(ref.sources.length).toBe(n)
      const ms = [ref.m3, ref.m4, ref.m5, ref.m6, ref.m7, ref.m8]
      let differ = 0
      for (let d = 0; d < 6; d++) {
        for (let i = 257; i < n * 257; i++) {
          if ((tb.tbits[d * n * 257 + i] !== 0) !== (ms[d]![i] !== 0))
            differ++
        }
      }
      for (let g = 1; g < n; g++) {
        if (
          (tb.tpw[g * 4 + 1] !== 0) !== ((tb.pw[g]! & 1) !== 0)
          || (tb.tpw[g * 4 + 2] !== 0) !== ((tb.pw[g]! & 2) !== 0)
        ) {
          differ++
        }
      }
      expect(differ).toBe(0)
    }
  })
})
