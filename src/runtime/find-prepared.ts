import type { ManifestSkill, SkillsManifest } from '../core/types'
import type { DiscoveryIndex } from './discovery-index'
import { decodeVarints, fromBase64, fromBase64Range } from './codec'
import { isDiscoveryIndex } from './discovery-index'
import { ANALYZER_VERSION } from './text'

/*
 * The discovery index prepared for queries, shared by ranking, chunk matching and feedback: what is
 * decoded up front, and the parts decoded once when a query first needs them (a term's postings, a
 * skill's chunk record), each noted as missing while an index loaded in parts does not hold it yet.
 */

/** A chunk's length in terms and its (term id, count) pairs: [from, to) of the skill's `ids` / `tfs`. */
interface DecodedChunk {
  length: number
  from: number
  to: number
}

/**
 * A skill's chunk terms (pseudo-relevance feedback): one flat array of term ids and one of counts
 * for all chunks.
 */
interface SkillChunks {
  list: DecodedChunk[]
  ids: Uint32Array
  tfs: Uint32Array
}

const NO_CHUNKS: SkillChunks = { list: [], ids: new Uint32Array(0), tfs: new Uint32Array(0) }

/** Structures derived from the index on the first query (lazy: importing the manifest stays free). */
export interface Prepared {
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
export function termId(terms: string[], term: string): number | undefined {
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

/** The prepared index of a manifest or bare index, made once per object; null when it has none usable. */
export function getPrepared(source: SkillsManifest | DiscoveryIndex): Prepared | null {
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

/** BM25's IDF of a term in `df` of `n` skills. */
export function idf(n: number, df: number): number {
  const f = Math.min(df, n)
  return Math.log(1 + (n - f + 0.5) / (f + 0.5))
}

/** Term t's IDF over the skills (document frequency from termStats), computed once. */
export function idfOf(p: Prepared, t: number): number {
  const cached = p.idf[t]
  if (cached > 0)
    return cached
  return (p.idf[t] = idf(p.index.skills.length, p.stats[2 * t] ?? 0))
}

/** The postings shard holding term t: the last whose first term is <= t. */
export function shardOf(p: Prepared, t: number): number {
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
export function postingsOf(p: Prepared, t: number): PostingList {
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

/** A skill's chunk record as bytes, decoded once (the skill's vector is read from it before its chunks). */
export function recordBytes(p: Prepared, s: number, record: string): Uint8Array {
  let bytes = p.records.get(s)
  if (!bytes)
    p.records.set(s, (bytes = fromBase64(record)))
  return bytes
}

/**
 * A skill's chunk terms, decoded when first needed; none while its record is not loaded (noted in
 * `missing`, not cached).
 */
export function decodeChunks(p: Prepared, s: number): SkillChunks {
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
  // The varints (count, then the chunks) in one pass, then each chunk's sign bits, then the skill's
  // vector when it is there.
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
