import { excerptAt, redact } from './excerpt'
import { LineIndex } from './lines'
import { maskViews } from './mask'
import { RULE_MODULES } from './rules/index'
import type { Lang, LinePattern, RawFinding, View } from './types'

interface Compiled { rule: string; p: LinePattern; re: RegExp }

const LANGS: readonly Lang[] = ['js', 'py', 'sh', 'prose', 'text']
/** Long lines are read in windows around anchor hits, so a 1 MB line costs a bounded amount per hit. */
const WINDOW = 4096
const OVERLAP = 512

function compile(): Record<Lang, { patterns: Compiled[]; anchor: RegExp }> {
  const out = {} as Record<Lang, { patterns: Compiled[]; anchor: RegExp }>
  for (const lang of LANGS) {
    const patterns: Compiled[] = []
    const anchors: string[] = []
    for (const mod of RULE_MODULES) {
      for (const p of mod.patterns) {
        if (!p.langs.includes(lang)) continue
        const flags = p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`
        patterns.push({ rule: mod.meta.id, p, re: new RegExp(p.re.source, flags) })
        anchors.push(`(?:${p.anchor})`)
      }
    }
    out[lang] = { patterns, anchor: new RegExp(anchors.join('|'), 'gi') }
  }
  return out
}

export const COMPILED = compile()

/** A piece of a file read in one language: a whole file, or a fenced block of a markdown file. */
export interface Segment {
  path: string
  text: string
  lang: Lang
  /** 0-based file line of the segment's first line. */
  lineOffset: number
  /** Added to columns (indented fences). */
  colOffset: number
  /** JS whose AST was analysed: the token patterns the AST replaces are skipped. */
  astDone: boolean
  /** Lines (0-based, segment-relative) this scan must skip, e.g. fenced blocks inside prose. */
  skip?: (line: number) => boolean
  index?: LineIndex
}

/** Runs the line patterns of a segment: one anchor pass over the text, full patterns only on hit lines. */
export function scanSegment(seg: Segment, out: RawFinding[]): void {
  const { patterns, anchor } = COMPILED[seg.lang]
  if (!patterns.length) return
  const text = seg.text
  const index = seg.index ?? new LineIndex(text)
  let views: { noComments: string; code: string } | null = null
  const viewText = (view: View): string => {
    if (view === 'raw') return text
    views ??= maskViews(text, seg.lang)
    return views[view]
  }
  anchor.lastIndex = 0
  let lastLine = -1
  let lineText = ''
  // Rules already reported on the current line: later windows of a long line skip them.
  const done = new Set<string>()
  let m: RegExpExecArray | null
  while ((m = anchor.exec(text))) {
    if (m[0] === '') { anchor.lastIndex++; continue }
    const line = index.lineOf(m.index)
    const lineStart = index.start(line)
    const firstOfLine = line !== lastLine
    if (firstOfLine) { lineText = index.line(line); done.clear() }
    lastLine = line
    const lineEnd = lineStart + lineText.length
    if (seg.skip?.(line)) { anchor.lastIndex = lineEnd + 1; continue }
    let from = 0
    let to = lineText.length
    if (lineText.length > WINDOW) {
      from = Math.max(0, m.index - lineStart - OVERLAP)
      to = Math.min(lineText.length, from + WINDOW)
    }
    scanLine(seg, patterns, line, lineStart, from, to, viewText, index, out, done)
    // Skip the anchors the window already covered; long lines continue with an overlapping window.
    anchor.lastIndex = to >= lineText.length ? lineEnd + 1 : Math.max(m.index + 1, lineStart + to - OVERLAP)
  }
}

function scanLine(seg: Segment, patterns: Compiled[], line: number, lineStart: number, from: number, to: number,
  viewText: (v: View) => string, index: LineIndex, out: RawFinding[], done: Set<string>): void {
  const best = new Map<string, RawFinding>()
  const raw = seg.text.slice(lineStart + from, lineStart + to)
  let nextLine: string | null = null
  const next = (): string => (nextLine ??= line + 1 < index.count ? index.line(line + 1) : '')
  for (const c of patterns) {
    if ((seg.astDone && c.p.astCovered) || done.has(c.rule)) continue
    const already = best.get(c.rule)
    const view = c.p.view ?? 'raw'
    const subject = view === 'raw' ? raw : viewText(view).slice(lineStart + from, lineStart + to)
    c.re.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = c.re.exec(subject))) {
      if (m[0] === '') { c.re.lastIndex++; continue }
      if (already && already.column <= m.index + from + 1 + seg.colOffset) break
      if (c.p.accept && !c.p.accept(m, subject, next)) continue
      const column = from + m.index + 1 + seg.colOffset
      const matched = raw.slice(m.index, m.index + m[0].length)
      best.set(c.rule, {
        rule: c.rule,
        path: seg.path,
        line: seg.lineOffset + line + 1,
        column,
        message: c.p.message,
        excerpt: c.rule === 'secrets' ? redact(m[1] ?? matched) : excerptAt(raw, m.index, m[0].length),
        ...(c.p.severity ? { severity: c.p.severity } : {}),
      })
      break
    }
  }
  for (const f of best.values()) {
    done.add(f.rule)
    out.push(f)
  }
}
