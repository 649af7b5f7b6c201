import type { ManifestSkill, SkillsManifest } from '../core/types'
import type { ChunkKind, DiscoveryIndex } from './discovery-index'
import { decodeVarints, fromBase64, fromBase64Range } from './codec'
import { CHUNK_KINDS, isDiscoveryIndex } from './discovery-index'
import { HASH_EMBEDDING_MODEL, hashEmbed, normalize } from './hash-embed'
import { analyze, ANALYZER_VERSION } from './text'

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

/** Longest query analysed; beyond this a "query" is a document and costs time for nothing. */
const MAX_QUERY_CHARS = 4096
const DEFAULT_SEMANTIC_WEIGHT = 0.25
const DEFAULT_FEEDBACK_SKILLS = 0
const DEFAULT_FEEDBACK_TERMS = 10
const DEFAULT_FEEDBACK_WEIGHT = 0.5
/**
 * Cosines below this are noise: two unrelated texts hashed into 256 dimensions still get about
 * ±0.06 (one standard deviation), and a skill must not be "found" through hash collisions alone.
 */
const MIN_COSINE = 0.12

/** A chunk's length in terms and its (term id, count) pairs: [from, to) of the skill's `ids` / `tfs`. */
interface DecodedChunk {
  length: number
  from: number
  to: number
}

/** A skill's chunk terms (pseudo-relevance feedback): one flat array of term ids and one of counts for all chunks. */
interface SkillChunks {
  list: DecodedChunk[]
  ids: Uint32Array
  tfs: Uint32Array
}

const NO_CHUNKS: SkillChunks = { list: [], ids: new Uint32Array(0), tfs: new Uint32Array(0) }

/** Structures derived from the index on the first query (lazy: importing the manifest stays free). */
interface Prepared {
  index: DiscoveryIndex
  terms: string[]
  /** Per term: document frequency, byte length of its postings list (termStats, decoded). */
  stats: Uint32Array
  /** Per shard, where its terms' lists start (computed when the shard is first read, see listRange). */
  offsets: Array<Uint32Array | undefined>
  lists: Array<PostingList | undefined>
  /** Parts of a lazily loaded index that queries needed and did not find (see takeMissingParts). */
  missing: { postings: Set<number>, chunks: Set<number> }
  /** Per term IDF, computed on first use (0: not yet; see idfOf). */
  idf: Float64Array
  dim: number
  /**
   * int8 skill vectors from the head, `dim` per skill, and each one's normalising factor (see
   * skillVectors): a custom model's index. Empty when the vectors end the chunk records (the
   * hashing embedding): then only lexical candidates are scored with them (see rankSkills).
   */
  vectors: Int8Array
  scales: Float64Array
  rerank: boolean
  chunks: Map<number, SkillChunks>
  records: Map<number, Uint8Array>
  /** Per-query scratch buffers, reused: no garbage per query, no GC pauses in the tail latency. */
  lex: Float64Array
  /** Query term frequency by term id (set for the current query's terms only, then cleared). */
  qtf: Float64Array
  /** The manifest's skills (for chunk texts), found by index position, else by name (a Map built on demand). */
  skills: ManifestSkill[] | null
  skillsByName: Map<string, ManifestSkill> | null
}

/**
 * Every skill's int8 vector, read in place, and the factor that L2-normalises it (0 for a zero
 * vector): cosine is the int8 dot product times that factor, so no float copy of the vectors is
 * made. Short (damaged) data reads as zeros.
 */
function skillVectors(raw: Uint8Array, n: number, dim: number): { vectors: Int8Array, scales: Float64Array } {
  // None in the head (they end the chunk records): nothing to allocate or normalise.
  if (raw.length === 0)
    return { vectors: new Int8Array(0), scales: new Float64Array(0) }
  let vectors = new Int8Array(raw.buffer, raw.byteOffset, raw.length)
  if (vectors.length < n * dim) {
    vectors = new Int8Array(n * dim)
    vectors.set(new Int8Array(raw.buffer, raw.byteOffset, raw.length))
  }
  const scales = new Float64Array(n)
  for (let s = 0, at = 0; s < n; s++) {
    let sum = 0
    for (let d = 0; d < dim; d++, at++) sum += vectors[at] * vectors[at]
    scales[s] = sum > 0 ? 1 / Math.sqrt(sum) : 0
  }
  return { vectors, scales }
}

