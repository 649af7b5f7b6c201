import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tuningHalf } from '../../bench/discovery'

// The committed queries of the realistic discovery set (bench/discovery-corpus.ts copies the skills they name).
const file = path.join(__dirname, '..', '..', 'bench', 'discovery-queries.json')
const queries = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<Record<string, unknown>>

describe('the realistic discovery queries', () => {
  it('are at least 300, a third of them sharing no word with their skill, each labelled once', () => {
    expect(queries.length).toBe(384)
    for (const q of queries) {
      expect(Object.keys(q).sort()).toEqual(['expected', 'overlap', 'query'])
      expect(q.expected).toMatch(/^[a-z0-9][a-z0-9-]*$/)
      expect(['none', 'partial']).toContain(q.overlap)
    }
    const none = queries.filter(q => q.overlap === 'none').length
    expect(none).toBe(128)
    expect(new Set(queries.map(q => String(q.query).toLowerCase())).size).toBe(queries.length)
    expect(new Set(queries.map(q => q.expected)).size).toBe(257)
  })

  it('split into halves of equal size and equal shares of each class', () => {
    const half = tuningHalf(queries as never)
    const count = (tuning: boolean, overlap: string) =>
      queries.filter((q, i) => half[i] === tuning && q.overlap === overlap).length
    expect([count(true, 'none'), count(false, 'none'), count(true, 'partial'), count(false, 'partial')])
      .toEqual([64, 64, 128, 128])
  })
})
