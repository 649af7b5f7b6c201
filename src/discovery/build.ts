import type { Options } from '../options'
import type { ManifestSkill } from '../types'
import { compareBytewise } from '../diagnostics'
import { encodeVarints, packSigns, quantizeInt8, toBase64 } from '../runtime/codec'
import type { ChunkKind, DiscoveryIndex } from '../runtime/discovery-index'
import { CHUNK_KINDS, DISCOVERY_FORMAT } from '../runtime/discovery-index'
import { HASH_EMBEDDING_DIM, HASH_EMBEDDING_MODEL, hashEmbed, normalize } from '../runtime/hash-embed'
import { ANALYZER_VERSION, analyze } from '../runtime/text'
import { chunkSkill, type SkillChunk } from './chunk'
import { DEFAULT_TIER_WEIGHTS, loadSynonymData, stemSynonyms, type SynonymTable } from './synonyms'

/** Knobs of the build-time ranking model; the defaults were tuned (coordinate search) on the tuning half of bench/discovery.ts only. */
export interface DiscoveryTuning {
  /** BM25F weight of each chunk kind (0 drops the kind from the skill-level score). */
  fieldWeights: Record<ChunkKind, number>
  /** BM25F length normalisation of each kind. */
  fieldB: Record<ChunkKind, number>
  k1: number
  /** Chunk kinds whose terms are expanded with bridging vocabulary, with the weight of that source. */
  expandFrom: Partial<Record<ChunkKind, number>>
  /** Weight of the three synonym tiers (synonyms, related forms, gloss words); all 0 disables expansion. */
  tierWeights: readonly [number, number, number]
  /** Overall weight of expansion terms against direct terms. */
  expansionWeight: number
  /** Most expansion terms kept per skill (index size bound). */
  maxExpansion: number
  /** Use the stemmer (false: surface words, for the ablation). */
  stemming: boolean
}

export const DEFAULT_TUNING: DiscoveryTuning = {
  fieldWeights: { summary: 2.5, trigger: 0.3, instructions: 1, reference: 1.5, example: 1 },
  fieldB: { summary: 0.4, trigger: 0.3, instructions: 0.75, reference: 0.75, example: 0.75 },
  k1: 1.2,
  expandFrom: { summary: 1, trigger: 0.8, instructions: 0.3, reference: 0.6 },
  tierWeights: DEFAULT_TIER_WEIGHTS,
  expansionWeight: 0.15,
  maxExpansion: 160,
  stemming: true,
}

export interface BuildDiscoveryOptions {
  /** A real embedding model (`Options.embed`) in place of the deterministic hashing embedding. */
  embed?: Options['embed'] | null
  /** Ranking knobs (benchmarks and ablations); the defaults are the shipped model. */
  tuning?: Partial<DiscoveryTuning>
  /** Pre-stemmed synonym table (tests); default: data/discovery-synonyms.json. */
  synonyms?: SynonymTable
}

const EMBED_BATCH = 64

/** The stemmed table per tier weighting, built once per process (stemming 70k lemmas is not free). */
const stemmedCache = new Map<string, SynonymTable>()
async function stemmedSynonyms(tierWeights: readonly number[]): Promise<SynonymTable> {
  const key = tierWeights.join(',')
  let table = stemmedCache.get(key)
  if (!table) {
    table = stemSynonyms(await loadSynonymData(), tierWeights)
    stemmedCache.set(key, table)
  }
  return table
}

interface PreparedChunk {
  chunk: SkillChunk
  tf: Map<string, number>
  length: number
}

const countTerms = (terms: string[]): Map<string, number> => {
  const tf = new Map<string, number>()
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1)
  return tf
}

async function embedAll(embed: NonNullable<Options['embed']>, texts: string[]): Promise<number[][]> {
  const out: number[][] = []
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH)
    const vectors = await embed(batch)
    if (!Array.isArray(vectors) || vectors.length !== batch.length) {
      throw new Error(`discovery: options.embed returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${batch.length} texts`)
    }
    out.push(...vectors)
  }
  const dim = out[0]?.length ?? 0
  for (const v of out) {
    if (!Array.isArray(v) || v.length !== dim || dim === 0 || v.some(x => !Number.isFinite(x))) {
      throw new Error(`discovery: options.embed must return finite vectors of one constant dimension (got ${Array.isArray(v) ? v.length : typeof v} and ${dim})`)
    }
  }
  return out
}

