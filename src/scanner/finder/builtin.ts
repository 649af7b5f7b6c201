import type { LinePattern } from '../types'
import type { FinderTables } from './tables'
import { AST_TRIGGER_TOKENS } from '../js/trigger'
import { FOREIGN_WORD_TOKENS } from '../rules/foreign-prose'
import { RULE_MODULES } from '../rules/index'
import { SKILL_HIT_TOKENS } from '../rules/skill-hits'
import { lineFinderTokens } from '../text-scan'
import { literalTestFinders } from './literal-test'
import { buildTables } from './tables'

/** Every finder the built-in rules use: the line patterns' (per language), the AST trigger's, the visitors'. */
export function builtinFinders(): Array<{ tokens: readonly string[], ignoreCase: boolean }> {
  return [
    ...lineFinderTokens().map(tokens => ({ tokens, ignoreCase: true })),
    { tokens: AST_TRIGGER_TOKENS, ignoreCase: false },
    { tokens: SKILL_HIT_TOKENS, ignoreCase: true },
    { tokens: FOREIGN_WORD_TOKENS, ignoreCase: false },
    // The rules' module-level `literalTest` calls, made when RULE_MODULES was imported.
    ...literalTestFinders(),
  ]
}

/** Their tables, built here (what `scripts/build-scanner-tables.ts` stores). */
export function buildBuiltinTables(): Array<{ tokens: readonly string[], ignoreCase: boolean, tables: FinderTables }> {
  return builtinFinders().map(({ tokens, ignoreCase }) => {
    const tables = buildTables(tokens, ignoreCase)
    if (!tables)
      throw new Error(`the analyser cannot take a built-in finder's tokens: ${tokens.join('|').slice(0, 200)}`)
    return { tokens, ignoreCase, tables }
  })
}

/** Every built-in line pattern (what `scripts/build-scanner-tables.ts` ships the conditions of). */
export function builtinPatterns(): LinePattern[] {
  return RULE_MODULES.flatMap(m => m.patterns)
}
