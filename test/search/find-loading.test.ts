import type { ManifestSkill, SkillsManifest } from '../../src/core/types'
import type { DiscoveryIndex } from '../../src/runtime/discovery-index'
import type { IndexParts } from '../../src/runtime/find-loading'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findSkills } from '../../src/runtime/find'
import { findSkillsLoading } from '../../src/runtime/find-loading'
import { indexedManifest, sampleSkills, tempDir } from './helpers'

let skills: ManifestSkill[]
let complete: SkillsManifest
const t = tempDir()

beforeAll(async () => {
  skills = await sampleSkills(t.dir)
  complete = await indexedManifest(skills)
})
afterAll(() => t.cleanup())

/**
 * The complete manifest with its index's postings and chunk records left out, and a loader filling them in (calls
 * recorded).
 */
function split(): { manifest: SkillsManifest, calls: IndexParts[], load: (parts: IndexParts) => Promise<void> } {
  const full = complete.index as DiscoveryIndex
  const index: DiscoveryIndex = { ...full, postings: [], chunks: [], inline: [] }
  const calls: IndexParts[] = []
  return {
    manifest: { ...complete, index },
    calls,
    load: async (parts) => {
      calls.push(parts)
      for (const i of parts.postings) index.postings[i] = full.postings[i]
      for (const s of parts.chunks) {
        index.chunks[s] = full.chunks[s]
        index.inline[s] = full.inline[s]
      }
    },
  }
}

const QUERIES = [
  'how do I add a column to a big postgres table without locking it',
  'git tags changelog',
  'roll back a deployment',
  'zzz unknown words',
]

describe('findSkillsLoading', () => {
  it('answers what findSkills answers over the complete index', async () => {
    for (const query of QUERIES) {
      for (const options of [undefined, { k: 2, chunks: 1 }, { chunks: 0 }, { feedbackSkills: 2 }]) {
        const { manifest, load } = split()
        expect(await findSkillsLoading(manifest, query, options, load)).toEqual(findSkills(complete, query, options))
      }
    }
  })

  it('loads the query\'s shards, then exactly the chunk records of its lexical candidates', async () => {
    const full = complete.index as DiscoveryIndex
    const { manifest, calls, load } = split()
    const query = 'deploy a release: git tags, a changelog and a postgres migration'
    const answer = await findSkillsLoading(manifest, query, { k: 2 }, load)
    expect(answer).toEqual(findSkills(complete, query, { k: 2 }))
    expect(answer.length).toBe(2)
    // The k + 1 best skills by lexical score alone: their records hold the vectors that rescore them.
    const candidates = findSkills(complete, query, { k: 3, chunks: 0, semanticWeight: 0 })
      .map(m => full.skills.indexOf(m.name))
      .sort((a, b) => a - b)
    expect(candidates.length).toBe(3)
    expect(calls).toEqual([
      { postings: [0], chunks: [] },
      { postings: [], chunks: candidates },
    ])
    // Asked again: everything it needs is there, nothing is loaded.
    expect(await findSkillsLoading(manifest, query, { k: 2 }, load)).toEqual(answer)
    expect(calls.length).toBe(2)
  })

  it('ends when parts never arrive: a bounded number of attempts, answers without what is missing', async () => {
    const { manifest, calls } = split()
    const answer = await findSkillsLoading(manifest, QUERIES[0], undefined, async (parts) => {
      calls.push(parts)
    })
    // Without postings no skill is a lexical candidate.
    expect(answer).toEqual([])
    // The query's shards, then the loop's 9 attempts (MAX_ROUNDS + 1).
    expect(calls.length).toBe(10)
    expect(calls[0]).toEqual({ postings: [0], chunks: [] })
  })

  it('answers with lexical scores and no chunks when chunk records never arrive', async () => {
    const { manifest, calls, load } = split()
    const answer = await findSkillsLoading(manifest, QUERIES[0], undefined, parts =>
      load({ postings: parts.postings, chunks: [] }))
    const lexical = findSkills(complete, QUERIES[0], { chunks: 0, semanticWeight: 0 })
    expect(answer.length).toBeGreaterThan(0)
    expect(answer).toEqual(lexical)
    // The query's shards, the candidates' records, then the loop's 9 attempts (MAX_ROUNDS + 1).
    expect(calls.length).toBe(11)
    expect(calls[0]).toEqual({ postings: [0], chunks: [] })
  })
})