/**
 * Lexical candidates rescored with the skill vectors beyond k (hashing embedding). The hashing
 * embedding's skill cosine reorders lexical matches rather than finding new ones: with one extra
 * candidate the quality bench's MRR, top-1 and top-3 (both halves, k 3, 5 and 10) equal those of
 * scoring every skill; with none, MRR drops 0.0005-0.002. Each extra candidate is one more chunk
 * record for a first query to import.
 */
const RERANK_EXTRA = 1

/** The skills of one term's postings, ascending, and their weights. */
interface PostingList {
  skills: Uint32Array
  weights: Uint8Array
}

const EMPTY_LIST: PostingList = { skills: new Uint32Array(0), weights: new Uint8Array(0) }
const cache = new WeakMap<object, Prepared | null>()

/**
 * Only per-term statistics are decoded up front (document frequencies for IDF, where each list
 * is); a term's postings are decoded when a query first uses it, and chunk records when a skill
 * is first returned. That keeps the first query of an agent cheap.
 */
function prepare(index: DiscoveryIndex): Prepared {
  const terms = index.terms === '' ? [] : index.terms.split('\n')
  const nTerms = terms.length
  const n = index.skills.length
  const dim = Math.max(0, Math.floor(index.embedding.dim)) || 0
  const head = fromBase64(typeof index.vectors === 'string' ? index.vectors : '')
  return {
    index,
    terms,
    stats: decodeVarints(fromBase64(index.termStats)),
    offsets: [],
    lists: [],
    missing: { postings: new Set(), chunks: new Set() },
    idf: new Float64Array(nTerms),
    dim,
    ...skillVectors(head, n, dim),
    rerank: head.length === 0 && dim > 0,
    chunks: new Map(),
    records: new Map(),
    lex: new Float64Array(n),
    qtf: new Float64Array(nTerms),
    skills: null,
    skillsByName: null,
  }
}

/** UTF-16 code unit with surrogates above every other unit: code point order, which is UTF-8 byte order. */
const unit = (c: number) => (c >= 0xD800 && c <= 0xDFFF ? c + 0x10000 : c)

/** a < b in UTF-8 byte order (the terms' order, see compareBytewise), for well-formed strings. */
function before(a: string, b: string): boolean {
  const len = Math.min(a.length, b.length)
  for (let i = 0; i < len; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y)
      return unit(x) < unit(y)
  }
  return a.length < b.length
}

/**
 * A term's id: its position in the sorted term list, by binary search (a Map of every term would be
 * built at every agent start for the handful of terms a query has); undefined when absent.
 */
function termId(terms: string[], term: string): number | undefined {
  let lo = 0
  let hi = terms.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(terms[mid], term))
      lo = mid + 1
    else hi = mid
  }
  return terms[lo] === term ? lo : undefined
}

function getPrepared(source: SkillsManifest | DiscoveryIndex): Prepared | null {
  if (typeof source !== 'object' || source === null)
    return null
  if (cache.has(source))
    return cache.get(source)!
  const index = isDiscoveryIndex(source) ? source : (source as SkillsManifest).index
  let prepared: Prepared | null = null
  try {
    prepared = isDiscoveryIndex(index) && index.analyzer === ANALYZER_VERSION ? prepare(index) : null
  }
  catch {
    prepared = null
  }
  if (prepared && !isDiscoveryIndex(source)) {
    prepared.skills = Array.isArray((source as SkillsManifest).skills) ? (source as SkillsManifest).skills : []
  }
  cache.set(source, prepared)
  return prepared
}

/** Builds the derived search structures now instead of on the first query (e.g. at agent startup). */
export function warmDiscovery(source: SkillsManifest | DiscoveryIndex): boolean {
  return getPrepared(source) !== null
}

/** Term t's IDF over the skills (document frequency from termStats), computed once. */
function idfOf(p: Prepared, t: number): number {
  const cached = p.idf[t]
  if (cached > 0)
    return cached
  const n = p.index.skills.length
  const df = Math.min(p.stats[2 * t] ?? 0, n)
  return (p.idf[t] = Math.log(1 + (n - df + 0.5) / (df + 0.5)))
}

