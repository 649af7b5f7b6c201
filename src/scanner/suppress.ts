import type { Suppression } from '../core/types'

export interface Directive extends Suppression {
  /** 1-based line the directive silences. */
  target: number
  /** 1-based column of the directive (for diagnostics). */
  column: number
  valid: boolean
  problem: string | null
}

const DIRECTIVE = /skills-ignore-next-line\b(.*)/g

/**
 * Finds `skills-ignore-next-line <rule>[, <rule>] -- <reason>` in any comment syntax (`//`, `#`, `<!-- -->`, `/* *\/`).
 * `known` decides which rule ids are real; a directive without a reason or with an unknown rule is invalid.
 */
export function findDirectives(
  text: string,
  path: string,
  known: (rule: string) => boolean,
  lineOf: (offset: number) => number,
  lineStart: (line: number) => number,
): Directive[] {
  if (!text.includes('skills-ignore-next-line'))
    return []
  const out: Directive[] = []
  DIRECTIVE.lastIndex = 0
  for (let m = DIRECTIVE.exec(text); m; m = DIRECTIVE.exec(text)) {
    const line0 = lineOf(m.index)
    let rest = m[1]!.split('\n')[0]!.replace(/\r$/, '')
    rest = rest.replace(/\s*(?:-->|\*\/)\s*$/, '')
    const sep = rest.indexOf('--')
    const rulesPart = (sep === -1 ? rest : rest.slice(0, sep)).trim()
    const reason = sep === -1 ? '' : rest.slice(sep + 2).trim()
    const rules = rulesPart
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(r => r.replace(/^scan\//, ''))
    const base = { file: path, line: line0 + 1, target: line0 + 2, column: m.index - lineStart(line0) + 1, reason }
    const unknown = rules.filter(r => !known(r))
    const problem = !rules.length
      ? 'names no rule'
      : unknown.length
        ? `names an unknown rule: ${unknown.join(', ')}`
        : !reason
            ? 'has no reason (write `-- <reason>`)'
            : null
    if (!rules.length)
      out.push({ ...base, rule: '', valid: false, problem })
    for (const rule of rules) out.push({ ...base, rule, valid: problem === null, problem })
    DIRECTIVE.lastIndex = m.index + m[0].length
  }
  return out
}
