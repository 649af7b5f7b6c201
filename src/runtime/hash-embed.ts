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

function addFeature(vector: Float32Array, feature: string, weight: number, seed: number): void {
  const h = fnv1a(feature, seed)
  const index = (h >>> 1) % vector.length
  vector[index] += h & 1 ? weight : -weight
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

/** Embeds weighted terms (already analysed: stems) into a unit vector of `dim` dimensions. */
export function hashEmbed(terms: Iterable<readonly [term: string, weight: number]>, dim = HASH_EMBEDDING_DIM): Float32Array {
  const vector = new Float32Array(dim)
  for (const [term, weight] of terms) {
    if (!(weight > 0)) continue
    addFeature(vector, term, weight, 0x811C9DC5)
    if (term.length < 4) continue
    const padded = `^${term}$`
    const grams = padded.length - 2
    const w = (weight * TRIGRAM_WEIGHT) / Math.sqrt(grams)
    for (let i = 0; i < grams; i++) addFeature(vector, padded.slice(i, i + 3), w, 0x01000193)
  }
  return normalize(vector)
}
