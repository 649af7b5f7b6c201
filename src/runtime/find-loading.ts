import type { SkillsManifest } from '../types'
import type { DiscoveryIndex } from './discovery-index'
import type { FindSkillsOptions, SkillMatch } from './find'
import { findSkills, missingPostingShards, takeMissingParts } from './find'

/** Parts of an index to load: postings shard numbers, and skill indexes whose chunk records are wanted. */
export interface IndexParts {
  postings: number[]
  chunks: number[]
}

/** Enough for any query: the query's shards, then feedback or answer chunk records and their shards. */
const MAX_ROUNDS = 8

/**
 * `findSkills` over an index shipped in parts (`virtual:skills-manifest`: a head, postings shards,
 * per-skill chunk records) that `load` adds to the index in place. Loads the shards of the query's
 * terms, answers, and while the answer needed parts that were missing, loads them and answers again:
 * the result is the one the complete index gives, having loaded only what this query touched.
 */
export async function findSkillsLoading(source: SkillsManifest | DiscoveryIndex, query: string, options: FindSkillsOptions | undefined, load: (parts: IndexParts) => Promise<void>): Promise<SkillMatch[]> {
  const shards = missingPostingShards(source, query)
  if (shards.length) await load({ postings: shards, chunks: [] })
  for (let round = 0; ; round++) {
    takeMissingParts(source)
    const result = findSkills(source, query, options)
    const missing = takeMissingParts(source)
    if ((missing.postings.length === 0 && missing.chunks.length === 0) || round === MAX_ROUNDS) return result
    await load(missing)
  }
}
