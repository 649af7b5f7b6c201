import type { Options } from '../core/options'
import type { ManifestSkill } from '../core/types'
import type { ChunkKind, DiscoveryIndex } from '../runtime/discovery-index'
import type { Features } from '../runtime/hash-embed'
import type { SkillChunk } from './chunk'
import type { SynonymTable } from './synonyms'
import { compareBytewise } from '../core/diagnostics'
import { packSigns, quantizeInt8, toBase64, VarintWriter } from '../runtime/codec'
import { BRIDGED_PREFIX, CHUNK_KINDS, DISCOVERY_FORMAT } from '../runtime/discovery-index'
import { addFeatures, features, HASH_EMBEDDING_DIM, HASH_EMBEDDING_MODEL, normalize } from '../runtime/hash-embed'
import { analyze, ANALYZER_VERSION, scanAsciiTokens } from '../runtime/text'
import { chunkSkill, DEFAULT_TEXT_BUDGET } from './chunk'
import { bridgingTable, DEFAULT_TIER_WEIGHTS } from './synonyms'
import { Accumulator, TokenTerms, topExpansions, Vocabulary } from './terms'

/**
 * Knobs of the build-time ranking model; the defaults were tuned (coordinate search) on the tuning half of
 * bench/discovery.ts only.
 */
export interface DiscoveryTuning {
  /** BM25F weight of each chunk kind (0 drops the kind from the skill-level score). */
  fieldWeights: Record<ChunkKind, number>
  /** BM25F length normalisation of each kind. */
  fieldB: Record<ChunkKind, number>
  k1: number
  /** Chunk kinds whose terms are expanded with bridging vocabulary, with the weight of that source. */
  expandFrom: Partial<Record<ChunkKind, number>>
  /** Weight of each WordNet tier (SYNONYM_TIERS order; missing tiers weigh 0); all 0 disables expansion. */
  tierWeights: readonly number[]
  /** Weight of GloVe nearest neighbours (data/discovery-neighbours.json), times their cosine; 0 disables them. */
  neighbourWeight: number
  /** Neighbours below this cosine are ignored. */
  neighbourMinCos: number
  /** Overall weight of expansion terms against direct terms. */
  expansionWeight: number
  /** Most expansion terms kept per skill (index size bound). */
  maxExpansion: number
  /** Largest summed bridge weight of one expansion term (before expansionWeight). */
  expansionCap: number
  /**
   * 0: a bridge weighs as its source field (expandFrom); 1: as the source term's saturated weight in the
   * skill times its IDF; between: a mix.
   */
  expansionByTerm: number
  /** Power of the source term's normalised IDF in that weighting. */
  expansionIdfPower: number
  /** Use the stemmer (false: surface words, for the ablation). */
  stemming: boolean
  /** Characters of body, references and examples indexed per skill (see DEFAULT_TEXT_BUDGET). */
  textBudget: number
  /** The opening of SKILL.md, where a skill states its purpose: its first `leadChars` characters... */
  leadChars: number
  /** ...weigh this in place of the instructions' weight (chunks that start there). */
  leadWeight: number
  /**
   * BM25F weight of the whole document as plain BM25 sees it (name, description and the whole SKILL.md body,
   * beyond the text budget, as one field): the chunked fields favour a skill by where a word is, this field by
   * how much of the skill is about it. 0 leaves it out.
   */
  documentWeight: number
  /** Length normalisation of that field (plain BM25's). */
  documentB: number
}

export const DEFAULT_TUNING: DiscoveryTuning = {
  fieldWeights: { summary: 2.5, trigger: 0.3, instructions: 1, reference: 1.5, example: 1 },
  fieldB: { summary: 0.4, trigger: 0.3, instructions: 0.75, reference: 0.75, example: 0.75 },
  k1: 1.2,
  expandFrom: { summary: 1, trigger: 0.8, instructions: 0.3, reference: 0.6 },
  tierWeights: DEFAULT_TIER_WEIGHTS,
  // GloVe neighbours measured +0.006 MRR on the tuning half, -0.007 held out: noise, at a build-time
  // cost, so off by default (bench/discovery.ts reports them as an addition).
  neighbourWeight: 0,
  neighbourMinCos: 0.65,
  expansionWeight: 0.15,
  maxExpansion: 160,
  expansionCap: 2,
  expansionByTerm: 0,
  expansionIdfPower: 1,
  stemming: true,
  textBudget: DEFAULT_TEXT_BUDGET,
  leadChars: 0,
  leadWeight: 1,
  documentWeight: 0.25,
  documentB: 0.75,
}

