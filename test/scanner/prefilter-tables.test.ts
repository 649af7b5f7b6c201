import { describe, expect, it } from 'vitest'
import { buildTables } from '../../src/scanner/finder-tables'
import type { FinderTables } from '../../src/scanner/finder-tables'
import { AST_TRIGGER } from '../../src/scanner/js/trigger'
import { splitAlternatives } from '../../src/scanner/prefilter'
import { COMPILED } from '../../src/scanner/text-scan'
import { referenceTables } from './prefilter-reference'
import type { ReferenceTables } from './prefilter-reference'

/** The new tables in the reference's shape: token lists become their sticky regexes' sources. */
function asReference(t: FinderTables, tokens: readonly string[], ignoreCase: boolean): ReferenceTables {
  const sources = (lists: number[][]): string[] => lists.map(l => new RegExp(l.map(k => tokens[k]).join('|') || '(?!)', ignoreCase ? 'iy' : 'y').source)
  return {
    pair: t.pair, last: t.last, pw: t.pw, m3: t.m3, m4: t.m4, m5: t.m5, m6: t.m6, m7: t.m7, m8: t.m8, filter: t.filter,
    sources: sources(t.groups), unitTable: t.unitTable, unitM3: t.unitM3, unitM4: t.unitM4, unitSources: sources(t.unitGroups),
  }
}

/** Names of the tables that differ (an exact, element by element comparison). */
function differences(a: ReferenceTables, b: ReferenceTables): string[] {
  const out: string[] = []
  for (const k of Object.keys(a) as Array<keyof ReferenceTables>) {
    const x = a[k]
    const y = b[k]
    const same = Array.isArray(x) ? JSON.stringify(x) === JSON.stringify(y) : Buffer.from((x as Uint8Array).buffer, (x as Uint8Array).byteOffset, (x as Uint8Array).byteLength).equals(Buffer.from((y as Uint8Array).buffer, (y as Uint8Array).byteOffset, (y as Uint8Array).byteLength)) && (x as Uint8Array).constructor === (y as Uint8Array).constructor
    if (!same) out.push(k)
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
    expect(lists.size).toBe(9)
    // Every list was analysed (none fell back), with real groups to compare.
    for (const [tokens, ignoreCase] of lists.values()) expect(compare(tokens, ignoreCase)).toBeGreaterThan(20)
  })

  it('equal it for seeded subsets of the tokens, with and without case folding', () => {
    const pool = [...new Set([...Object.values(COMPILED).flatMap(t => splitAlternatives(t.anchor.source)), ...splitAlternatives(AST_TRIGGER.source)])]
    let seed = 11
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF; return seed / 0x7FFFFFFF }
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
