import type { Finder } from '../finder'
import type { RuleModule } from '../types'
import type { AstRuleUse } from './ast-rule'
import { buildFinder, lazyFinder, splitAlternatives } from '../finder'
import { RULE_MODULES } from '../rules/index'

/** The AST rules one JS scan runs, and the trigger that tells whether a text is worth parsing for them. */
export interface AstRuleSet {
  rules: readonly AstRuleUse[]
  /** The union of the rules' triggers: a text it does not match has nothing for them to find. */
  trigger: RegExp
  /** `trigger.test` at literal-search speed (same answer); its tables are built on the first test. */
  finder: Finder
}

/**
 * The AST rules of some rule modules, in their order. The trigger is the union of their triggers in that order,
 * each alternative once (rules share some): the built-in rules' tokens are what `finder/builtin.ts` ships tables for.
 */
export function astRuleSet(modules: readonly RuleModule[]): AstRuleSet {
  const rules = modules.flatMap(m => (m.ast ? [{ id: m.meta.id, ast: m.ast }] : []))
  const tokens = [...new Set(rules.flatMap(r => r.ast.triggers.flatMap(t => splitAlternatives(t))))]
  // A rule set without triggers parses nothing.
  const trigger = new RegExp(tokens.length ? tokens.join('|') : '(?!)')
  return { rules, trigger, finder: lazyFinder(() => buildFinder(tokens.length ? tokens : ['(?!)'], false)) }
}

/** The built-in rules' AST set. */
export const BUILTIN_AST_RULES: AstRuleSet = astRuleSet(RULE_MODULES)

/** Tokens without which no built-in AST rule can fire: files without any of them skip the (slow) parse. */
export const AST_TRIGGER: RegExp = BUILTIN_AST_RULES.trigger
export const AST_TRIGGER_TOKENS: readonly string[] = splitAlternatives(AST_TRIGGER.source)
export const AST_TRIGGER_FINDER: Finder = BUILTIN_AST_RULES.finder
