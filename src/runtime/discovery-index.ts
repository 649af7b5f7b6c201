/**
 * The JIT discovery index carried by `SkillsManifest.index`: built at build time by
 * `buildDiscoveryIndex` (src/discovery), read by `findSkills` (zero I/O). It ships inside app
 * bundles and is read at every agent start, so it is a handful of strings holding binary records
 * in base64 (cheap for JSON.parse: no per-record objects), cut so that an app can load it in pieces
 * (`virtual:skills-manifest` does): the head, then only the posting shards a query's terms fall in
 * and the chunk records of the skills a query returns (and one more lexical candidate).
 *
 * - `termStats`: per term, in `terms` order: varint document frequency, then the byte length of
 *   its postings list.
 * - `postings`: shards of consecutive terms (shard i starts at term `postingShards[i]`); each term's
 *   list is pairs (skill index delta, weight 1-255), where weight is the skill's saturated BM25F
 *   term frequency tf/(k1+tf) scaled to 255 (field-weighted). A skill that reaches a term only through
 *   bridging vocabulary is posted under `BRIDGED_PREFIX` + the term, not under the term.
 * - `vectors`: a custom model's int8 skill embeddings, `dim` bytes per skill, in `skills` order
 *   (a query may match a skill by meaning alone). Empty for the hashing embedding, which only
 *   reorders lexical candidates: each skill's int8 vector ends its chunk record instead, so a
 *   first query decodes a few skills' vectors, not every skill's.
 * - `chunks`: per skill, varint chunk count, then per chunk: kind, source (index into `sources`,
 *   0 = inline text), start, end (or index into the skill's `inline` texts), length in terms,
 *   term count, pairs (term id delta, count); then, for each chunk in order, `ceil(dim / 8)` bytes
 *   of embedding sign bits; then, when `vectors` is empty, the skill's int8 vector (`dim` bytes).
 */

export const DISCOVERY_FORMAT = 'unplugin-skills/discovery@5'

/**
 * Terms a skill reaches only through bridging vocabulary (WordNet) are posted under this prefix and the
 * stem (`~deploy`), apart from the skills that hold the word: a query adds them only when its own words
 * match poorly (see FindSkillsOptions.bridging). No analysed term starts with it.
 */
export const BRIDGED_PREFIX = '~'

/** Where a chunk comes from (spec: itemised chunks). */
export type ChunkKind = 'summary' | 'instructions' | 'trigger' | 'reference' | 'example'

/** Wire codes of chunk kinds (position in this list). */
export const CHUNK_KINDS: readonly ChunkKind[] = ['summary', 'instructions', 'trigger', 'reference', 'example']

export interface DiscoveryIndex {
  format: typeof DISCOVERY_FORMAT
  /** Version of the text analyser (tokeniser, stopwords, stemmer) the terms were made with. */
  analyzer: number
  /** Whether terms are stems (the query is analysed the same way). */
  stemming: boolean
  bm25: { k1: number, b: number, avgChunkLength: number }
  embedding: {
    /** `hash-v1` (the built-in deterministic embedding, computable at query time) or `custom`. */
    model: string
    dim: number
  }
  /** Skill names, in index order. */
  skills: string[]
  /** Every term (stem), sorted bytewise, joined with `\n`. */
  terms: string
  termStats: string
  /** First term id of each postings shard, ascending (the first is 0). */
  postingShards: number[]
  /** One base64 string per shard; a shard not loaded yet is missing (lazily loaded indexes only). */
  postings: string[]
  vectors: string
  /** Chunk sources: `''` (inline), `SKILL.md` (the body), or a skill file path such as `references/api.md`. */
  sources: string[]
  /** Per skill: base64 of its chunk records; missing while not loaded (lazily loaded indexes only). */
  chunks: string[]
  /** Per skill: text of its frontmatter chunks (summary, triggers), which have no source text to slice. */
  inline: string[][]
}

/** Narrow check for `SkillsManifest.index` (typed `unknown`). */
export function isDiscoveryIndex(value: unknown): value is DiscoveryIndex {
  const v = value as DiscoveryIndex | null
  return (
    typeof v === 'object'
    && v !== null
    && v.format === DISCOVERY_FORMAT
    && Array.isArray(v.skills)
    && typeof v.terms === 'string'
    && typeof v.termStats === 'string'
    && Array.isArray(v.postingShards)
    && Array.isArray(v.postings)
    && Array.isArray(v.chunks)
    && Array.isArray(v.sources)
    && Array.isArray(v.inline)
    && typeof v.embedding?.dim === 'number'
    && typeof v.bm25?.k1 === 'number'
  )
}
