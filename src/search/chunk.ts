import type { ManifestSkill } from '../core/types'
import type { ChunkKind } from '../runtime/discovery-index'
import { analyzeMarkdown } from '../core/markdown'

/** Spec "Multi-Chunk Sliding-Window Decomposition": at most 900 characters, 80 characters of overlap. */
export const CHUNK_MAX = 900
export const CHUNK_OVERLAP = 80
/**
 * Characters of SKILL.md body, then references, then examples indexed per skill (the frontmatter is always
 * indexed whole): a small skill is indexed whole, a large one only as far as its opening, where it states
 * its purpose, not as far as its appendices, which match almost any query. Chosen on the tuning half of the
 * realistic discovery set (bench/discovery.ts); see DiscoveryTuning.textBudget.
 */
export const DEFAULT_TEXT_BUDGET = 12_000
/** Bounds for hostile skills: huge frontmatter must not blow up the index that ships in bundles. */
export const MAX_SOURCE_CHARS = 16_000
export const MAX_CHUNKS_PER_SKILL = 48

export interface SkillChunk {
  kind: ChunkKind
  /** `SKILL.md` (body), `frontmatter`, or the file path. */
  source: string
  /** Offsets into the source text; for frontmatter chunks, into `text` itself. */
  start: number
  end: number
  text: string
  /** Frontmatter chunks are synthesised: their text must travel inline. */
  inline: boolean
}

/** [start, end) windows of at most `max` characters, consecutive windows sharing `overlap` characters. */
export function slidingWindows(length: number, max = CHUNK_MAX, overlap = CHUNK_OVERLAP): Array<[number, number]> {
  if (length <= 0)
    return []
  const out: Array<[number, number]> = []
  const step = Math.max(1, max - overlap)
  for (let start = 0; ; start += step) {
    const end = Math.min(length, start + max)
    out.push([start, end])
    if (end >= length)
      return out
  }
}

/**
 * Markdown split into blocks at ATX headings (core/markdown: outside code fences, comments and code spans),
 * consecutive small blocks packed together up to `max` characters, oversized blocks cut into sliding windows.
 */
export function markdownBlocks(text: string, max = CHUNK_MAX, overlap = CHUNK_OVERLAP): Array<[number, number]> {
  const starts: number[] = [0]
  for (const h of analyzeMarkdown(text).headings) {
    if (h.kind === 'atx' && h.offset > 0)
      starts.push(h.offset)
  }
  const sections: Array<[number, number]> = starts.map((s, i) => [
    s,
    i + 1 < starts.length ? starts[i + 1] : text.length,
  ])
  const out: Array<[number, number]> = []
  let current: [number, number] | null = null
  for (const [s, e] of sections) {
    if (current && e - current[0] <= max) {
      current[1] = e
      continue
    }
    if (current)
      out.push(current)
    if (e - s <= max) {
      current = [s, e]
    }
    else {
      for (const [ws, we] of slidingWindows(e - s, max, overlap)) out.push([s + ws, s + we])
      current = null
    }
  }
  if (current)
    out.push(current)
  // Blocks that are only whitespace carry nothing to search.
  return out.filter(([s, e]) => text.slice(s, e).trim() !== '')
}

/** Frontmatter value -> list of strings (a string, or a list of strings/numbers); anything else -> []. */
export function stringList(value: unknown): string[] {
  if (typeof value === 'string')
    return value.trim() ? [value.trim()] : []
  if (!Array.isArray(value))
    return []
  return value
    .filter(v => typeof v === 'string' || typeof v === 'number')
    .map(v => String(v).trim())
    .filter(Boolean)
}

/** A frontmatter key, at the top level or (when the engine moved an unrecognised key) under `metadata`. */
export function frontmatterValue(skill: ManifestSkill, key: string): unknown {
  const fm = (skill.frontmatter ?? {}) as Record<string, unknown>
  if (fm[key] !== undefined)
    return fm[key]
  const meta = fm.metadata
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>)[key] : undefined
}

/** Tags may be a list or a comma/space separated string. */
function tagList(value: unknown): string[] {
  const list = stringList(value)
  return list.length === 1 && typeof value === 'string' ? list[0].split(/[,\s]+/).filter(Boolean) : list
}

/**
 * Every chunk of one skill, in a fixed order: summary, instructions, triggers, references, examples. The body,
 * references and examples share `budget` characters, in that order: each source is cut where the budget ends.
 */
export function chunkSkill(skill: ManifestSkill, budget = DEFAULT_TEXT_BUDGET): SkillChunk[] {
  const chunks: SkillChunk[] = []
  let left = Math.max(0, budget)
  const inline = (kind: ChunkKind, text: string) => {
    if (chunks.length >= MAX_CHUNKS_PER_SKILL)
      return
    for (const [s, e] of slidingWindows(Math.min(text.length, MAX_SOURCE_CHARS))) {
      chunks.push({ kind, source: 'frontmatter', start: s, end: e, text: text.slice(s, e), inline: true })
    }
  }
  const fromText = (kind: ChunkKind, source: string, text: string, markdown: boolean) => {
    // Chunks past the budget are dropped anyway: do not cut (and slice) the rest of the sources.
    if (chunks.length >= MAX_CHUNKS_PER_SKILL || left <= 0)
      return
    const bounded = text.length > left ? text.slice(0, left) : text
    left -= bounded.length
    const ranges = markdown ? markdownBlocks(bounded) : slidingWindows(bounded.length)
    for (const [s, e] of ranges)
      chunks.push({ kind, source, start: s, end: e, text: bounded.slice(s, e), inline: false })
  }

  const summary = [
    String(skill.name ?? ''),
    typeof skill.description === 'string' ? skill.description : '',
    ...['tags', 'keywords'].map(k => tagList(frontmatterValue(skill, k)).join(', ')),
    ...['category', 'domain'].map(k => stringList(frontmatterValue(skill, k)).join(', ')),
  ]
    .filter(Boolean)
    .join('\n')
  inline('summary', summary)
  if (typeof skill.body === 'string')
    fromText('instructions', 'SKILL.md', skill.body, true)
  for (const trigger of stringList(frontmatterValue(skill, 'triggers'))) inline('trigger', trigger)
  for (const doc of skill.tree?.references ?? []) {
    if (typeof doc.text === 'string')
      fromText('reference', doc.path, doc.text, /\.(md|markdown|mdx|txt)$/i.test(doc.path))
  }
  for (const doc of skill.tree?.examples ?? []) {
    if (typeof doc.text === 'string')
      fromText('example', doc.path, doc.text, /\.(md|markdown|mdx)$/i.test(doc.path))
  }
  return chunks.slice(0, MAX_CHUNKS_PER_SKILL)
}
