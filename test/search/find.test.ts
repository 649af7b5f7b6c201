import type { ManifestSkill, SkillsManifest } from '../../src/core/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isDiscoveryIndex } from '../../src/runtime/discovery-index'
import { findSkills, warmDiscovery } from '../../src/runtime/find'
import { stem } from '../../src/runtime/stem'
import { analyze } from '../../src/runtime/text'
import { buildDiscoveryIndex } from '../../src/search'
import { stemSynonyms } from '../../src/search/synonyms'
import { indexedManifest, sampleSkills, skillMd, tempDir, writeSkill } from './helpers'

let skills: ManifestSkill[]
let manifest: SkillsManifest
const t = tempDir()

beforeAll(async () => {
  skills = await sampleSkills(t.dir)
  manifest = await indexedManifest(skills)
})
afterAll(() => t.cleanup())

describe('analyser', () => {
  it('stems like Porter2 and drops stopwords', () => {
    expect(
      ['caresses', 'ponies', 'relational', 'migrations', 'migrating', 'running', 'generalization', 'hopeful'].map(stem),
    ).toEqual(['caress', 'poni', 'relat', 'migrat', 'migrat', 'run', 'general', 'hope'])
    // Families the original Porter split: a y after a vowel stays a consonant, `li` endings go, `logi` -> `log`.
    const families = [
      ['deploy', 'deploying', 'deployment', 'deployed'],
      ['quick', 'quickly'],
      ['month', 'monthly'],
      ['biology', 'biological'],
      ['enjoy', 'enjoying'],
    ]
    for (const words of families) expect(new Set(words.map(stem)), words.join()).toHaveProperty('size', 1)
    // Snowball's own vocabulary: irregular words, short words, R1 exceptions.
    const snowball = {
      consolingly: 'consol',
      knightly: 'knight',
      skies: 'sky',
      dying: 'die',
      news: 'news',
      cries: 'cri',
      ties: 'tie',
      gaps: 'gap',
      gas: 'gas',
      hoping: 'hope',
      hopping: 'hop',
      agreed: 'agre',
      happy: 'happi',
      saying: 'say',
      communication: 'communic',
      generously: 'generous',
      succeeding: 'succeed',
    }
    expect(Object.fromEntries(Object.keys(snowball).map(w => [w, stem(w)]))).toEqual(snowball)
    expect(analyze('How do I roll back the getUserId migrations?')).toEqual(['roll', 'back', 'user', 'id', 'migrat'])
  })
})

describe('buildDiscoveryIndex', () => {
  it('is compact JSON (strings, no float arrays) and deterministic', async () => {
    const index = manifest.index as Record<string, unknown>
    expect(isDiscoveryIndex(index)).toBe(true)
    expect(index.skills).toEqual(['pdf-invoice-extraction', 'postgres-migrations', 'k8s-rollout', 'release-notes'])
    for (const key of ['terms', 'termStats', 'vectors']) expect(typeof index[key]).toBe('string')
    // Postings shards and per-skill chunk records: strings an app can load one by one.
    for (const key of ['postings', 'chunks'])
      expect((index[key] as unknown[]).every(v => typeof v === 'string')).toBe(true)
    expect((index.chunks as string[]).length).toBe(4)
    expect(JSON.stringify(index)).not.toMatch(/\d\.\d{5,}/)
    expect(JSON.stringify(await buildDiscoveryIndex(skills))).toBe(JSON.stringify(index))
  })

  it('uses a custom embedding function when given one', async () => {
    const calls: number[] = []
    const embed = (texts: string[]) => {
      calls.push(texts.length)
      return texts.map(text => [text.includes('invoice') ? 1 : 0, text.includes('Kubernetes') ? 1 : 0, 0.1])
    }
    const index = await buildDiscoveryIndex(skills, { embed })
    expect(index.embedding).toEqual({ model: 'custom', dim: 3 })
    expect(calls.reduce((a, b) => a + b, 0)).toBeGreaterThan(skills.length)
    // The query vector comes from the same model at runtime.
    const hits = findSkills(index, 'zzz', { k: 1, embed: () => [0, 1, 0] })
    expect(hits.map(h => h.name)).toEqual(['k8s-rollout'])
    await expect(
      buildDiscoveryIndex(skills, { embed: texts => texts.map((_, i) => (i % 2 ? [1, 2] : [1])) }),
    ).rejects.toThrow(/constant dimension/)
  })
})

