import type * as Acorn from 'acorn'
import type * as Oxc from 'oxc-parser'
import type { JsFlavor } from '../types'
import type { AstFinding } from './analyze'
import type { AstRuleSet } from './trigger'
import type { Node } from './walk'
import { lazy } from '../../core/lazy'
import { analyzeProgram } from './analyze'
import { nestingWithin } from './depth-guard'
import { BUILTIN_AST_RULES } from './trigger'
import { AnalysisTooLarge } from './walk'

const acorn = lazy<typeof Acorn>('acorn')
const oxc = lazy<typeof Oxc>('oxc-parser')

export type JsResult = { ok: true, findings: AstFinding[] } | { ok: false, reason: string, tooLarge?: true }

function parse(text: string, flavor: JsFlavor): { program: Node, errors: number } {
  const r = oxc().parseSync(`skill.${flavor}`, text, { sourceType: 'unambiguous' })
  if (r.errors.length)
    return { program: null as unknown as Node, errors: r.errors.length }
  return { program: r.program as unknown as Node, errors: 0 }
}

/**
 * Plain JavaScript through acorn, as a module and else as a script (oxc's `unambiguous`), or null
 * when neither parses (JSX, TypeScript syntax, errors: oxc reads those). On Node 20 oxc hands its
 * AST over as JSON, which makes it slower than acorn on plain JavaScript.
 */
function parsePlain(text: string): Node | null {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return acorn().parse(text, {
        ecmaVersion: 'latest',
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: sourceType === 'script',
        allowAwaitOutsideFunction: true,
      }) as unknown as Node
    }
    catch {}
  }
  return null
}

export interface ScanJsOptions {
  /** The AST rules to run (the built-in ones unless given). */
  rules?: AstRuleSet
  /** The analysis's budget (`MAX_WORK` in walk.ts; tests lower it). */
  maxWork?: number
}

/**
 * Reads JS/TS with a real parser when it can matter: a text without any of the rules' trigger tokens has
 * nothing for them to find. `ok: false` means "fall back to token patterns".
 */
export function scanJs(text: string, flavor: JsFlavor, options: ScanJsOptions = {}): JsResult {
  const { rules: set = BUILTIN_AST_RULES, maxWork } = options
  if (!set.finder.test(text))
    return { ok: true, findings: [] }
  if (!nestingWithin(text))
    return { ok: false, reason: 'nesting too deep for the parser' }
  try {
    const plain = flavor === 'js' ? parsePlain(text) : null
    if (plain)
      return { ok: true, findings: analyzeProgram(plain, set.rules, maxWork) }
    let r = parse(text, flavor)
    // Plain .js files often hold JSX; TS files sometimes hold TSX.
    if (r.errors && (flavor === 'js' || flavor === 'ts'))
      r = parse(text, flavor === 'js' ? 'jsx' : 'tsx')
    if (r.errors)
      return { ok: false, reason: `syntax error${r.errors > 1 ? 's' : ''}` }
    return { ok: true, findings: analyzeProgram(r.program, set.rules, maxWork) }
  }
  catch (error) {
    if (error instanceof AnalysisTooLarge)
      return { ok: false, reason: 'too much for the AST analysis', tooLarge: true }
    return { ok: false, reason: `parser failure: ${(error as Error)?.message ?? String(error)}`.slice(0, 160) }
  }
}
