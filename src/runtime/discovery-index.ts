/**
 * The JIT discovery index carried by `SkillsManifest.index`: built at build time by
 * `buildDiscoveryIndex` (src/discovery), read by `findSkills` (zero I/O). It ships inside app
 * bundles and is parsed at every agent start, so it is a handful of long strings (cheap for
 * JSON.parse: no per-chunk objects) holding binary records in base64:
 *
 * - `postings`: for each term in `terms` order, varint n, then n pairs (skill index delta, weight 1-255)
 *   where weight is the skill's saturated BM25F term frequency tf/(k1+tf) scaled to 255
 *   (field-weighted, bridging vocabulary included).
 * - `vectors`: int8 skill embeddings, `dim` bytes per skill, in `skills` order.
 * - `chunks`: per skill, varint chunk count, then per chunk: kind, source (index into `sources`,
 *   0 = inline text), start, end (or inline text index), length in terms, term count, pairs
 *   (term id delta, count), then `ceil(dim / 8)` bytes of embedding sign bits.
 * - `chunkOffsets`: varint byte offsets of each skill's record in `chunks`, so one skill decodes alone.
 */

export const DISCOVERY_FORMAT = 'unplugin-skills/discovery@1'

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
  bm25: { k1: number; b: number; avgChunkLength: number }
  embedding: {
    /** `hash-v1` (the built-in deterministic embedding, computable at query time) or `custom`. */
    model: string
    dim: number
  }
  /** Skill names, in index order. */
  skills: string[]
  /** Every term (stem), sorted bytewise, joined with `\n`. */
  terms: string
  postings: string
  vectors: string
  /** Chunk sources: `''` (inline), `SKILL.md` (the body), or a skill file path such as `references/api.md`. */
  sources: string[]
  /** Text of frontmatter chunks (summary, triggers), which have no source text to slice. */
  inline: string[]
  chunks: string
  chunkOffsets: string
}

/** Narrow check for `SkillsManifest.index` (typed `unknown`). */
export function isDiscoveryIndex(value: unknown): value is DiscoveryIndex {
  const v = value as DiscoveryIndex | null
  return typeof v === 'object' && v !== null && v.format === DISCOVERY_FORMAT
    && Array.isArray(v.skills) && typeof v.terms === 'string' && typeof v.postings === 'string'
    && typeof v.chunks === 'string' && Array.isArray(v.sources) && Array.isArray(v.inline)
    && typeof v.embedding?.dim === 'number' && typeof v.bm25?.k1 === 'number'
}
