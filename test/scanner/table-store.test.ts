import type { FinderTables } from '../../src/scanner/finder/tables'
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { literalTestFinders } from '../../src/scanner/finder'
import { buildBuiltinTables, builtinFinders } from '../../src/scanner/finder/builtin'
import { decodeTableStore, encodeTableStore, shippedStore, STORE_FILE } from '../../src/scanner/finder/store'
import { buildTables, newTables } from '../../src/scanner/finder/tables'
import { AST_TRIGGER } from '../../src/scanner/js/trigger'
import { FOREIGN_WORD_TOKENS } from '../../src/scanner/rules/foreign-prose'
import { SENSITIVE_RE, SOURCE_HINT } from '../../src/scanner/rules/leak-sources'
import { SKILL_HIT_TOKENS } from '../../src/scanner/rules/skill-hits'
import { COMPILED } from '../../src/scanner/text-scan'

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist')

const ARRAYS = [
  'pair',
  'last',
  'pw',
  'm3',
  'm4',
  'filter',
  'tpw',
  'tbits',
  'bitTokens',
  'unitTable',
  'unitM3',
  'unitM4',
] as const

/** Names of the tables that differ between two builds (element by element, same array types). */
function differences(a: FinderTables, b: FinderTables): string[] {
  const out: string[] = ARRAYS.filter((k) => {
    const x = a[k]
    const y = b[k]
    return (
      x.constructor !== y.constructor
      || !Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength))
    )
  })
  if (JSON.stringify(a.groups) !== JSON.stringify(b.groups))
    out.push('groups')
  if (JSON.stringify(a.unitGroups) !== JSON.stringify(b.unitGroups))
    out.push('unitGroups')
  return out
}

describe('scanner table store', () => {
  it('lists every finder the scanner builds', () => {
    // A finder stands for the regex of its tokens: the anchors each language scans with, and the AST trigger.
    const used = new Set<string>()
    for (const t of Object.values(COMPILED)) {
      for (const re of [t.anchor, t.anchorAst]) used.add(`${re.flags}:${re.source}`)
    }
    used.add(`:${AST_TRIGGER.source}`)
    used.add(`gi:${new RegExp(SKILL_HIT_TOKENS.join('|')).source}`)
    for (const f of literalTestFinders())
      used.add(`${f.ignoreCase ? 'gi' : ''}:${new RegExp(f.tokens.join('|')).source}`)
    used.add(`:${new RegExp(FOREIGN_WORD_TOKENS.join('|')).source}`)
    // The regexes the rules test whole texts with, by `literalTest`, among them the two credential hints.
    const literal = literalTestFinders().map(f => new RegExp(f.tokens.join('|'), f.ignoreCase ? 'i' : '').source)
    expect(literal).toEqual(expect.arrayContaining([SOURCE_HINT.source, SENSITIVE_RE.source]))
    const listed = builtinFinders().map(f => `${f.ignoreCase ? 'gi' : ''}:${new RegExp(f.tokens.join('|')).source}`)
    expect(listed.length).toBe(26)
    expect(new Set(listed)).toEqual(used)
  })

  it('gives back the tables it was given, byte for byte, and nothing else', () => {
    const built = buildBuiltinTables()
    const bytes = encodeTableStore(built)
    // Deterministic: the same tables give the same file.
    expect(Buffer.from(encodeTableStore(buildBuiltinTables())).equals(Buffer.from(bytes))).toBe(true)
    const store = decodeTableStore(bytes)!
    expect(store.size).toBe(26)
    for (const { tokens, ignoreCase, tables } of built) {
      const sizes: number[] = []
      const got = store.get(tokens, ignoreCase, (groups) => {
        sizes.push(groups)
        return newTables(groups)
      })!
      expect(sizes).toEqual([tables.pw.length])
      expect(differences(got, tables)).toEqual([])
    }
    const [first] = built
    expect(store.get(first!.tokens, !first!.ignoreCase, newTables)).toBeUndefined()
    expect(store.get(first!.tokens.slice(1), first!.ignoreCase, newTables)).toBeUndefined()
    expect(store.get(['constructor'], true, newTables)).toBeUndefined()
  })

  it('refuses bytes that are not a store, and a damaged finder fails loudly (the caller builds it instead)', () => {
    expect(decodeTableStore(new Uint8Array(0))).toBeNull()
    expect(decodeTableStore(Buffer.from('not a table store at all, just text'))).toBeNull()
    const one = buildBuiltinTables().slice(0, 1)
    const bytes = Buffer.from(encodeTableStore(one))
    const wrongVersion = Buffer.from(bytes)
    // Another version number after the magic's name.
    wrongVersion[wrongVersion.indexOf('scanner-tables/') + 'scanner-tables/'.length] = '9'.charCodeAt(0)
    expect(decodeTableStore(wrongVersion)).toBeNull()
    const badIndex = Buffer.from(bytes)
    badIndex[badIndex.indexOf('{')] = 0x20 + 1
    expect(decodeTableStore(badIndex)).toBeNull()
    const truncated = decodeTableStore(bytes.subarray(0, bytes.length - 100))!
    expect(() => truncated.get(one[0]!.tokens, one[0]!.ignoreCase, newTables)).toThrow()
  })

  it('is not read when the scanner runs from its sources', () => {
    expect(shippedStore()).toBeNull()
  })

  it('ships in dist/ with the tables these sources build', () => {
    // `npm test` builds first (the bundler tests import dist/): a store from other sources fails here.
    const store = decodeTableStore(fs.readFileSync(path.join(dist, STORE_FILE)))!
    expect(store).not.toBeNull()
    expect(store.size).toBe(26)
    for (const { tokens, ignoreCase } of builtinFinders()) {
      const got = store.get(tokens, ignoreCase, newTables)
      expect(got, tokens.join('|').slice(0, 80)).toBeDefined()
      expect(differences(got!, buildTables(tokens, ignoreCase)!)).toEqual([])
    }
  })
})
