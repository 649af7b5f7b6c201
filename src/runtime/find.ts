import type { SkillsManifest } from '../core/types'
import type { DiscoveryIndex } from './discovery-index'
import type { Prepared } from './find-prepared'
import type { ParsedQuery } from './find-query'
import type { FindSkillsOptions, SkillMatch } from './find-types'
import { matchChunks, signTable } from './find-chunks'
import { feedback } from './find-feedback'
import { getPrepared, idf, idfOf, postingsOf, recordBytes } from './find-prepared'
import { parseQuery, queryVector } from './find-query'

export type { ChunkMatch, FindSkillsOptions, SkillMatch } from './find-types'

/*
 * Skill ranking, the entry of discovery: the query's lexical score over every skill (BM25F
 * postings; bridging vocabulary only when the query's own words match poorly; optionally
 * pseudo-relevance feedback) fused with embedding cosine, the best k kept, then their chunks
 * matched (find-chunks.ts).
 */

const DEFAULT_SEMANTIC_WEIGHT = 0.25
const DEFAULT_BRIDGING = 0.7
const DEFAULT_FEEDBACK_SKILLS = 0
const DEFAULT_FEEDBACK_TERMS = 10
const DEFAULT_FEEDBACK_WEIGHT = 0.5
/**
 * Cosines below this are noise: two unrelated texts hashed into 256 dimensions still get about
 * ±0.06 (one standard deviation), and a skill must not be "found" through hash collisions alone.
 */
const MIN_COSINE = 0.12

/**
 * Lexical candidates rescored with the skill vectors beyond k (hashing embedding). The hashing
 * embedding's skill cosine reorders lexical matches rather than finding new ones: with one extra
 * candidate the quality bench's MRR, top-1 and top-3 (both halves, k 3, 5 and 10) equal those of
 * scoring every skill; with none, MRR drops 0.0005-0.002. Each extra candidate is one more chunk
 * record for a first query to import.
 */
const RERANK_EXTRA = 1

/**
 * Cosine of the query with skill s's vector at the end of its record; 0 while the record is not
 * loaded (noted in `missing`).
 */
function recordCosine(p: Prepared, s: number, qv: Float32Array): number {
  const record = p.index.chunks[s]
  if (typeof record !== 'string') {
    p.missing.chunks.add(s)
    return 0
  }
  const bytes = recordBytes(p, s, record)
  const dim = p.dim
  if (bytes.length < dim)
    return 0
  const v = new Int8Array(bytes.buffer, bytes.byteOffset + bytes.length - dim, dim)
  let dot = 0
  let sum = 0
  for (let d = 0; d < dim; d++) {
    dot += qv[d] * v[d]
    sum += v[d] * v[d]
  }
  return sum > 0 ? dot / Math.sqrt(sum) : 0
}

/**
 * JIT semantic discovery over the pre-compiled manifest (zero I/O): the best `k` skills for a
 * natural-language query, best first, each with its matching chunks. Lexical BM25F (field
 * weighted, stemmed, with build-time bridging vocabulary for queries whose own words the skills
 * hold poorly) fused with embedding similarity.
 * Returns [] when the manifest has no (compatible) discovery index. Never throws on bad input.
 */
export function findSkills(
  manifest: SkillsManifest | DiscoveryIndex,
  query: string,
  options: FindSkillsOptions = {},
): SkillMatch[] {
  const ranking = rankSkills(manifest, query, options)
  return ranking ? attachChunks(ranking) : []
}

/** Builds the derived search structures now instead of on the first query (e.g. at agent startup). */
export function warmDiscovery(source: SkillsManifest | DiscoveryIndex): boolean {
  return getPrepared(source) !== null
}

/** The best skills for a query before their chunks are matched (see rankSkills, attachChunks). */
export interface SkillRanking {
  p: Prepared
  k: number
  /** Skill indexes, best first, and their scores; with `rerank`, lexical candidates and their lexical scores. */
  top: number[]
  topScores: number[]
  /** The order is lexical: the final scores need the skills' vectors, read from their chunk records in attachChunks. */
  rerank: boolean
  terms: Map<number, number>
  qv: Float32Array | null
  semantic: number
  limit: number
}

/** Inserts s into a small list sorted by descending score, at most `k` long; ties keep index order. */
function insertTop(top: number[], scores: number[], k: number, s: number, score: number): void {
  if (!(score > 0) || (top.length === k && score <= scores[k - 1]))
    return
  let i = top.length === k ? k - 1 : top.length
  while (i > 0 && scores[i - 1] < score) {
    top[i] = top[i - 1]
    scores[i] = scores[i - 1]
    i--
  }
  top[i] = s
  scores[i] = score
}

/**
 * The query's BM25F score of every skill, in p.lex. With `bridged`, as if each bridged term's skills held the
 * term: their postings are added, and the term's IDF counts them.
 */
function lexical(p: Prepared, query: ParsedQuery, bridged: boolean): Float64Array {
  const lex = p.lex.fill(0)
  const n = lex.length
  const { k1 } = p.index.bm25
  const add = (t: number, df: number, qtf: number) => {
    const w = (idf(n, df) * (k1 + 1) * (1 + Math.log(qtf))) / 255
    const list = postingsOf(p, t)
    for (let i = 0; i < list.skills.length; i++) lex[list.skills[i]] += w * list.weights[i]
  }
  const extra = new Map<number, number>()
  if (bridged) {
    for (const b of query.bridged) {
      const df = p.stats[2 * b.id] ?? 0
      add(b.id, df + (b.term === undefined ? 0 : p.stats[2 * b.term] ?? 0), b.qtf)
      if (b.term !== undefined)
        extra.set(b.term, df)
    }
  }
  for (const [t, qtf] of query.terms) add(t, (p.stats[2 * t] ?? 0) + (extra.get(t) ?? 0), qtf)
  return lex
}