describe('findSkills', () => {
  it('ranks the right skill first and returns its matching chunks with text', () => {
    const hits = findSkills(manifest, 'how do I add a column to a big postgres table without locking it, then deploy', {
      k: 2,
    })
    expect(hits.map(h => h.name)).toEqual(['postgres-migrations', 'k8s-rollout'])
    expect(hits[0].score).toBeGreaterThan(hits[1].score)
    expect(hits[0].chunks.length).toBeGreaterThan(0)
    for (const c of hits[0].chunks) {
      expect(typeof c.text).toBe('string')
      expect(c.text!.length).toBeLessThanOrEqual(900)
    }
    expect(hits[0].chunks[0].text).toMatch(/column|lock/i)
  })

  it('finds skills through body, references and examples', () => {
    expect(findSkills(manifest, 'liveness restarts stuck pods', { k: 1 })[0].name).toBe('k8s-rollout')
    expect(findSkills(manifest, 'VAT and due date', { k: 1 })[0].name).toBe('pdf-invoice-extraction')
  })

  it('bridges vocabulary the skill never uses (WordNet synonyms at build time)', () => {
    // "bill" appears nowhere in the invoice skill; WordNet makes it a synonym of "invoice".
    const text = JSON.stringify(skills.find(s => s.name === 'pdf-invoice-extraction'))
    expect(text).not.toMatch(/\bbill/i)
    expect(findSkills(manifest, 'bill', { k: 1 }).map(h => h.name)).toEqual(['pdf-invoice-extraction'])
  })

  it('bridges only queries whose own words the skills hold poorly', async () => {
    // Bridged skills are posted apart from the skills that hold the word.
    const terms = (manifest.index as { terms: string }).terms.split('\n')
    expect(terms).toContain('~bill')
    expect(terms).not.toContain('bill')
    expect(findSkills(manifest, 'bill', { k: 1, bridging: 0 })).toEqual([])
    const root = tempDir()
    try {
      const billing = await writeSkill(root.dir, 'billing-disputes', {
        'SKILL.md': skillMd(
          { name: 'billing-disputes', description: 'Answer a customer who disputes a bill.' },
          '# Steps\n',
        ),
      })
      const index = await buildDiscoveryIndex([...skills, billing])
      // One skill holds the query's only word: the bridge to the invoice skill is left out...
      expect(findSkills(index, 'bill', { k: 3 }).map(h => h.name)).toEqual(['billing-disputes'])
      // ...unless bridging is asked for whatever the coverage.
      expect(findSkills(index, 'bill', { k: 3, bridging: Infinity }).map(h => h.name)).toEqual([
        'billing-disputes',
        'pdf-invoice-extraction',
      ])
    }
    finally {
      root.cleanup()
    }
  })

  it('orders the lexical best k by the skill vectors at the end of their chunk records', () => {
    // The hashing embedding's skill vectors are not in the head (a first query decodes k of them, not every skill's).
    expect((manifest.index as { vectors: string }).vectors).toBe('')
    const query = 'roll back a deployment when errors spike'
    const fused = findSkills(manifest, query, { k: 4, chunks: 0 })
    const lexical = findSkills(manifest, query, { k: 4, chunks: 0, semanticWeight: 0 })
    expect(fused.map(m => m.name).sort()).toEqual(lexical.map(m => m.name).sort())
    // Same skills; the cosine adds to the lexical score of at least one (and never lowers one).
    fused.forEach(m => expect(m.score).toBeGreaterThanOrEqual(lexical.find(l => l.name === m.name)!.score))
    expect(fused.some(m => m.score > lexical.find(l => l.name === m.name)!.score)).toBe(true)
  })

  it('respects k and chunks, and is deterministic', () => {
    expect(findSkills(manifest, 'release', { k: 0 })).toEqual([])
    expect(findSkills(manifest, 'git tags changelog', { k: 1, chunks: 0 })).toEqual([
      { name: 'release-notes', score: expect.any(Number), chunks: [] },
    ])
    expect(findSkills(manifest, 'deploy images', { k: 3 })).toEqual(findSkills(manifest, 'deploy images', { k: 3 }))
  })

  it('never throws on bad input and returns [] without a usable index', () => {
    expect(findSkills(manifest, '', { k: 3 })).toEqual([])
    expect(findSkills(manifest, 'x'.repeat(100_000), { k: 3 })).toEqual([])
    expect(findSkills(manifest, 42 as unknown as string)).toEqual([])
    expect(findSkills({ ...manifest, index: undefined }, 'invoice')).toEqual([])
    expect(findSkills({ ...manifest, index: { ...(manifest.index as object), analyzer: 999 } }, 'invoice')).toEqual([])
    // An index stemmed by the original Porter stemmer (analyzer 1) is refused, not misread.
    expect(findSkills({ ...manifest, index: { ...(manifest.index as object), analyzer: 1 } }, 'invoice')).toEqual([])
    // An index of the format before bridged terms were posted apart (discovery@4) is refused too.
    const v4 = { ...(manifest.index as object), format: 'unplugin-skills/discovery@4' }
    expect(isDiscoveryIndex(v4)).toBe(false)
    expect(findSkills({ ...manifest, index: v4 }, 'invoice')).toEqual([])
    const damaged = { ...(manifest.index as object), postings: '!!!not base64', chunks: 'AAAA', vectors: '' }
    expect(() => findSkills(damaged as never, 'invoice pdf', { k: 3 })).not.toThrow()
    expect(warmDiscovery(null as never)).toBe(false)
  })

  it('indexes without the synonym table when given an empty one', async () => {
    const index = await buildDiscoveryIndex(skills, { synonyms: stemSynonyms({}) })
    expect(findSkills(index, 'bill', { k: 1 })).toEqual([])
  })
})