export interface BuildDiscoveryOptions {
  /** A real embedding model (`Options.embed`) in place of the deterministic hashing embedding. */
  embed?: Options['embed'] | null
  /** Ranking knobs (benchmarks and ablations); the defaults are the shipped model. */
  tuning?: Partial<DiscoveryTuning>
  /**
   * Pre-stemmed bridging table (tests); default: data/discovery-synonyms.json merged with
   * data/discovery-neighbours.json.
   */
  synonyms?: SynonymTable
}

const EMBED_BATCH = 64
/** Target size of a postings shard (raw bytes; 4/3 of that in base64): a query loads one shard per term, so small. */
const POSTING_SHARD_BYTES = 4096
/** Above any chunk's distinct term count (a 900-character chunk has at most 450 terms). */
const POSITIONS = 1 << 16

/** A text's provisional term ids (see Vocabulary), their counts, and its length in terms. */
interface TermCounts {
  ids: Uint32Array
  tfs: Uint32Array
  length: number
}

interface PreparedChunk extends TermCounts {
  chunk: SkillChunk
}

/** The text of the whole-document field: what plain BM25 indexes (DiscoveryTuning.documentWeight). */
function documentText(skill: ManifestSkill): string {
  const description = typeof skill.description === 'string' ? skill.description : ''
  return `${String(skill.name ?? '')}\n${description}\n${typeof skill.body === 'string' ? skill.body : ''}`
}

async function embedAll(embed: NonNullable<Options['embed']>, texts: string[]): Promise<number[][]> {
  const out: number[][] = []
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH)
    const vectors = await embed(batch)
    if (!Array.isArray(vectors) || vectors.length !== batch.length) {
      const got = Array.isArray(vectors) ? vectors.length : typeof vectors
      throw new Error(`discovery: options.embed returned ${got} vectors for ${batch.length} texts`)
    }
    out.push(...vectors)
  }
  const dim = out[0]?.length ?? 0
  for (const v of out) {
    if (!Array.isArray(v) || v.length !== dim || dim === 0 || v.some(x => !Number.isFinite(x))) {
      const got = Array.isArray(v) ? v.length : typeof v
      throw new Error(
        `discovery: options.embed must return finite vectors of one constant dimension (got ${got} and ${dim})`,
      )
    }
  }
  return out
}

/**
 * Builds the JIT discovery index of a set of skills: chunks (spec: 900 characters, 80 overlap),
 * a skill-level BM25F index with bridging vocabulary, and quantised embeddings. Deterministic for
 * the same skills and options. Throws only when a user-supplied `embed` misbehaves.
 */