/** The postings shard holding term t: the last whose first term is <= t. */
function shardOf(p: Prepared, t: number): number {
  const starts = p.index.postingShards
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (starts[mid] <= t)
      lo = mid
    else hi = mid - 1
  }
  return lo
}

/** Byte range of term t's list in its shard: the lengths of the shard's earlier lists, summed once per shard. */
function listRange(p: Prepared, shard: number, t: number): [number, number] {
  const first = p.index.postingShards[shard] ?? 0
  let offsets = p.offsets[shard]
  if (!offsets) {
    const end = Math.max(first, Math.min(p.index.postingShards[shard + 1] ?? p.terms.length, p.terms.length))
    offsets = p.offsets[shard] = new Uint32Array(end - first + 1)
    for (let u = first; u < end; u++) offsets[u - first + 1] = offsets[u - first] + (p.stats[2 * u + 1] ?? 0)
  }
  const i = t - first
  return i >= 0 && i + 1 < offsets.length ? [offsets[i], offsets[i + 1]] : [0, 0]
}

/** Term t's postings, decoded once; empty while its shard is not loaded (noted in `missing`, not cached). */
function postingsOf(p: Prepared, t: number): PostingList {
  const cached = p.lists[t]
  if (cached)
    return cached
  const at = shardOf(p, t)
  const shard = p.index.postings[at]
  if (typeof shard !== 'string') {
    p.missing.postings.add(at)
    return EMPTY_LIST
  }
  const [from, to] = listRange(p, at, t)
  const flat = decodeVarints(fromBase64Range(shard, from, to))
  const n = p.index.skills.length
  const skills = new Uint32Array(flat.length >>> 1)
  const weights = new Uint8Array(flat.length >>> 1)
  let count = 0
  // Damaged data ends the list.
  for (let i = 0, skill = 0; i + 1 < flat.length; i += 2) {
    skill += flat[i]
    if (skill >= n)
      break
    skills[count] = skill
    weights[count++] = flat[i + 1]
  }
  return (p.lists[t] = { skills: skills.subarray(0, count), weights: weights.subarray(0, count) })
}

/**
 * For an index loaded in pieces (virtual:skills-manifest): the parts the last `findSkills` call
 * over `source` needed and did not have (postings shards, skill indexes of chunk records), which
 * are then forgotten. Empty lists mean that answer was complete. See findSkillsLoading.
 */
export function takeMissingParts(source: SkillsManifest | DiscoveryIndex): { postings: number[], chunks: number[] } {
  const p = getPrepared(source)
  if (!p)
    return { postings: [], chunks: [] }
  const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b)
  const parts = { postings: sorted(p.missing.postings), chunks: sorted(p.missing.chunks) }
  p.missing.postings.clear()
  p.missing.chunks.clear()
  return parts
}

/** The postings shards a query's own terms fall in that are not loaded yet (loaded before a first pass). */
export function missingPostingShards(source: SkillsManifest | DiscoveryIndex, query: string): number[] {
  const p = getPrepared(source)
  if (!p || typeof query !== 'string')
    return []
  const missing = new Set<number>()
  for (const t of analyze(
    query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query,
    p.index.stemming !== false,
  )) {
    const id = termId(p.terms, t)
    if (id !== undefined && typeof p.index.postings[shardOf(p, id)] !== 'string')
      missing.add(shardOf(p, id))
  }
  return [...missing].sort((a, b) => a - b)
}

function queryVector(
  p: Prepared,
  terms: Map<number, number>,
  unknown: string[],
  query: string,
  options: FindSkillsOptions,
): Float32Array | null {
  if (p.dim === 0)
    return null
  let raw: ArrayLike<number> | undefined = options.queryVector
  if (!raw && options.embed)
    raw = options.embed(query)
  if (raw)
    return raw.length === p.dim ? normalize(Float32Array.from(raw)) : null
  if (p.index.embedding.model !== HASH_EMBEDDING_MODEL)
    return null
  const maxIdf = Math.log(1 + (p.index.skills.length + 0.5) / 0.5)
  const weighted: Array<[string, number]> = [...terms].map(([id, k]) => [p.terms[id], k * idfOf(p, id)])
  for (const t of unknown) weighted.push([t, maxIdf])
  return hashEmbed(weighted, p.dim)
}