/**
 * Builds the JIT discovery index of a set of skills: chunks (spec: 900 characters, 80 overlap),
 * a skill-level BM25F index with bridging vocabulary, and quantised embeddings. Deterministic for
 * the same skills and options. Throws only when a user-supplied `embed` misbehaves.
 */
export async function buildDiscoveryIndex(skills: ManifestSkill[], options: BuildDiscoveryOptions = {}): Promise<DiscoveryIndex> {
  const tuning: DiscoveryTuning = { ...DEFAULT_TUNING, ...options.tuning }
  const analyse = (text: string) => analyze(text, tuning.stemming)
  const expand = tuning.tierWeights.some(w => w > 0) && tuning.expansionWeight > 0
  const synonyms = !expand
    ? new Map() as SynonymTable
    : options.synonyms ?? await stemmedSynonyms(tuning.tierWeights)

  // 1. Chunk and analyse every skill.
  const prepared: PreparedChunk[][] = skills.map(skill => chunkSkill(skill).map((chunk) => {
    const terms = analyse(chunk.text)
    return { chunk, tf: countTerms(terms), length: terms.length }
  }))

  // 2. Per-skill, per-kind lengths, and their averages over the skills that have the kind.
  const kinds = Object.keys(tuning.fieldWeights) as ChunkKind[]
  const lengths = prepared.map((chunks) => {
    const byKind = {} as Record<ChunkKind, number>
    for (const k of kinds) byKind[k] = 0
    for (const c of chunks) byKind[c.chunk.kind] += c.length
    return byKind
  })
  const avg = {} as Record<ChunkKind, number>
  for (const k of kinds) {
    const present = lengths.filter(l => l[k] > 0)
    avg[k] = present.length ? present.reduce((s, l) => s + l[k], 0) / present.length : 1
  }

  // 3. BM25F pseudo term frequencies per skill, then bridging vocabulary.
  const skillTf = prepared.map((chunks, i) => {
    const tf = new Map<string, number>()
    const rawByKind = new Map<string, number>()
    for (const c of chunks) {
      const k = c.chunk.kind
      const norm = 1 - tuning.fieldB[k] + tuning.fieldB[k] * (lengths[i][k] / avg[k])
      const w = tuning.fieldWeights[k] / norm
      for (const [t, n] of c.tf) {
        tf.set(t, (tf.get(t) ?? 0) + w * n)
        const source = tuning.expandFrom[k] ?? 0
        if (source > 0) rawByKind.set(t, Math.max(rawByKind.get(t) ?? 0, source))
      }
    }
    if (expand) {
      const added = new Map<string, number>()
      for (const [t, source] of rawByKind) {
        for (const [related, weight] of synonyms.get(t) ?? []) {
          if (tf.has(related)) continue
          added.set(related, (added.get(related) ?? 0) + source * weight)
        }
      }
      const ranked = [...added].sort((a, b) => b[1] - a[1] || compareBytewise(a[0], b[0])).slice(0, tuning.maxExpansion)
      for (const [t, w] of ranked) tf.set(t, tuning.expansionWeight * Math.min(w, 2))
    }
    return tf
  })

  // 4. Vocabulary and document frequencies (over skills).
  const vocab = new Set<string>()
  for (const tf of skillTf) for (const t of tf.keys()) vocab.add(t)
  const terms = [...vocab].sort(compareBytewise)
  const termId = new Map(terms.map((t, i) => [t, i]))
  const df = new Map<string, number>()
  for (const tf of skillTf) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  const n = skills.length
  const idf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))

  // 5. Embeddings: built-in hashing from the term bags, or the user's model on the chunk texts.
  let dim = HASH_EMBEDDING_DIM
  let chunkVectors: Float32Array[][]
  let skillVectors: Float32Array[]
  if (options.embed) {
    const flat = prepared.flat()
    const vectors = await embedAll(options.embed, flat.map(c => c.chunk.text))
    dim = vectors[0]?.length ?? 0
    let at = 0
    chunkVectors = prepared.map(chunks => chunks.map(() => normalize(Float32Array.from(vectors[at++]))))
    skillVectors = prepared.map((chunks, i) => {
      const sum = new Float32Array(dim)
      chunks.forEach((c, j) => {
        const w = tuning.fieldWeights[c.chunk.kind]
        const v = chunkVectors[i][j]
        for (let d = 0; d < dim; d++) sum[d] += w * v[d]
      })
      return normalize(sum)
    })
  }
  else {
    chunkVectors = prepared.map(chunks => chunks.map(c =>
      hashEmbed([...c.tf].map(([t, k]) => [t, (1 + Math.log(k)) * idf(t)] as const))))
    skillVectors = skillTf.map(tf => hashEmbed([...tf].map(([t, w]) => [t, (w / (tuning.k1 + w)) * idf(t)] as const)))
  }

  // 6. Encode: a few long strings (see DiscoveryIndex).
  const postingLists: number[][] = terms.map(() => [])
  skillTf.forEach((tf, s) => {
    for (const [t, w] of tf) postingLists[termId.get(t)!].push(s, Math.max(1, Math.min(255, Math.round((w / (tuning.k1 + w)) * 255))))
  })
  const postings: number[] = []
  for (const list of postingLists) {
    postings.push(list.length / 2)
    for (let i = 0, prev = 0; i < list.length; i += 2) {
      postings.push(list[i] - prev, list[i + 1])
      prev = list[i]
    }
  }
  const vectorBytes = new Uint8Array(n * dim)
  skillVectors.forEach((v, s) => vectorBytes.set(quantizeInt8(v), s * dim))

  const sources: string[] = ['']
  const sourceId = new Map<string, number>([['', 0]])
  const inline: string[] = []
  const chunkParts: Uint8Array[] = []
  const offsets: number[] = []
  let byteOffset = 0
  let chunkTerms = 0
  let chunkCount = 0
  prepared.forEach((chunks, s) => {
    const record: number[] = [chunks.length]
    const parts: Uint8Array[] = []
    chunks.forEach((c, j) => {
      chunkTerms += c.length
      chunkCount++
      let source = 0
      let start = c.chunk.start
      let end = c.chunk.end
      if (c.chunk.inline) {
        inline.push(c.chunk.text)
        start = 0
        end = inline.length - 1
      }
      else {
        if (!sourceId.has(c.chunk.source)) {
          sourceId.set(c.chunk.source, sources.length)
          sources.push(c.chunk.source)
        }
        source = sourceId.get(c.chunk.source)!
      }
      const pairs = [...c.tf].map(([t, k]) => [termId.get(t)!, k] as const).sort((a, b) => a[0] - b[0])
      record.push(CHUNK_KINDS.indexOf(c.chunk.kind), source, start, end, c.length, pairs.length)
      for (let i = 0, prev = 0; i < pairs.length; i++) {
        record.push(pairs[i][0] - prev, pairs[i][1])
        prev = pairs[i][0]
      }
      parts.push(encodeVarints(record.splice(0)), packSigns(chunkVectors[s][j]))
    })
    if (chunks.length === 0) parts.push(encodeVarints(record))
    offsets.push(byteOffset)
    for (const part of parts) {
      chunkParts.push(part)
      byteOffset += part.length
    }
  })
  const chunkBytes = new Uint8Array(byteOffset)
  let at = 0
  for (const part of chunkParts) {
    chunkBytes.set(part, at)
    at += part.length
  }

  return {
    format: DISCOVERY_FORMAT,
    analyzer: ANALYZER_VERSION,
    stemming: tuning.stemming,
    bm25: { k1: tuning.k1, b: 0.75, avgChunkLength: Math.round((chunkCount ? chunkTerms / chunkCount : 1) * 1000) / 1000 },
    embedding: { model: options.embed ? 'custom' : HASH_EMBEDDING_MODEL, dim },
    skills: skills.map(s => s.name),
    terms: terms.join('\n'),
    postings: toBase64(encodeVarints(postings)),
    vectors: toBase64(vectorBytes),
    sources,
    inline,
    chunks: toBase64(chunkBytes),
    chunkOffsets: toBase64(encodeVarints(offsets.map((o, i) => o - (i ? offsets[i - 1] : 0)))),
  }
}
