import type { ManifestSkill } from '../../src/core/types'
import type { DiscoveryIndex } from '../../src/runtime/discovery-index'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromBase64 } from '../../src/runtime/codec'
import { findSkills } from '../../src/runtime/find'
import { buildDiscoveryIndex } from '../../src/search'
import { sampleSkills, tempDir } from './helpers'

/*
 * The README's worked example (a sentence-embedding model plugged in through `embed`), with a deterministic
 * stand-in for the model: each dimension is a concept, and a text's vector counts the concept's words in it.
 * The query words below appear in no skill, and the index is built without bridging vocabulary, so only the
 * embedding can connect them.
 */
const CONCEPTS = [
  ['invoice', 'bill', 'receipt', 'supplier', 'owe'],
  ['postgres', 'schema', 'table', 'column', 'database', 'spreadsheet-like'],
  ['kubernetes', 'deployment', 'container', 'pods', 'cluster', 'ship'],
  ['changelog', 'release', 'commits', 'tag', 'announce'],
]

function standIn(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z-]+/g) ?? []
  return CONCEPTS.map(concept => words.filter(w => concept.includes(w)).length + 0.01)
}

/** The shape of a real model's wrapper: batched and asynchronous at build time. */
async function embedBatch(texts: string[]): Promise<number[][]> {
  return texts.map(standIn)
}

let skills: ManifestSkill[]
let index: DiscoveryIndex
const t = tempDir()

beforeAll(async () => {
  skills = await sampleSkills(t.dir)
  index = await buildDiscoveryIndex(skills, { embed: embedBatch, synonyms: new Map() })
})
afterAll(() => t.cleanup())

describe('a sentence-embedding model through embed', () => {
  it('stores the model\'s skill vectors and finds a skill by meaning alone', () => {
    expect(index.embedding).toEqual({ model: 'custom', dim: 4 })
    // The vectors are in the head: one int8 per dimension and skill.
    expect(fromBase64(index.vectors).length).toBe(4 * skills.length)
    const query = 'what do we owe, from this bill'
    expect(findSkills(index, query, { k: 2, chunks: 0, semanticWeight: 0 })).toEqual([])
    const found = findSkills(index, query, { k: 2, chunks: 0, queryVector: standIn(query) })
    expect(found.map(m => m.name)).toEqual(['pdf-invoice-extraction'])
    // A synchronous query embedder gives the same answer as a precomputed query vector.
    expect(findSkills(index, query, { k: 2, chunks: 0, embed: standIn })).toEqual(found)
  })

  it('keeps the lexical ranking for a query the index covers, and ignores a vector of another size', () => {
    const query = 'roll out a new container image to kubernetes'
    const lexical = findSkills(index, query, { k: 1, chunks: 0, semanticWeight: 0 })
    expect(lexical.map(m => m.name)).toEqual(['k8s-rollout'])
    expect(findSkills(index, query, { k: 1, chunks: 0, queryVector: standIn(query) }).map(m => m.name))
      .toEqual(['k8s-rollout'])
    // A vector of the wrong dimension is no vector: the lexical answer alone.
    expect(findSkills(index, query, { k: 1, chunks: 0, queryVector: [1, 0] })).toEqual(lexical)
    expect(findSkills(index, 'what do we owe, from this bill', { k: 2, chunks: 0, queryVector: [1, 0] })).toEqual([])
  })
})