/** A skill's chunk record as bytes, decoded once (the skill's vector is read from it before its chunks). */
function recordBytes(p: Prepared, s: number, record: string): Uint8Array {
  let bytes = p.records.get(s)
  if (!bytes)
    p.records.set(s, (bytes = fromBase64(record)))
  return bytes
}

/** Cosine of the query with skill s's vector at the end of its record; 0 while the record is not loaded (noted in `missing`). */
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

/** A skill's chunk terms, decoded when first needed; none while its record is not loaded (noted in `missing`, not cached). */
function decodeChunks(p: Prepared, s: number): SkillChunks {
  const cached = p.chunks.get(s)
  if (cached)
    return cached
  const record = p.index.chunks[s]
  if (typeof record !== 'string') {
    p.missing.chunks.add(s)
    return NO_CHUNKS
  }
  const list: DecodedChunk[] = []
  const bytes = recordBytes(p, s, record)
  const signBytes = Math.ceil(p.dim / 8)
  // The varints (count, then the chunks) in one pass, then each chunk's sign bits, then the skill's vector when it is there.
  const count = decodeVarints(bytes.subarray(0, 5))[0] ?? 0
  const signsAt = Math.max(0, bytes.length - (p.rerank ? p.dim : 0) - count * signBytes)
  const nums = decodeVarints(bytes.subarray(0, signsAt))
  // At most half the numbers are pairs: ids and counts of every chunk, in two flat arrays.
  const ids = new Uint32Array(nums.length >>> 1)
  const tfs = new Uint32Array(nums.length >>> 1)
  let pairs = 0
  for (let c = 0, at = 1; c < count && at + 6 <= nums.length; c++) {
    const length = nums[at + 4]
    // Damaged data ends the pairs.
    const nTerms = Math.min(nums[at + 5], (nums.length - at - 6) >> 1)
    at += 6
    const from = pairs
    for (let i = 0, id = 0; i < nTerms; i++, at += 2) {
      id += nums[at]
      ids[pairs] = id
      tfs[pairs++] = nums[at + 1]
    }
    list.push({ length, from, to: pairs })
  }
  const decoded = { list, ids, tfs }
  p.chunks.set(s, decoded)
  return decoded
}

function chunkText(p: Prepared, s: number, source: string, start: number, end: number, inline?: string): string | null {
  if (typeof inline === 'string')
    return inline
  if (!p.skills)
    return null
  const name = p.index.skills[s]
  let skill: ManifestSkill | undefined = p.skills[s]
  if (skill?.name !== name) {
    p.skillsByName ??= new Map(p.skills.map(k => [k.name, k]))
    skill = p.skillsByName.get(name)
  }
  if (!skill)
    return null
  if (source === 'SKILL.md')
    return typeof skill.body === 'string' ? skill.body.slice(start, end) : null
  const doc = [...(skill.tree?.references ?? []), ...(skill.tree?.examples ?? [])].find(d => d.path === source)
  return typeof doc?.text === 'string' ? doc.text.slice(start, end) : null
}

/**
 * The query's dot products with sign bytes: entry 256 * g + v is the sum of ±qv over the 8
 * dimensions of byte g, bit set meaning +. A chunk's dot product is then ceil(dim / 8) lookups
 * instead of dim bit tests (a first answer scores hundreds of chunks per skill). Each entry is the
 * entry with its lowest set bit cleared plus twice that bit's component (256 additions per byte,
 * not 2,048); the table is the one definition the complete and the split index use alike.
 */
function signTable(qv: Float32Array, dim: number): Float64Array {
  const groups = Math.ceil(dim / 8)
  const table = new Float64Array(groups * 256)
  for (let g = 0; g < groups; g++) {
    const at = g * 256
    let none = 0
    for (let j = 0; j < 8 && g * 8 + j < dim; j++) none -= qv[g * 8 + j]
    table[at] = none
    for (let v = 1; v < 256; v++) {
      const low = 31 - Math.clz32(v & -v)
      const d = g * 8 + low
      table[at + v] = table[at + (v & (v - 1))] + (d < dim ? 2 * qv[d] : 0)
    }
  }
  return table
}

