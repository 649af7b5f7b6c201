import type { ManifestSkill } from '../../src/core/types'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findSkills } from '../../src/runtime/find'
import { stem } from '../../src/runtime/stem'
import { analyze, ANALYZER_VERSION, tokenize } from '../../src/runtime/text'
import { buildDiscoveryIndex } from '../../src/search'
import { addNeighbours, loadSynonymData, stemSynonyms } from '../../src/search/synonyms'
import { indexedManifest, sampleSkills, skillMd, tempDir, writeSkill } from './helpers'

let skills: ManifestSkill[]
const t = tempDir()
beforeAll(async () => {
  skills = await sampleSkills(t.dir)
})
afterAll(() => t.cleanup())

describe('bridging data files', () => {
  it('are stemmed with the analyzer the index uses (regenerated when it changes)', async () => {
    for (const name of ['discovery-synonyms.json', 'discovery-relations.json', 'discovery-neighbours.json']) {
      const head = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'data', name), 'utf8').slice(0, 2000)
      expect(/"analyzer":(\d+)/.exec(head)?.[1], name).toBe(String(ANALYZER_VERSION))
    }
    // Keys are this stemmer's stems: `deploy` (Porter2), where the original Porter made `deploi` of `deploying`.
    const words = await loadSynonymData()
    expect(stem('deploying')).toBe('deploy')
    expect(words.deploy).toBeTypeOf('string')
    expect(words.deploi).toBeUndefined()
  })
})

describe('neighbour table', () => {
  it('keeps neighbours at or above the cosine floor, scaled, strongest weight per stem', () => {
    const table = addNeighbours(
      { outag: 'blackout 81 disrupt 77 glitch 60', deploi: 'rollout 70 outag 90 deploi 99' },
      0.5,
      0.65,
    )
    expect([...table.get('outag')!]).toEqual([
      ['blackout', 0.405],
      ['disrupt', 0.385],
    ])
    // A stem is never its own neighbour.
    expect([...table.get('deploi')!]).toEqual([
      ['rollout', 0.35],
      ['outag', 0.45],
    ])
    // Merging into a WordNet table keeps the larger weight.
    const merged = addNeighbours({ migrat: 'move 80' }, 1, 0.5, stemSynonyms({ migration: 'move|' }, [0.5, 0, 0]))
    expect(merged.get('migrat')!.get('move')).toBe(0.8)
  })

  it('bridges a query word only the neighbour table knows', async () => {
    const table = addNeighbours({ outag: 'blackout 81' }, 1, 0.5)
    const root = tempDir()
    try {
      const outage = await writeSkill(root.dir, 'outage-comms', {
        'SKILL.md': skillMd(
          { name: 'outage-comms', description: 'Tell customers about an outage.' },
          '# Steps\n1. Post on the status page.\n',
        ),
      })
      const index = await buildDiscoveryIndex([...skills, outage], { synonyms: table })
      expect(findSkills(index, 'blackout', { k: 1 }).map(m => m.name)).toEqual(['outage-comms'])
      const plain = await buildDiscoveryIndex([...skills, outage], { synonyms: new Map() })
      expect(findSkills(plain, 'blackout', { k: 1 })).toEqual([])
    }
    finally {
      root.cleanup()
    }
  })
})

describe('index build', () => {
  it('keeps terms of a kind weighted 0 in the vocabulary, once', async () => {
    const index = await buildDiscoveryIndex(skills, {
      tuning: { fieldWeights: { summary: 2.5, trigger: 0.3, instructions: 1, reference: 0, example: 0 } },
      synonyms: new Map(),
    })
    const terms = index.terms.split('\n')
    expect(terms).toContain('vat')
    expect(new Set(terms).size).toBe(terms.length)
  })

  it('decodes each skill\'s chunks on its own, for every skill position', async () => {
    const manifest = await indexedManifest(skills)
    const probes: Array<[string, string, string]> = [
      ['supplier due date VAT', 'pdf-invoice-extraction', 'references/fields.md'],
      ['ACCESS EXCLUSIVE blocks reads', 'postgres-migrations', 'references/locks.md'],
      ['liveness restarts stuck pods', 'k8s-rollout', 'references/probes.md'],
      ['breaking drop Node 16', 'release-notes', 'examples/notes.md'],
    ]
    for (const [query, name, source] of probes) {
      const [top] = findSkills(manifest, query, { k: 1, chunks: 1 })
      expect(top.name).toBe(name)
      expect(top.chunks[0].source).toBe(source)
      const doc = [
        ...skills.find(s => s.name === name)!.tree.references,
        ...skills.find(s => s.name === name)!.tree.examples,
      ].find(d => d.path === source)!
      expect(top.chunks[0].text).toBe(doc.text!.slice(top.chunks[0].start, top.chunks[0].end))
    }
  })

  it('tokenises ASCII text (fast path) exactly like the Unicode path', () => {
    expect(tokenize('getUserID a1B2C XMLHttpRequest snake_case v2 x 9 the')).toEqual([
      'user',
      'id',
      'a1',
      'b2',
      'xmlhttp',
      'request',
      'snake',
      'case',
      'v2',
      '9',
    ])
    // A non-ASCII character anywhere sends the text through the Unicode path: same tokens for the ASCII words.
    expect(tokenize('getUserID a1B2C XMLHttpRequest snake_case v2 x 9 the café')).toEqual([
      'user',
      'id',
      'a1',
      'b2',
      'xmlhttp',
      'request',
      'snake',
      'case',
      'v2',
      '9',
      'café',
    ])
    expect(tokenize('a'.repeat(41))).toEqual([])
  })

  it('analyses the same text to the same terms on repeated calls (stem memo)', () => {
    const text = 'Migrations migrating migrated: relational generalization'
    expect(analyze(text)).toEqual(['migrat', 'migrat', 'migrat', 'relat', 'general'])
    expect(analyze(text)).toEqual(analyze(text))
  })
})
