import type { SkillsManifest } from '../core/types'
import type { DiscoveryIndex } from './discovery-index'
import type { FindSkillsOptions, SkillMatch } from './find-types'
import { attachChunks, findSkills, missingChunkRecords, rankSkills } from './find'
import { takeMissingParts } from './find-prepared'
import { missingPostingShards } from './find-query'

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
 * terms, ranks the skills once, loads the chunk records of the ranked skills and matches their
 * chunks: the result is the one the complete index gives, having loaded only what this query
 * touched. Whatever else turns out missing (feedback reads records and shards while ranking, a
 * load that failed) is loaded and the query answered again until nothing is.
 */
export async function findSkillsLoading(
  source: SkillsManifest | DiscoveryIndex,
  query: string,
  options: FindSkillsOptions | undefined,
  load: (parts: IndexParts) => Promise<void>,
): Promise<SkillMatch[]> {
  const shards = missingPostingShards(source, query)
  if (shards.length)
    await load({ postings: shards, chunks: [] })
  takeMissingParts(source)
  const ranking = rankSkills(source, query, options)
  if (!ranking)
    return []
  let missing = takeMissingParts(source)
  if (missing.postings.length === 0 && missing.chunks.length === 0) {
    const records = missingChunkRecords(ranking)
    if (records.length)
      await load({ postings: [], chunks: records })
    const result = attachChunks(ranking)
    missing = takeMissingParts(source)
    if (missing.postings.length === 0 && missing.chunks.length === 0)
      return result
  }
  for (let round = 0; ; round++) {
    await load(missing)
    takeMissingParts(source)
    const result = findSkills(source, query, options)
    missing = takeMissingParts(source)
    if ((missing.postings.length === 0 && missing.chunks.length === 0) || round === MAX_ROUNDS)
      return result
  }
}
