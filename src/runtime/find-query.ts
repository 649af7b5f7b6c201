import type { SkillsManifest } from '../core/types'
import type { DiscoveryIndex } from './discovery-index'
import type { Prepared } from './find-prepared'
import type { FindSkillsOptions } from './find-types'
import { BRIDGED_PREFIX } from './discovery-index'
import { getPrepared, idfOf, shardOf, termId } from './find-prepared'
import { HASH_EMBEDDING_MODEL, hashEmbed, normalize } from './hash-embed'
import { analyze } from './text'

/** Longest query analysed; beyond this a "query" is a document and costs time for nothing. */
const MAX_QUERY_CHARS = 4096

/** A query as the index sees it. */
export interface ParsedQuery {
  /** The query, cut at MAX_QUERY_CHARS. */
  text: string
  /** Term id -> count, for the query's terms the index knows. */
  terms: Map<number, number>
  /** The query's terms no skill holds itself (they still count for the hashing embedding). */
  unknown: string[]
  /**
   * The query's bridged terms (BRIDGED_PREFIX + term, see DiscoveryIndex): their ids, the id of the same
   * term's direct postings if any, and the query count.
   */
  bridged: Array<{ id: number, term: number | undefined, qtf: number }>
}

/** The query's terms, analysed as the index was (stemmed unless it was built without) and looked up. */
export function parseQuery(p: Prepared, query: string): ParsedQuery {
  const text = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query
  const terms = new Map<number, number>()
  const unknown: string[] = []
  const bridges = new Map<string, { id: number, term: number | undefined, qtf: number }>()
  for (const t of analyze(text, p.index.stemming !== false)) {
    const id = termId(p.terms, t)
    if (id === undefined)
      unknown.push(t)
    else terms.set(id, (terms.get(id) ?? 0) + 1)
    const known = bridges.get(t)
    const bridged = known ? known.id : termId(p.terms, BRIDGED_PREFIX + t)
    if (known)
      known.qtf++
    else if (bridged !== undefined)
      bridges.set(t, { id: bridged, term: id, qtf: 1 })
  }
  return { text, terms, unknown, bridged: [...bridges.values()] }
}

/** The postings shards a query's own terms fall in that are not loaded yet (loaded before a first pass). */
export function missingPostingShards(source: SkillsManifest | DiscoveryIndex, query: string): number[] {
  const p = getPrepared(source)
  if (!p || typeof query !== 'string')
    return []
  const missing = new Set<number>()
  const parsed = parseQuery(p, query)
  for (const id of [...parsed.terms.keys(), ...parsed.bridged.map(b => b.id)]) {
    if (typeof p.index.postings[shardOf(p, id)] !== 'string')
      missing.add(shardOf(p, id))
  }
  return [...missing].sort((a, b) => a - b)
}

/**
 * The query's unit vector: the caller's (`queryVector`, or `embed` of the query) for an index of a
 * custom model, else the hashing embedding of the query's terms weighted by IDF (unknown terms at
 * the highest IDF). Null when the index has no vectors or the caller's vector has the wrong size.
 */
export function queryVector(
  p: Prepared,
  query: ParsedQuery,
  options: Pick<FindSkillsOptions, 'queryVector' | 'embed'>,
): Float32Array | null {
  if (p.dim === 0)
    return null
  let raw: ArrayLike<number> | undefined = options.queryVector
  if (!raw && options.embed)
    raw = options.embed(query.text)
  if (raw)
    return raw.length === p.dim ? normalize(Float32Array.from(raw)) : null
  if (p.index.embedding.model !== HASH_EMBEDDING_MODEL)
    return null
  const maxIdf = Math.log(1 + (p.index.skills.length + 0.5) / 0.5)
  const weighted: Array<[string, number]> = [...query.terms].map(([id, k]) => [p.terms[id], k * idfOf(p, id)])
  for (const t of query.unknown) weighted.push([t, maxIdf])
  return hashEmbed(weighted, p.dim)
}
