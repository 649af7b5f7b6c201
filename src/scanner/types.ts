import type { Capability, FindingKind, Severity, SkillSource } from '../core/types'
import type { AstRule } from './js/ast-rule'

/** Public description of a rule or a meta rule (a finding about the scan itself, of no kind). */
export interface RuleInfo {
  id: string
  kind?: FindingKind
  /** Capability rules: the capability they detect. */
  capability?: Capability
  severity: Severity
  /** `CWE-95` style. */
  cwe: string
  description: string
  hint: string
}

/** Public description of a rule: SARIF, docs and `check --rules` read it. */
export interface RuleMeta extends RuleInfo {
  /**
   * `capability`: what a skill can do (a fact to review; its severity follows the declaration, the profile
   * and `deny`). `threat`: what an attack tries to do (a verdict; nothing the skill declares lowers it).
   */
  kind: FindingKind
  /** Threat rules: the default severity. Capability rules: the severity of an undeclared use in `enterprise`. */
  severity: Severity
}

/**
 * The language a piece of text is read as. `prose` is markdown outside fenced code. Ruby (`rb`) and Go (`go`)
 * also get every pattern written for all of js, py and sh (see `servesLang`).
 */
export type Lang = 'js' | 'py' | 'sh' | 'rb' | 'go' | 'prose' | 'text'

/**
 * Whether a pattern runs on a language: the languages it names, and Ruby and Go for a pattern that names every
 * other code language (what a pattern means for any code, such as a secret or `rm -rf /`, means for them too).
 */
export function servesLang(langs: readonly Lang[], lang: Lang): boolean {
  if (langs.includes(lang))
    return true
  return (lang === 'rb' || lang === 'go') && langs.includes('js') && langs.includes('py') && langs.includes('sh')
}

/** The dialect a JavaScript text is parsed as (TypeScript and JSX included). */
export type JsFlavor = 'js' | 'jsx' | 'ts' | 'tsx'

/** Which copy of the text a pattern sees: as written, without comments, or without comments and string contents. */
export type View = 'raw' | 'noComments' | 'code'

/** A line pattern: `anchor` is a cheap regex fragment that every match must contain (combined into one prefilter). */
export interface LinePattern {
  anchor: string
  re: RegExp
  langs: readonly Lang[]
  view?: View
  message: string
  /** Overrides the rule's default severity for this pattern (only while the user did not override the rule). */
  severity?: Severity
  /** JS only: the rule's AST visitors cover this pattern; it runs only when the file could not be parsed. */
  astCovered?: boolean
  /**
   * What the line (or window) must also contain for a finding, wherever the match is: tested before the
   * pattern runs, and its literals join the pattern's gate (a line without them is skipped at the hit).
   */
  lineGate?: RegExp
  /**
   * Post-check on a match (e.g. placeholder secrets); false drops it. `next(n)` reads the next n lines of the
   * paragraph (one when n is left out), joined by spaces.
   */
  accept?: (match: RegExpExecArray, line: string, next: (lines?: number) => string) => boolean
}

/** A rule module: metadata, line patterns, and what the rule reads in a JS/TS syntax tree or a whole skill. */
export interface RuleModule {
  meta: RuleMeta
  patterns: readonly LinePattern[]
  /** JS/TS: its parse triggers and AST visitors (run by js/analyze with every other rule's, in one walk). */
  ast?: AstRule
  /**
   * Whole-skill checks: what no single line shows (a name, a binary file, a value filled in one block and
   * sent in another). Reads `skill.files[].text` only; returns findings of this rule.
   */
  visitSkill?: (skill: SkillSource) => RawFinding[]
  /** Whether what the skill is about makes this error of the rule a warning (the product's own installer). */
  lowerInSkill?: (finding: RawFinding, skill: SkillSource) => boolean
}

/** A finding before it becomes a Diagnostic: position inside the skill file. */
export interface RawFinding {
  rule: string
  path: string
  line: number
  column: number
  message: string
  excerpt: string
  severity?: Severity
  /** Set by the markdown policy: mentioned as a warning ("never do this"), reported as info. */
  cautionary?: boolean
}