/** Whether a posting list (skills ascending) holds skill s. */
function holds(skills: Uint32Array, s: number): boolean {
  let lo = 0
  let hi = skills.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (skills[mid] < s)
      lo = mid + 1
    else hi = mid
  }
  return skills[lo] === s
}

/**
 * The share of the query's IDF that its best direct match holds (the query's words no skill holds count at
 * the highest IDF): 1 when one skill has every query word, 0 when none has any.
 */
function coverage(p: Prepared, query: ParsedQuery, lex: Float64Array): number {
  let best = -1
  for (let s = 0; s < lex.length; s++) {
    if (lex[s] > 0 && (best < 0 || lex[s] > lex[best]))
      best = s
  }
  let total = query.unknown.length * idf(lex.length, 0)
  let held = 0
  for (const id of query.terms.keys()) {
    total += idfOf(p, id)
    if (best >= 0 && holds(postingsOf(p, id).skills, best))
      held += idfOf(p, id)
  }
  return total > 0 ? held / total : 1
}

/** Lexical score fused with the cosine (noise-level cosines ignored). */
const fused = (lex: number, cos: number, semantic: number) => lex + semantic * (cos > MIN_COSINE ? cos : 0)

/**
 * findSkills' first half: the lexical score of every skill, then the best k by fused score (skill
 * vectors in the head), or the best k + RERANK_EXTRA by lexical score, which attachChunks rescores
 * with the vectors at the end of their chunk records. Chunk records are not read here (unless
 * pseudo-relevance feedback is on), so an index loaded in parts loads exactly the records
 * attachChunks reads (findSkillsLoading).
 */
export function rankSkills(
  manifest: SkillsManifest | DiscoveryIndex,
  query: string,
  options: FindSkillsOptions = {},
): SkillRanking | null {
  const p = getPrepared(manifest)
  if (!p || typeof query !== 'string')
    return null
  const k = Math.max(0, Math.floor(options.k ?? 5))
  const n = p.index.skills.length
  if (k === 0 || n === 0)
    return null
  const semantic = options.semanticWeight ?? DEFAULT_SEMANTIC_WEIGHT
  const parsed = parseQuery(p, query)
  const { terms } = parsed

  const lex = lexical(p, parsed, false)
  if (parsed.bridged.length > 0 && coverage(p, parsed, lex) < (options.bridging ?? DEFAULT_BRIDGING))
    lexical(p, parsed, true)
  const feedbackSkills = Math.max(0, Math.floor(options.feedbackSkills ?? DEFAULT_FEEDBACK_SKILLS))
  if (feedbackSkills > 0 && terms.size > 0) {
    feedback(p, lex, {
      query: terms,
      skills: feedbackSkills,
      terms: options.feedbackTerms ?? DEFAULT_FEEDBACK_TERMS,
      weight: options.feedbackWeight ?? DEFAULT_FEEDBACK_WEIGHT,
    })
  }
  let maxLex = 0
  for (let s = 0; s < n; s++) {
    if (lex[s] > maxLex)
      maxLex = lex[s]
  }
  for (let s = 0; s < n; s++) lex[s] = maxLex > 0 ? lex[s] / maxLex : 0

  // Top-k by insertion into a small sorted list: O(n k), no full sort, ties by index order.
  const qv = queryVector(p, parsed, options)
  const top: number[] = []
  const topScores: number[] = []
  const rerank = p.rerank && qv !== null
  if (rerank) {
    for (let s = 0; s < n; s++) insertTop(top, topScores, k + RERANK_EXTRA, s, lex[s])
  }
  else {
    const dim = p.dim
    const vectors = p.vectors
    for (let s = 0; s < n; s++) {
      let cos = 0
      if (qv && vectors.length) {
        const base = s * dim
        for (let d = 0; d < dim; d++) cos += qv[d] * vectors[base + d]
        cos *= p.scales[s]
      }
      insertTop(top, topScores, k, s, fused(lex[s], cos, semantic))
    }
  }
  const limit = Math.max(0, Math.floor(options.chunks ?? 3))
  return { p, k, top, topScores, rerank, terms, qv, semantic, limit }
}

/** Skill indexes of a ranking whose chunk records attachChunks will read and the index does not hold yet. */
export function missingChunkRecords(ranking: SkillRanking): number[] {
  const { p, top, limit, rerank } = ranking
  if (limit <= 0 && !rerank)
    return []
  return top.filter(s => !p.chunks.has(s) && typeof p.index.chunks[s] !== 'string').sort((a, b) => a - b)
}

/** findSkills' second half: the candidates' final scores (see rankSkills), then each skill's best matching chunks. */
export function attachChunks(ranking: SkillRanking): SkillMatch[] {
  const { p, terms, qv, semantic, limit } = ranking
  let { top, topScores } = ranking
  if (ranking.rerank && qv) {
    const candidates = top
    const lexical = topScores
    top = []
    topScores = []
    candidates.forEach((s, i) =>
      insertTop(top, topScores, ranking.k, s, fused(lexical[i], recordCosine(p, s, qv), semantic)),
    )
  }
  const signs = qv && limit > 0 && top.length > 0 ? signTable(qv, p.dim) : null
  for (const [id, qtf] of terms) p.qtf[id] = qtf
  try {
    return top.map((s, i) => ({
      name: p.index.skills[s],
      score: Math.round(topScores[i] * 1e4) / 1e4,
      chunks: matchChunks(p, s, signs, semantic, limit),
    }))
  }
  finally {
    for (const id of terms.keys()) p.qtf[id] = 0
  }
}
