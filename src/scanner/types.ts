import type { Severity } from '../core/types'

/** Public description of a rule: SARIF, docs and `check --rules` read it. */
export interface RuleMeta {
  id: string
  severity: Severity
  /** `CWE-95` style. */
  cwe: string
  description: string
  hint: string
}

/** The language a piece of text is read as. `prose` is markdown outside fenced code. */
export type Lang = 'js' | 'py' | 'sh' | 'prose' | 'text'

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
  /** JS only: the AST pass covers this pattern; it runs only when the file could not be parsed. */
  astCovered?: boolean
  /**
   * What the line (or window) must also contain for a finding, wherever the match is: tested before the
   * pattern runs, and its literals join the pattern's gate (a line without them is skipped at the hit).
   */
  lineGate?: RegExp
  /** Post-check on a match (e.g. placeholder secrets); false drops it. */
  accept?: (match: RegExpExecArray, line: string, next: () => string) => boolean
}

/** A rule module: metadata plus its line patterns (AST rules add theirs in js/analyze). */
export interface RuleModule {
  meta: RuleMeta
  patterns: readonly LinePattern[]
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
