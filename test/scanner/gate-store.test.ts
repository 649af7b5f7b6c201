import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { builtinPatterns } from '../../src/scanner/finder/builtin'
import {
  conditionsKey,
  decodeGateStore,
  encodeGateStore,
  GATE_FILE,
  shippedConditions,
} from '../../src/scanner/finder/gate-store'
import { conditionsOf } from '../../src/scanner/finder/gates'

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist')

describe('scanner gate store', () => {
  it('gives back the conditions of every built-in line pattern, from a deterministic file', () => {
    const patterns = builtinPatterns()
    expect(patterns.length).toBeGreaterThan(150)
    const text = encodeGateStore(patterns)
    expect(encodeGateStore([...patterns].reverse())).toBe(text)
    const store = decodeGateStore(text)!
    expect(store.size).toBe(new Set(patterns.map(p => conditionsKey(p.re, p.lineGate))).size)
    for (const p of patterns) expect(store.get(conditionsKey(p.re, p.lineGate))).toEqual(conditionsOf(p.re, p.lineGate))
    // The line gate and the flags are part of the key: the same regex without them is another pattern.
    const gated = patterns.find(p => p.lineGate)!
    expect(store.has(conditionsKey(gated.re))).toBe(false)
    expect(store.has(conditionsKey(new RegExp(gated.re.source, `${gated.re.flags}m`), gated.lineGate))).toBe(false)
  })

  it('derives what the scan tests before a pattern: classes and literals', () => {
    // Both cases of each letter the match needs (the regex ignores case), and the pipe.
    expect(conditionsOf(/\bcurl\b[^|\n]*\|\s*(?:ba)?sh\b/i)).toEqual({
      requires: ['\\x43\\x63', '\\x55\\x75', '\\x52\\x72', '\\x4c\\x6c', '\\x7c', '\\x53\\x73', '\\x48\\x68'],
      gate: { all: ['curl', '|', 'sh'] },
    })
    expect(conditionsOf(/\bchmod\s+777/, /world/i)).toEqual({
      requires: ['\\x63', '\\x68', '\\x6d', '\\x6f', '\\x64', '\\x37'],
      gate: { all: [{ all: ['chmod', '777'] }, 'world'] },
    })
  })

  it('refuses text that is not a store of this version (the scanner then derives every condition)', () => {
    const good = encodeGateStore(builtinPatterns().slice(0, 3))
    expect(decodeGateStore(good)!.size).toBe(3)
    expect(decodeGateStore('')).toBeNull()
    expect(decodeGateStore('not json')).toBeNull()
    expect(decodeGateStore('null')).toBeNull()
    expect(decodeGateStore(good.replace('scanner-gates/1', 'scanner-gates/9'))).toBeNull()
    const data = JSON.parse(good) as { magic: string, entries: unknown[][] }
    const broken = (entry: unknown): string => JSON.stringify({ ...data, entries: [entry] })
    expect(decodeGateStore(broken(['k', { requires: 'x', gate: null }]))).toBeNull()
    expect(decodeGateStore(broken(['k', { requires: [], gate: { all: [1] } }]))).toBeNull()
    expect(decodeGateStore(broken(['k', { requires: [], gate: { all: ['a'], any: ['b'] } }]))).toBeNull()
    expect(decodeGateStore(broken(['k']))).toBeNull()
    expect(decodeGateStore(broken(['k', { requires: [], gate: { any: ['a', { all: ['b'] }] } }]))!.get('k')).toEqual({
      requires: [],
      gate: { any: ['a', { all: ['b'] }] },
    })
  })

  it('is not read when the scanner runs from its sources', () => {
    const [p] = builtinPatterns()
    expect(shippedConditions(p!.re, p!.lineGate)).toBeUndefined()
  })

  it('ships in dist/ with the conditions these sources derive', () => {
    // `npm test` builds first (the bundler tests import dist/): a file from other sources fails here.
    expect(fs.readFileSync(path.join(dist, GATE_FILE), 'utf8')).toBe(encodeGateStore(builtinPatterns()))
  })
})
