import type * as CodeFrame from '@babel/code-frame'
import type { Diagnostic } from './types'
import pc from 'picocolors'
import { countBySeverity } from './diagnostics'
import { lazy } from './lazy'

const codeFrame = lazy<typeof CodeFrame>('@babel/code-frame')

export const PREFIX = '[unplugin-skills]'

export interface FormatOptions {
  /** File texts for code frames, keyed by project-relative path. */
  sources?: ReadonlyMap<string, string>
  color?: boolean
}

const MAX_LINE = 160
// Bidi controls, zero-width and tag characters reorder or hide text in a terminal (Trojan Source): show them.
const INVISIBLE
  // eslint-disable-next-line no-control-regex -- control characters (but tab and newline) are what it finds
  = /[\u0000-\u0008\u000B-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g
export function reveal(text: string): string {
  return text.replace(INVISIBLE, c => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`)
}

/** `error frontmatter/yaml skills/x/SKILL.md:3:14` + message, code frame and hint. */
export function formatDiagnostic(d: Diagnostic, options: FormatOptions = {}): string {
  const c = pc.createColors(options.color ?? false)
  const paint = d.severity === 'error' ? c.red : d.severity === 'warning' ? c.yellow : c.cyan
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}` : '(project)'
  const lines = [`${paint(c.bold(d.severity))} ${c.dim(d.code)} ${c.bold(where)}${d.cwe ? c.dim(` ${d.cwe}`) : ''}`]
  lines.push(
    ...reveal(d.message)
      .split('\n')
      .map(l => `  ${l}`),
  )
  const source = d.file && d.line ? options.sources?.get(d.file) : undefined
  if (source !== undefined && d.line) {
    const frame = frameOf(source, d.line, d.column ?? 0, options.color ?? false)
    if (frame) {
      lines.push(
        frame
          .split('\n')
          .map(l => `  ${l}`)
          .join('\n'),
      )
    }
  }
  else if (d.excerpt) {
    lines.push(c.dim(`  > ${d.excerpt}`))
  }
  if (d.hint)
    lines.push(`  ${c.green('hint:')} ${d.hint}`)
  return lines.join('\n')
}

/** A code frame that stays small on hostile input: long lines are clipped around the column. */
function frameOf(source: string, line: number, column: number, color: boolean): string {
  const all = source.split('\n')
  if (line > all.length)
    return ''
  let col = column
  const window = all.map((text, i) => {
    if (Math.abs(i + 1 - line) > 2)
      return ''
    let shown = text.replace(/\r$/, '')
    if (shown.length > MAX_LINE) {
      const start = i + 1 === line ? Math.max(0, Math.min(column - MAX_LINE / 2, shown.length - MAX_LINE)) : 0
      if (i + 1 === line)
        col = column - start + (start > 0 ? 1 : 0)
      shown = `${(start > 0 ? '…' : '') + shown.slice(start, start + MAX_LINE)}…`
    }
    return reveal(shown)
  })
  try {
    return codeFrame().codeFrameColumns(
      window.join('\n'),
      { start: { line, column: col || undefined } },
      { highlightCode: false, forceColor: color, linesAbove: 2, linesBelow: 2 },
    )
  }
  catch {
    return ''
  }
}

export function formatSummary(diagnostics: readonly Diagnostic[], skills: number, color = false): string {
  const c = pc.createColors(color)
  const counts = countBySeverity(diagnostics)
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
  const text = `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, `
    + `${plural(counts.info, 'note')} in ${plural(skills, 'skill')}`
  return counts.error ? c.red(`✖ ${text}`) : counts.warning ? c.yellow(`⚠ ${text}`) : c.green(`✔ ${text}`)
}

/** Every diagnostic with its frame, then the one-line summary. */
export function formatReport(diagnostics: readonly Diagnostic[], skills: number, options: FormatOptions = {}): string {
  const parts = diagnostics.map(d => formatDiagnostic(d, options))
  parts.push(formatSummary(diagnostics, skills, options.color))
  return `${parts.join('\n\n')}\n`
}