export async function buildDiscoveryIndex(
  skills: ManifestSkill[],
  options: BuildDiscoveryOptions = {},
): Promise<DiscoveryIndex> {
  const tuning: DiscoveryTuning = { ...DEFAULT_TUNING, ...options.tuning }
  const analyse = (text: string) => analyze(text, tuning.stemming)
  const expand = (tuning.tierWeights.some(w => w > 0) || tuning.neighbourWeight > 0) && tuning.expansionWeight > 0
  const synonyms = !expand
    ? (new Map() as SynonymTable)
    : (options.synonyms ?? (await bridgingTable(tuning.tierWeights, tuning.neighbourWeight, tuning.neighbourMinCos)))

  // 1. Chunk and analyse every skill; terms become integer ids at once (no per-chunk maps kept).
  const vocab = new Vocabulary()
  const counts = new Accumulator()
  const tokenTerms = new TokenTerms(vocab, tuning.stemming)
  const termCounts = (text: string): TermCounts => {
    let length = 0
    const ascii = scanAsciiTokens(text, (start, end) => {
      const id = tokenTerms.lookup(text, start, end)
      if (id >= 0) {
        counts.add(id, 1)
        length++
      }
    })
    if (!ascii) {
      const tokens = analyse(text)
      for (const t of tokens) counts.add(vocab.id(t), 1)
      length = tokens.length
    }
    const ids = Uint32Array.from(counts.touched)
    const tfs = Uint32Array.from(ids, id => counts.values[id])
    counts.reset()
    return { ids, tfs, length }
  }
  const prepared: PreparedChunk[][] = skills.map(skill =>
    chunkSkill(skill, tuning.textBudget).map(chunk => ({ chunk, ...termCounts(chunk.text) })),
  )
  const documents = skills.map(skill =>
    tuning.documentWeight > 0 ? termCounts(documentText(skill)) : termCounts(''),
  )
  const avgDocument = documents.reduce((a, d) => a + d.length, 0) / (documents.length || 1) || 1

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
  const acc = new Accumulator()
  const sourceOf = new Accumulator()
  const added = new Accumulator()
  // A term's bridges resolved to ids once per build, not once per skill that uses the term.
  const bridges = new Map<number, { ids: Uint32Array, weights: Float64Array }>()
  const bridgesOf = (t: number) => {
    let b = bridges.get(t)
    if (!b) {
      const related = [...(synonyms.get(vocab.terms[t]) ?? [])]
      b = { ids: Uint32Array.from(related, ([r]) => vocab.id(r)), weights: Float64Array.from(related, ([, w]) => w) }
      bridges.set(t, b)
    }
    return b
  }
  // Direct terms first: their document frequencies weigh the expansions (a skill's rare terms say more about it).
  const direct = prepared.map((chunks, i) => {
    for (const c of chunks) {
      const k = c.chunk.kind
      const norm = 1 - tuning.fieldB[k] + tuning.fieldB[k] * (lengths[i][k] / avg[k])
      const lead = k === 'instructions' && c.chunk.start < tuning.leadChars
      const w = (lead ? tuning.leadWeight : tuning.fieldWeights[k]) / norm
      const source = tuning.expandFrom[k] ?? 0
      for (let j = 0; j < c.ids.length; j++) {
        acc.add(c.ids[j], w * c.tfs[j])
        // Max over kinds: the accumulator only adds, so add the difference.
        if (source > sourceOf.get(c.ids[j]))
          sourceOf.add(c.ids[j], source - sourceOf.get(c.ids[j]))
      }
    }
    const doc = documents[i]
    const docWeight = tuning.documentWeight / (1 - tuning.documentB + tuning.documentB * (doc.length / avgDocument))
    for (let j = 0; j < doc.ids.length; j++) acc.add(doc.ids[j], docWeight * doc.tfs[j])
    // Terms with weight 0 (a kind weighted 0) still count as present, as they did with maps.
    const ids = Uint32Array.from(acc.touched)
    const weights = Float64Array.from(ids, t => acc.values[t])
    const sources = Float64Array.from(ids, t => sourceOf.values[t])
    acc.reset()
    sourceOf.reset()
    return { ids, weights, sources }
  })
  const directDf = new Uint32Array(vocab.terms.length)
  for (const { ids } of direct) {
    for (const t of ids) directDf[t]++
  }
  const maxIdf = Math.log(1 + (skills.length + 0.5) / 0.5)
  // `direct`: how many of `ids` the skill holds itself; the rest are bridged.
  const skillTerms: Array<{ ids: Uint32Array, weights: Float64Array, direct: number }> = direct.map(
    ({ ids: directIds, weights: directWeights, sources }) => {
      const present = new Set(directIds)
      const ranked: Array<[number, number]> = []
      if (expand) {
        for (let i = 0; i < directIds.length; i++) {
          const t = directIds[i]
          let source = sources[i]
          if (tuning.expansionByTerm > 0) {
            // Translation-model weighting: a bridge to a word counts as much as the skill's own use of the
            // term it comes from.
            const idf = Math.log(1 + (skills.length - directDf[t] + 0.5) / (directDf[t] + 0.5)) / maxIdf
            const sat = directWeights[i] / (tuning.k1 + directWeights[i])
            source
              = (1 - tuning.expansionByTerm) * source + tuning.expansionByTerm * sat * idf ** tuning.expansionIdfPower
          }
          if (!(source > 0))
            continue
          const { ids, weights } = bridgesOf(t)
          for (let j = 0; j < ids.length; j++) {
            if (!present.has(ids[j]))
              added.add(ids[j], source * weights[j])
          }
        }
        ranked.push(...topExpansions(added, vocab.terms, tuning.maxExpansion))
        added.reset()
      }
      const ids = new Uint32Array(directIds.length + ranked.length)
      const weights = new Float64Array(ids.length)
      ids.set(directIds)
      weights.set(directWeights)
      ranked.forEach(([t, w], j) => {
        ids[directIds.length + j] = t
        weights[directIds.length + j] = tuning.expansionWeight * Math.min(w, tuning.expansionCap)
      })
      return { ids, weights, direct: directIds.length }
    },
  )
  // Bridged terms are posted apart, as BRIDGED_PREFIX + stem: a query adds them only where its own words
  // match poorly (FindSkillsOptions.bridging).
  const bridgedIds = new Map<number, number>()
  const bridgedId = (t: number) => {
    let b = bridgedIds.get(t)
    if (b === undefined)
      bridgedIds.set(t, (b = vocab.id(BRIDGED_PREFIX + vocab.terms[t])))
    return b
  }
  const posted = skillTerms.map(({ ids, direct }) => Uint32Array.from(ids, (t, j) => (j < direct ? t : bridgedId(t))))

  // 4. Index ids are the bytewise order of terms; document frequencies over skills.
  const nVocab = vocab.terms.length
  const df = new Uint32Array(nVocab)
  for (const ids of posted) {
    for (const t of ids) df[t]++
  }
  const used: number[] = []
  for (let t = 0; t < nVocab; t++) {
    if (df[t] > 0)
      used.push(t)
  }
  used.sort((a, b) => compareBytewise(vocab.terms[a], vocab.terms[b]))
  const rank = new Int32Array(nVocab).fill(-1)
  used.forEach((t, i) => {
    rank[t] = i
  })
  const terms = used.map(t => vocab.terms[t])
  const n = skills.length
  const idf = new Float64Array(nVocab)
  // The embedding's IDF counts a stem's skills, bridged or not.
  for (let t = 0; t < nVocab; t++) {
    const f = df[t] + (bridgedIds.has(t) ? df[bridgedIds.get(t)!] : 0)
    idf[t] = Math.log(1 + (n - f + 0.5) / (f + 0.5))
  }

  // 5. Embeddings: built-in hashing from the term bags, or the user's model on the chunk texts.
  let dim = HASH_EMBEDDING_DIM
  /** Per chunk, the sign bits of its embedding (all the index keeps of chunk vectors). */
  let chunkSigns: Uint8Array[][]
  let skillVectors: Float32Array[]
  if (options.embed) {
    const flat = prepared.flat()
    const vectors = await embedAll(
      options.embed,
      flat.map(c => c.chunk.text),
    )
    dim = vectors[0]?.length ?? 0
    let at = 0
    const chunkVectors = prepared.map(chunks => chunks.map(() => normalize(Float32Array.from(vectors[at++]))))
    chunkSigns = chunkVectors.map(list => list.map(v => packSigns(v)))
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
    // Features per term id, looked up once per build rather than once per chunk.
    const feats: Array<Features | undefined> = []
    const featuresOf = (t: number) => (feats[t] ??= features(vocab.terms[t], dim))
    // One scratch vector for every chunk: only its signs are kept, and scaling does not change them.
    const scratch = new Float32Array(dim)
    chunkSigns = prepared.map(chunks =>
      chunks.map((c) => {
        scratch.fill(0)
        for (let j = 0; j < c.ids.length; j++)
          addFeatures(scratch, featuresOf(c.ids[j]), (1 + Math.log(c.tfs[j])) * idf[c.ids[j]])
        return packSigns(scratch)
      }),
    )
    skillVectors = skillTerms.map(({ ids, weights }) => {
      const v = new Float32Array(dim)
      for (let j = 0; j < ids.length; j++)
        addFeatures(v, featuresOf(ids[j]), (weights[j] / (tuning.k1 + weights[j])) * idf[ids[j]])
      return normalize(v)
    })
  }

  // 6. Encode: base64 strings (see DiscoveryIndex). Postings in CSR form, skills ascending.
  const start = new Uint32Array(terms.length + 1)
  for (const ids of posted) {
    for (const t of ids) start[rank[t] + 1]++
  }
  for (let i = 0; i < terms.length; i++) start[i + 1] += start[i]
  const fill = start.slice(0, terms.length)
  const postSkill = new Uint32Array(start[terms.length])
  const postWeight = new Uint8Array(start[terms.length])
  skillTerms.forEach(({ weights }, s) => {
    const ids = posted[s]
    for (let j = 0; j < ids.length; j++) {
      const at = fill[rank[ids[j]]]++
      postSkill[at] = s
      postWeight[at] = Math.max(1, Math.min(255, Math.round((weights[j] / (tuning.k1 + weights[j])) * 255)))
    }
  })
  // Shards of consecutive terms, cut at about POSTING_SHARD_BYTES: an app loads only those its queries touch.
  const termStats = new VarintWriter()
  const postings: string[] = []
  const postingShards: number[] = []
  let shard = new VarintWriter()
  for (let t = 0; t < terms.length; t++) {
    if (t === 0 || shard.length >= POSTING_SHARD_BYTES) {
      if (t > 0)
        postings.push(toBase64(shard.result()))
      shard = new VarintWriter()
      postingShards.push(t)
    }
    const before = shard.length
    for (let at = start[t], prev = 0; at < start[t + 1]; at++) {
      shard.write(postSkill[at] - prev)
      shard.write(postWeight[at])
      prev = postSkill[at]
    }
    termStats.write(start[t + 1] - start[t])
    termStats.write(shard.length - before)
  }
  if (terms.length)
    postings.push(toBase64(shard.result()))
  // A custom model's skill vectors stay in the head: a query may match skills by meaning alone. The
  // hashing embedding only reorders lexical candidates, so each skill's vector ends its chunk record.
  const vectorsInRecords = !options.embed
  const vectorBytes = new Uint8Array(vectorsInRecords ? 0 : n * dim)
  if (!vectorsInRecords)
    skillVectors.forEach((v, s) => vectorBytes.set(quantizeInt8(v), s * dim))

  const sources: string[] = ['']
  const sourceId = new Map<string, number>([['', 0]])
  const inline: string[][] = []
  const chunkRecords: string[] = []
  let chunkTerms = 0
  let chunkCount = 0
  prepared.forEach((chunks, s) => {
    // One record per skill, so a skill's chunks load and decode alone.
    const chunkOut = new VarintWriter(4096)
    const texts: string[] = []
    chunkOut.write(chunks.length)
    chunks.forEach((c) => {
      chunkTerms += c.length
      chunkCount++
      let source = 0
      let start = c.chunk.start
      let end = c.chunk.end
      if (c.chunk.inline) {
        texts.push(c.chunk.text)
        start = 0
        end = texts.length - 1
      }
      else {
        if (!sourceId.has(c.chunk.source)) {
          sourceId.set(c.chunk.source, sources.length)
          sources.push(c.chunk.source)
        }
        source = sourceId.get(c.chunk.source)!
      }
      // Pairs in index-id order: a numeric sort of (rank, position) keys, no comparator calls.
      const order = new Float64Array(c.ids.length)
      for (let i = 0; i < c.ids.length; i++) order[i] = rank[c.ids[i]] * POSITIONS + i
      order.sort()
      for (const v of [CHUNK_KINDS.indexOf(c.chunk.kind), source, start, end, c.length, order.length]) chunkOut.write(v)
      for (let i = 0, prev = 0; i < order.length; i++) {
        const at = order[i] % POSITIONS
        const id = rank[c.ids[at]]
        chunkOut.write(id - prev)
        chunkOut.write(c.tfs[at])
        prev = id
      }
    })
    // Sign bits after every chunk's varints, so the varints decode in one pass.
    for (const signs of chunkSigns[s]) chunkOut.raw(signs)
    if (vectorsInRecords)
      chunkOut.raw(quantizeInt8(skillVectors[s]))
    chunkRecords.push(toBase64(chunkOut.result()))
    inline.push(texts)
  })

  return {
    format: DISCOVERY_FORMAT,
    analyzer: ANALYZER_VERSION,
    stemming: tuning.stemming,
    bm25: {
      k1: tuning.k1,
      b: 0.75,
      avgChunkLength: Math.round((chunkCount ? chunkTerms / chunkCount : 1) * 1000) / 1000,
    },
    embedding: { model: options.embed ? 'custom' : HASH_EMBEDDING_MODEL, dim },
    skills: skills.map(s => s.name),
    terms: terms.join('\n'),
    termStats: toBase64(termStats.result()),
    postingShards,
    postings,
    vectors: toBase64(vectorBytes),
    sources,
    chunks: chunkRecords,
    inline,
  }
}
