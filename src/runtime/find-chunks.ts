import type { ManifestSkill } from '../core/types'
import type { Prepared } from './find-prepared'
import type { ChunkMatch } from './find-types'
import { CHUNK_KINDS } from './discovery-index'
import { idfOf, recordBytes } from './find-prepared'

/*
 * Chunk ranking: a returned skill's chunks scored for the query straight from its chunk record,
 * and the text of the best ones.
 */

/** Where a chunk's text is: skill index, source path and [start, end) in it, or its inline text. */
interface ChunkAt {
  skill: number
  source: string
  start: number
  end: number
  /** A frontmatter chunk's text, carried by the index itself. */
  inline?: string
}

/** A chunk's text from the manifest's skills; null for a bare index or a source the manifest lacks. */
function chunkText(p: Prepared, { skill: s, source, start, end, inline }: ChunkAt): string | null {
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
export function signTable(qv: Float32Array, dim: number): Float64Array {
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

/**
 * The varint at `cursor` in bytes[..end) as decodeVarints reads it, advancing `cursor`; -1 when the
 * data ends first.
 */
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
export function matchChunks(
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
      text: chunkText(p, { skill: s, source: path, start, end, inline: text }),
      score: Math.round(score * 1e4) / 1e4,
    }
  })
}
