import type Picomatch from 'picomatch'
import type { CustomRule } from '../core/options'
import type { LineIndex } from './lines'
import type { RawFinding } from './types'
import { lazy } from '../core/lazy'
import { excerptAt } from './excerpt'

const picomatch = lazy<typeof Picomatch>('picomatch')

export interface CompiledCustom {
  rule: CustomRule
  re: RegExp | null
  match: (path: string) => boolean
  error: string | null
}

export function compileCustom(rules: readonly CustomRule[] | undefined): CompiledCustom[] {
  return (rules ?? []).map((rule) => {
    let re: RegExp | null = null
    let error: string | null = null
    try {
      const src = typeof rule.pattern === 'string' ? rule.pattern : rule.pattern.source
      const flags = typeof rule.pattern === 'string' ? '' : rule.pattern.flags.replace(/[gmy]/g, '')
      re = new RegExp(src, `${flags}gm`)
    }
    catch (e) {
      error = (e as Error).message
    }
    const globs = rule.files === undefined ? ['**'] : Array.isArray(rule.files) ? rule.files : [rule.files]
    const match = picomatch()(globs, { dot: true })
    return { rule, re, match, error }
  })
}

/** Custom rules: the pattern is tried on every line of the matching files (first match per line). */
export function scanCustom(custom: readonly CompiledCustom[], path: string, index: LineIndex, out: RawFinding[]): void {
  for (const c of custom) {
    if (!c.re || !c.match(path))
      continue
    c.re.lastIndex = 0
    let lastLine = -1
    let guard = 0
    for (let m = c.re.exec(index.text); m && guard++ < 100_000; m = c.re.exec(index.text)) {
      if (m[0] === '') {
        c.re.lastIndex++
        continue
      }
      const line = index.lineOf(m.index)
      if (line === lastLine)
        continue
      lastLine = line
      const start = index.start(line)
      out.push({
        rule: c.rule.id,
        path,
        line: line + 1,
        column: m.index - start + 1,
        message: c.rule.message ?? `matches the project rule ${c.rule.id}`,
        excerpt: excerptAt(index.line(line), m.index - start, m[0].length),
      })
    }
  }
}