/** Read position of readVarint (one record is read at a time, synchronously). */
let cursor = 0

/** The varint at `cursor` in bytes[..end) as decodeVarints reads it, advancing `cursor`; -1 when the data ends first. */
function readVarint(bytes: Uint8Array, end: number): number {
  let v = 0
  for (let shift = 0; cursor < end; shift += 7) {
    const b = bytes[cursor++]
    if (shift < 28)
      v |= (b & 127) << shift
    else if (shift === 28)
      v = (v >>> 0) + (b & 15) * 2 ** 28
    if (b < 128)
      return v >>> 0
  }
  return -1
}

/**
 * A skill's best `limit` chunks for the query, scored straight from its record in one pass: a
 * first answer reads a handful of records once, so no per-chunk objects or term arrays are built
 * (decodeChunks does that for pseudo-relevance feedback). Damaged data ends the chunks.
 */
function matchChunks(
  p: Prepared,
  s: number,
  signs: Float64Array | null,
  semantic: number,
  limit: number,
): ChunkMatch[] {
  if (limit <= 0)
    return []
  const record = p.index.chunks[s]
  if (typeof record !== 'string') {
    p.missing.chunks.add(s)
    return []
  }
  const { k1, b, avgChunkLength } = p.index.bm25
  const bytes = recordBytes(p, s, record)
  const signBytes = Math.ceil(p.dim / 8)
  const groups = signBytes
  const norm = Math.sqrt(p.dim)
  cursor = 0
  const count = Math.max(0, readVarint(bytes, Math.min(5, bytes.length)))
  const signsAt = Math.max(0, bytes.length - (p.rerank ? p.dim : 0) - count * signBytes)
  if (cursor > signsAt)
    return []
  // The best chunks so far, by descending score, earlier chunk first on ties.
  const top: Array<{ c: number, score: number, kind: number, source: number, start: number, end: number }> = []
  for (let c = 0; c < count; c++) {
    const kind = readVarint(bytes, signsAt)
    const source = readVarint(bytes, signsAt)
    const start = readVarint(bytes, signsAt)
    const end = readVarint(bytes, signsAt)
    const length = readVarint(bytes, signsAt)
    const nTerms = readVarint(bytes, signsAt)
    if (nTerms < 0)
      break
    const norm1 = k1 * (1 - b + (b * length) / (avgChunkLength || 1))
    let lex = 0
    let complete = true
    for (let i = 0, id = 0; i < nTerms; i++) {
      const delta = readVarint(bytes, signsAt)
      const tf = readVarint(bytes, signsAt)
      if (tf < 0) {
        complete = false
        break
      }
      id = (id + delta) >>> 0
      const qtf = p.qtf[id]
      if (qtf)
        lex += (qtf * idfOf(p, id) * (tf * (k1 + 1))) / (tf + norm1)
    }
    let sem = 0
    // Dot product with the ±1/sqrt(dim) vector the sign bits stand for (unpackSigns), without unpacking it.
    const at = signsAt + c * signBytes
    if (signs && p.dim && at + signBytes <= bytes.length) {
      for (let g = 0; g < groups; g++) sem += signs[g * 256 + bytes[at + g]]
      sem /= norm
    }
    const score = lex + semantic * 10 * Math.max(0, sem)
    if (score > 0 && (top.length < limit || score > top[top.length - 1].score)) {
      let i = Math.min(top.length, limit - 1)
      while (i > 0 && top[i - 1].score < score) i--
      top.splice(i, 0, { c, score, kind, source, start, end })
      if (top.length > limit)
        top.pop()
    }
    if (!complete)
      break
  }
  const inline = Array.isArray(p.index.inline[s]) ? p.index.inline[s] : []
  return top.map(({ score, kind, source, start, end }) => {
    const fromFrontmatter = source === 0
    const text = fromFrontmatter ? (inline[end] ?? '') : undefined
    const path = fromFrontmatter ? 'frontmatter' : (p.index.sources[source] ?? '')
    return {
      kind: CHUNK_KINDS[kind] ?? 'instructions',
      source: path,
      start: fromFrontmatter ? 0 : start,
      end: fromFrontmatter ? (text as string).length : end,
      text: chunkText(p, s, path, start, end, text),
      score: Math.round(score * 1e4) / 1e4,
    }
  })
}

