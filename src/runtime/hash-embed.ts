/**
 * The default, deterministic offline embedding ("normalised semantic hashing"): each weighted term
 * and its character trigrams are hashed to a signed coordinate, and the sum is L2-normalised. Terms
 * that share stems or spelling land near each other, with no model and no I/O; the build and the
 * query side call this same code.
 */

export const HASH_EMBEDDING_MODEL = 'hash-v1'
export const HASH_EMBEDDING_DIM = 256

/** How much a term's trigrams weigh against the term itself (catches typos and inflections the stemmer misses). */
const TRIGRAM_WEIGHT = 0.35

/** FNV-1a, 32-bit, over UTF-16 code units, with a seed so term and trigram spaces differ. */
export function fnv1a(text: string, seed = 0x811C9DC5): number {
  let h = seed >>> 0
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

export function normalize(vector: Float32Array): Float32Array {
  let norm = 0
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i]
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm)
    for (let i = 0; i < vector.length; i++) vector[i] *= inv
  }
  return vector
}

/** A term's hashed features for one dimension: coordinates and signed unit weights (term + trigrams). */
export interface Features {
  at: Uint32Array
  w: Float32Array
}

/** Features per term, per dimension: the same terms recur in every chunk. Bounded like the stem memo. */
const featureMemo = new Map<number, Map<string, Features>>()
const FEATURE_MEMO_MAX = 100_000

export function features(term: string, dim: number): Features {
  let memo = featureMemo.get(dim)
  if (!memo)
    featureMemo.set(dim, (memo = new Map()))
  let f = memo.get(term)
  if (f)
    return f
  const grams = term.length < 4 ? 0 : term.length
  const at = new Uint32Array(1 + grams)
  const w = new Float32Array(1 + grams)
  const put = (i: number, feature: string, weight: number, seed: number) => {
    const h = fnv1a(feature, seed)
    at[i] = (h >>> 1) % dim
    w[i] = h & 1 ? weight : -weight
  }
  put(0, term, 1, 0x811C9DC5)
  if (grams) {
    const padded = `^${term}$`
    const gw = TRIGRAM_WEIGHT / Math.sqrt(grams)
    for (let i = 0; i < grams; i++) put(1 + i, padded.slice(i, i + 3), gw, 0x01000193)
  }
  if (memo.size >= FEATURE_MEMO_MAX)
    memo.clear()
  memo.set(term, (f = { at, w }))
  return f
}

/** Adds one weighted term into an unnormalised vector (see hashEmbed). */
export function addHashed(vector: Float32Array, term: string, weight: number): void {
  if (weight > 0)
    addFeatures(vector, features(term, vector.length), weight)
}

/** addHashed with the term's features already looked up (hot loops over the same terms). */
export function addFeatures(vector: Float32Array, { at, w }: Features, weight: number): void {
  if (!(weight > 0))
    return
  for (let i = 0; i < at.length; i++) vector[at[i]] += weight * w[i]
}

/** Embeds weighted terms (already analysed: stems) into a unit vector of `dim` dimensions. */
export function hashEmbed(
  terms: Iterable<readonly [term: string, weight: number]>,
  dim = HASH_EMBEDDING_DIM,
): Float32Array {
  const vector = new Float32Array(dim)
  for (const [term, weight] of terms) addHashed(vector, term, weight)
  return normalize(vector)
}
