import type { ChunkKind } from './discovery-index'

export interface FindSkillsOptions {
  /** How many skills to return. @default 5 */
  k?: number
  /** Matching chunks returned per skill. @default 3 */
  chunks?: number
  /**
   * Weight of embedding similarity against the (max-normalised) lexical score.
   * @default 0.25
   */
  semanticWeight?: number
  /**
   * Bridging vocabulary (WordNet words related to a skill's own, added at build time) counts for a query only
   * when its best direct match holds less than this share of the query's IDF: a query whose words the skills
   * already hold needs none, and bridges then only add noise. 0 never bridges; above 1, always.
   * @default 0.7
   */
  bridging?: number
  /** Query embedding, for an index built with a custom `embed` (same model, same dimension). */
  queryVector?: ArrayLike<number>
  /** Or a synchronous query embedder for such an index. */
  embed?: (query: string) => ArrayLike<number>
  /**
   * Pseudo-relevance feedback: how many first-pass skills lend their terms to the query. Off by
   * default: one skill measured +0.005 MRR (noise level), more skills hurt top-1 (bench/discovery.ts),
   * and it reads chunk records and posting shards the query itself does not need.
   * @default 0
   */
  feedbackSkills?: number
  /** How many feedback terms are added. */
  feedbackTerms?: number
  /** Weight of the strongest feedback term against one query term. */
  feedbackWeight?: number
}

export interface ChunkMatch {
  kind: ChunkKind
  /** `SKILL.md`, `frontmatter`, or the file path inside the skill. */
  source: string
  start: number
  end: number
  /** The chunk text when the manifest carries it, else null. */
  text: string | null
  score: number
}

export interface SkillMatch {
  name: string
  score: number
  chunks: ChunkMatch[]
}
