import type { Severity, SkillFile, SkillSource } from '../../core/types'
import type { Fence } from '../markdown'
import type { Lang, LinePattern, RawFinding } from '../types'
import { markdownOf } from '../../core/markdown'
import { classify } from '../classify'
import { inlineSkillCode } from '../constants'
import { LineIndex } from '../lines'
import { findFences, markCautionary } from '../markdown'

/**
 * A piece of code a whole-skill check reads: a script file, or a fenced block of a markdown file. Its text,
 * and its lines (split on first read: most chunks fail a check's first test), the first at `lineOffset`.
 */
export class CodeChunk {
  private split: string[] | null = null
  constructor(
    readonly file: SkillFile,
    readonly lang: Exclude<Lang, 'prose'>,
    readonly text: string,
    readonly lineOffset: number,
  ) {}

  get lines(): string[] {
    return (this.split ??= this.text.split('\n'))
  }
}

/** Fenced blocks longer than this are left to the line patterns. */
const MAX_LINES = 5000

const isMarkdown = (path: string): boolean => /\.(?:md|mdx|markdown)$/i.test(path)

/** Several rules read the same chunks: they are made once per skill. */
const cache = new WeakMap<SkillSource, CodeChunk[]>()

/** The code of a skill: every non-markdown text file, and every fenced block of its markdown files. */
export function codeChunks(skill: SkillSource): CodeChunk[] {
  let list = cache.get(skill)
  if (!list)
    cache.set(skill, (list = makeChunks(skill)))
  return list
}

function makeChunks(skill: SkillSource): CodeChunk[] {
  const chunks: CodeChunk[] = []
  for (const file of skill.files) {
    const text = file.text
    if (text === null || text.length > 1024 * 1024)
      continue
    if (!isMarkdown(file.path)) {
      chunks.push(chunkOf(skill, file, classify(file.path, text).lang as CodeChunk['lang'], text, 0))
      continue
    }
    if (!text.includes('```') && !text.includes('~~~'))
      continue
    // The body of a fence from its offsets: no split of the whole file.
    const raw = markdownOf(file)?.fences ?? []
    findFences(file).forEach((f, k) => {
      const m = raw[k]!
      if (f.close - f.open > MAX_LINES || f.close <= f.open)
        return
      const from = text.indexOf('\n', m.start) + 1
      const to = m.closed ? text.lastIndexOf('\n', m.end - 1) : m.end
      if (from <= 0 || to < from)
        return
      const lang = f.lang === 'prose' ? 'text' : f.lang === 'ts' || f.lang === 'jsx' || f.lang === 'tsx' ? 'js' : f.lang
      chunks.push(chunkOf(skill, file, lang, text.slice(from, to).replace(/\r$/, ''), f.open + 1))
    })
  }
  return chunks
}

/** A chunk; a shell or build one with its constants put back (`inlineSkillCode`). */
function chunkOf(skill: SkillSource, file: SkillFile, lang: CodeChunk['lang'], text: string, first: number): CodeChunk {
  if ((lang !== 'sh' && lang !== 'text') || !text.includes('$'))
    return new CodeChunk(file, lang, text, first)
  const lines = text.split('\n')
  const inlined = inlineSkillCode(skill, file.path, lang, lines, first)
  return new CodeChunk(file, lang, inlined === lines ? text : inlined.join('\n'), first)
}

/** A finding of a whole-skill check, to be marked like the line patterns' (markdown warnings quote attacks). */
export interface ChunkFinding {
  chunk: CodeChunk
  /** 0-based line in the chunk, and 0-based column. */
  line: number
  column: number
  message: string
  excerpt: string
  severity: Severity
}

/** Raw findings of a rule from chunk findings, with markdown "never do this" context marked. */
export function toRaw(rule: string, found: ChunkFinding[]): RawFinding[] {
  const out: RawFinding[] = []
  const byFile = new Map<SkillFile, RawFinding[]>()
  for (const f of found) {
    const raw: RawFinding = {
      rule,
      path: f.chunk.file.path,
      line: f.chunk.lineOffset + f.line + 1,
      column: f.column + 1,
      message: f.message,
      excerpt: f.excerpt.trim().slice(0, 80),
      severity: f.severity,
    }
    out.push(raw)
    if (isMarkdown(f.chunk.file.path)) {
      const list = byFile.get(f.chunk.file) ?? []
      list.push(raw)
      byFile.set(f.chunk.file, list)
    }
  }
  for (const [file, list] of byFile) {
    const fences: Fence[] = findFences(file)
    markCautionary(list, new LineIndex(file.text ?? ''), fences, file.path)
  }
  return out
}

/**
 * One pattern as two: `error` where `judge` says so, `warning` where it says `warning`, nothing where it
 * says null (the line scan keeps one finding per rule and line, so the two never both report a match).
 */
export function bySeverity(
  p: Omit<LinePattern, 'severity' | 'accept'>,
  judge: (match: RegExpExecArray, line: string) => Severity | null,
): LinePattern[] {
  return (['error', 'warning'] as const).map(severity => ({
    ...p,
    severity,
    accept: (m: RegExpExecArray, line: string) => judge(m, line) === severity,
  }))
}
