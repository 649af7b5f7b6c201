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

/** `1 error`, `3 warnings`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

export function formatSummary(diagnostics: readonly Diagnostic[], skills: number, color = false): string {
  const c = pc.createColors(color)
  const counts = countBySeverity(diagnostics)
  const text = `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, `
    + `${plural(counts.info, 'note')} in ${plural(skills, 'skill')}`
  return counts.error ? c.red(`✖ ${text}`) : counts.warning ? c.yellow(`⚠ ${text}`) : c.green(`✔ ${text}`)
}

/** What the per-skill table shows beside the counts. */
export interface SkillLine {
  name: string
  capabilities: readonly string[]
}

export interface ReportOptions extends FormatOptions {
  /** Every warning and note with its frame and hint, every repeat listed (else one line each, repeats folded). */
  verbose?: boolean
  /** The audited skills: a table of those with errors or warnings closes the report. */
  skills?: readonly SkillLine[]
  /** One-line warnings and notes shown per skill and rule before the rest fold into a line. @default 3 */
  repeats?: number
  /**
   * Everything the audit found, when only some of it is listed: the summary and the table count these, so
   * they tell the whole state, not the part shown (the console's digest of a report written to a file counts
   * what the file holds). @default the diagnostics listed
   */
  counted?: readonly Diagnostic[]
}

const SEVERITIES = ['error', 'warning', 'info'] as const
/** Repeats of one code in one file shown in full before the rest are folded into a line. */
const SHOWN_REPEATS = 3

/**
 * A report a person reads: errors first (with code frames), then warnings and notes (one line each unless
 * `verbose`); repeats of one code in one file folded after the first few; a table of the skills with findings;
 * the summary line last, counting every diagnostic (or `counted`).
 */
export function formatReport(
  diagnostics: readonly Diagnostic[],
  skills: number,
  options: ReportOptions = {},
): string {
  const c = pc.createColors(options.color ?? false)
  // Blocks: a diagnostic with its frame stands apart; one-line warnings and notes run together.
  const blocks: Array<{ text: string, line: boolean }> = []
  for (const severity of SEVERITIES) {
    const full = severity === 'error' || Boolean(options.verbose)
    const groups = new Map<string, Diagnostic[]>()
    for (const d of diagnostics) {
      if (d.severity !== severity)
        continue
      // Errors fold per file; warnings and notes per skill (a capability used across a skill's scripts).
      const key = `${d.code}\0${full ? (d.file ?? '') : (d.skill ?? d.file ?? '')}`
      groups.set(key, [...(groups.get(key) ?? []), d])
    }
    for (const group of groups.values()) {
      const shown = options.verbose ? group : group.slice(0, full ? SHOWN_REPEATS : (options.repeats ?? SHOWN_REPEATS))
      for (const d of shown)
        blocks.push(full ? { text: formatDiagnostic(d, options), line: false } : { text: formatLine(d, c), line: true })
      const rest = group.slice(shown.length)
      if (rest.length)
        blocks.push({ text: c.dim(`  ... ${rest.length} more ${group[0]!.code}: ${foldedPlaces(rest)}`), line: true })
    }
  }
  const counted = options.counted ?? diagnostics
  const table = skillTable(diagnostics, counted, options.skills)
  if (table)
    blocks.push({ text: table, line: false })
  blocks.push({ text: formatSummary(counted, skills, options.color), line: false })
  let out = ''
  blocks.forEach((b, i) => {
    out += i === 0 ? b.text : `${b.line && blocks[i - 1]!.line ? '\n' : '\n\n'}${b.text}`
  })
  return `${out}\n`
}

/** `scripts/a.py:3, scripts/b.py:7, ...`: where folded repeats are, the first few. */
function foldedPlaces(rest: readonly Diagnostic[]): string {
  const places = rest.slice(0, 4).map(d => (d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : '(project)'))
  return `${places.join(', ')}${rest.length > 4 ? ', ...' : ''}`
}

/**
 * `warning scan/fs_write skills/x/a.py:3:6 opens a file for writing`: a warning or note on one line, and below it
 * the message's detail lines, indented as in the full form: a drift's `~ file` list is what it is about.
 */
function formatLine(d: Diagnostic, c: ReturnType<typeof pc.createColors>): string {
  const paint = d.severity === 'warning' ? c.yellow : c.cyan
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}` : '(project)'
  const [message, ...details] = reveal(d.message).split('\n')
  return [`${paint(d.severity)} ${c.dim(d.code)} ${where} ${message}`, ...details.map(l => `  ${l}`)].join('\n')
}

/** Errors and warnings per skill. */
function countBySkill(diagnostics: readonly Diagnostic[]): Map<string, { errors: number, warnings: number }> {
  const counts = new Map<string, { errors: number, warnings: number }>()
  for (const d of diagnostics) {
    if (!d.skill || d.severity === 'info')
      continue
    const row = counts.get(d.skill) ?? { errors: 0, warnings: 0 }
    if (d.severity === 'error')
      row.errors++
    else row.warnings++
    counts.set(d.skill, row)
  }
  return counts
}

/**
 * The skills with errors or warnings listed, worst first, with their detected capabilities and every problem
 * `counted`; then how many skills have none at all (a skill whose problems are counted but not listed is in
 * neither).
 */
function skillTable(
  listed: readonly Diagnostic[],
  counted: readonly Diagnostic[],
  skills: readonly SkillLine[] | undefined,
): string {
  if (!skills)
    return ''
  const all = countBySkill(counted)
  const counts = new Map([...countBySkill(listed)].map(([name, n]) => [name, all.get(name) ?? n]))
  if (!counts.size)
    return ''
  const caps = new Map(skills.map(s => [s.name, s.capabilities.join(', ')]))
  const rows = [...counts]
    .sort((a, b) => b[1].errors - a[1].errors || b[1].warnings - a[1].warnings || (a[0] < b[0] ? -1 : 1))
    .map(([name, n]) => [name, String(n.errors), String(n.warnings), caps.get(name) || '-'])
  const head = ['skill', 'errors', 'warnings', 'capabilities']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map(r => r[i]!.length)))
  const pad = (cell: string, i: number): string =>
    (i === 1 || i === 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))
  const line = (cells: string[]): string => cells.map(pad).join('  ').trimEnd()
  // A removed skill's drift names a skill that is no longer audited: count the audited ones only.
  const clean = skills.filter(s => !all.has(s.name)).length
  return [line(head), ...rows.map(line), ...(clean > 0 ? [`(${clean} more skill(s) without errors or warnings)`] : [])]
    .join('\n')
}