/**
 * Pseudo-relevance feedback (RM3-like): the terms that weigh most in the best first-pass skills,
 * weighted by those skills' scores, are added to the query and scored into `lex`. A query phrased
 * in a user's words often hits the right skill weakly; that skill's own vocabulary then lifts it
 * (and its near neighbours) above skills matched only by a common word.
 */
function feedback(
  p: Prepared,
  lex: Float64Array,
  terms: Map<number, number>,
  skills: number,
  count: number,
  weight: number,
): void {
  const n = lex.length
  const top: number[] = []
  for (let s = 0; s < n; s++) {
    if (!(lex[s] > 0) || (top.length === skills && lex[s] <= lex[top[skills - 1]]))
      continue
    let i = top.length === skills ? skills - 1 : top.length
    while (i > 0 && lex[top[i - 1]] < lex[s]) top[i] = top[--i]
    top[i] = s
  }
  if (top.length === 0)
    return
  const best = lex[top[0]]
  const mass = new Map<number, number>()
  for (const s of top) {
    let length = 0
    const tf = new Map<number, number>()
    const { list, ids, tfs } = decodeChunks(p, s)
    for (const c of list) {
      length += c.length
      for (let j = c.from; j < c.to; j++) tf.set(ids[j], (tf.get(ids[j]) ?? 0) + tfs[j])
    }
    const share = lex[s] / best / (length || 1)
    for (const [id, f] of tf) {
      if (!terms.has(id) && id < p.terms.length)
        mass.set(id, (mass.get(id) ?? 0) + share * f * idfOf(p, id))
    }
  }
  const picked = [...mass].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, count)
  if (picked.length === 0)
    return
  const scale = weight / picked[0][1]
  const { k1 } = p.index.bm25
  for (const [id, m] of picked) {
    const w = (m * scale * idfOf(p, id) * (k1 + 1)) / 255
    const list = postingsOf(p, id)
    for (let i = 0; i < list.skills.length; i++) lex[list.skills[i]] += w * list.weights[i]
  }
}

/**
 * JIT semantic discovery over the pre-compiled manifest (zero I/O): the best `k` skills for a
 * natural-language query, best first, each with its matching chunks. Lexical BM25F (field
 * weighted, stemmed, with build-time bridging vocabulary) fused with embedding similarity.
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
  const text = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query

  const terms = new Map<number, number>()
  const unknown: string[] = []
  for (const t of analyze(text, p.index.stemming !== false)) {
    const id = termId(p.terms, t)
    if (id === undefined)
      unknown.push(t)
    else terms.set(id, (terms.get(id) ?? 0) + 1)
  }

  const lex = p.lex.fill(0)
  const { k1 } = p.index.bm25
  for (const [id, qtf] of terms) {
    const w = (idfOf(p, id) * (k1 + 1) * (1 + Math.log(qtf))) / 255
    const list = postingsOf(p, id)
    for (let i = 0; i < list.skills.length; i++) lex[list.skills[i]] += w * list.weights[i]
  }
  const feedbackSkills = Math.max(0, Math.floor(options.feedbackSkills ?? DEFAULT_FEEDBACK_SKILLS))
  if (feedbackSkills > 0 && terms.size > 0) {
    feedback(
      p,
      lex,
      terms,
      feedbackSkills,
      options.feedbackTerms ?? DEFAULT_FEEDBACK_TERMS,
      options.feedbackWeight ?? DEFAULT_FEEDBACK_WEIGHT,
    )
  }
  let maxLex = 0
  for (let s = 0; s < n; s++) {
    if (lex[s] > maxLex)
      maxLex = lex[s]
  }
  for (let s = 0; s < n; s++) lex[s] = maxLex > 0 ? lex[s] / maxLex : 0

  // Top-k by insertion into a small sorted list: O(n k), no full sort, ties by index order.
  const qv = queryVector(p, terms, unknown, text, options)
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
