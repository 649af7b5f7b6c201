import type { DiscoveryIndex } from '../../src/runtime/discovery-index'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findSkills } from '../../src/runtime/find'
import { buildDiscoveryIndex } from '../../src/search'
import { bridgingTable, DEFAULT_TIER_WEIGHTS, SHIPPED_TIERS, SYNONYM_TIERS } from '../../src/search/synonyms'
import { skillMd, tempDir, writeSkill } from './helpers'

// The candidate methods the discovery bench measures beside the shipped model (bench/discovery.ts ABLATIONS).

describe('wordNet relation tiers', () => {
  it('ships the first tiers and reads the others from the development file only when weighted', async () => {
    expect(SYNONYM_TIERS.slice(0, SHIPPED_TIERS)).toEqual(['synonym', 'related', 'gloss'])
    expect(DEFAULT_TIER_WEIGHTS.slice(SHIPPED_TIERS).every(w => w === 0)).toBe(true)
    // "layout" and "configuration" are both kinds of "arrangement": siblings, not synonyms.
    const shipped = await bridgingTable(DEFAULT_TIER_WEIGHTS, 0, 1)
    expect(shipped.get('layout')?.has('configur')).toBe(false)
    const siblings = await bridgingTable([0, 0, 0, 0, 0.5], 0, 1)
    expect(siblings.get('layout')?.get('configur')).toBe(0.5)
    expect(siblings.get('layout')?.has('design')).toBe(false)
  })
})

describe('pseudo-relevance feedback', () => {
  const t = tempDir()
  let index: DiscoveryIndex
  beforeAll(async () => {
    const skills = await Promise.all([
      writeSkill(t.dir, 'consumer-lag', {
        'SKILL.md': skillMd(
          { name: 'consumer-lag', description: 'Diagnose growing backlog on queue readers.' },
          '# Steps\n1. Compare offsets per partition.\n2. Rebalance the consumer group.\n',
        ),
      }),
      writeSkill(t.dir, 'partition-planning', {
        'SKILL.md': skillMd(
          { name: 'partition-planning', description: 'Choose partition counts and keys for a consumer group.' },
          '# Steps\n1. Estimate offsets throughput per partition.\n',
        ),
      }),
      writeSkill(t.dir, 'invoice-totals', {
        'SKILL.md': skillMd(
          { name: 'invoice-totals', description: 'Cross-check invoice totals against line items.' },
          '# Steps\n1. Sum the lines.\n',
        ),
      }),
    ])
    index = await buildDiscoveryIndex(skills, { synonyms: new Map() })
  })
  afterAll(() => t.cleanup())

  it('is off by default; one feedback skill lends its vocabulary to the query', () => {
    // Only consumer-lag says "backlog": without feedback, nothing else matches.
    const plain = findSkills(index, 'backlog', { k: 3, chunks: 0, semanticWeight: 0 })
    expect(plain.map(m => m.name)).toEqual(['consumer-lag'])
    const fed = findSkills(index, 'backlog', { k: 3, chunks: 0, semanticWeight: 0, feedbackSkills: 1 })
    expect(fed.map(m => m.name)).toEqual(['consumer-lag', 'partition-planning'])
    expect(fed[1].score).toBeLessThan(fed[0].score)
    expect(findSkills(index, 'backlog', { k: 3, chunks: 0, semanticWeight: 0, feedbackSkills: 1 })).toEqual(fed)
  })
})
