import type { RuleInfo, RuleMeta } from './types'
/**
 * What the rest of the audit knows of the rules without loading them: the built-in rules' metadata (id, kind,
 * severity, CWE, description, hint) and the meta rules'. Options are checked and reports written with it, and
 * the scanner itself (its rules, patterns and parser) is loaded only when a skill has to be scanned: a build
 * whose skills all come from the cache never loads it. `data/rule-catalog.json` is what
 * `scripts/generate-rule-catalog.ts` copies from the rule modules; test/scanner/catalog.test.ts fails when it
 * is stale.
 */
import catalog from '../../data/rule-catalog.json'

/** The built-in rules, in the order the scanner runs them. */
export const RULES: readonly RuleMeta[] = catalog.rules as RuleMeta[]

/** Findings about the scan itself rather than the skill's code. */
export const META_RULES: readonly RuleInfo[] = [
  {
    id: 'unknown-capability',
    severity: 'warning',
    cwe: 'CWE-1059',
    description:
      'A `capabilities` entry is not in the vocabulary (network, fs:write, process, env, secrets, dynamic-code).',
    hint: 'Use one of: network, fs:write, process, env, secrets, dynamic-code.',
  },
  {
    id: 'unused-capability',
    severity: 'info',
    cwe: 'CWE-250',
    description:
      'A capability is declared but the scanner found no use of it (over-broad declaration; a Guardian MAY deny it).',
    hint: 'Remove the capability from the frontmatter if the skill does not need it.',
  },
  {
    id: 'suppression-invalid',
    severity: 'warning',
    cwe: 'CWE-1059',
    description:
      'A `skills-ignore-next-line` comment has no reason or names an unknown rule, so it suppresses nothing.',
    hint: 'Write `skills-ignore-next-line <rule> -- <why this is safe>`.',
  },
  {
    id: 'file-too-large',
    severity: 'warning',
    cwe: 'CWE-400',
    description:
      'A text file is larger than `scanner.maxTextSize`; it was scanned line by line in bounded windows, without '
      + 'the JS parser.',
    hint: 'Split the file, or raise `scanner.maxTextSize` after review.',
  },
  {
    id: 'analysis-too-large',
    severity: 'warning',
    cwe: 'CWE-400',
    description:
      'A JavaScript/TypeScript file needs more than the AST analysis\'s budget (20M steps; real bundles need a few '
      + 'million at most); it was scanned with token patterns instead, which do not see evasions such as a module '
      + 'name split in two.',
    hint: 'Review what makes the file this large to analyse (generated or padded code), and split it.',
  },
  {
    id: 'parse-fallback',
    severity: 'info',
    cwe: 'CWE-1059',
    description:
      'A JavaScript/TypeScript file could not be parsed (syntax error or nesting too deep); it was scanned with '
      + 'token patterns instead.',
    hint: 'Fix the syntax error so the AST rules can read the file.',
  },
]

const BY_ID = new Map<string, RuleInfo>([...RULES, ...META_RULES].map(r => [r.id, r]))

/** Built-in and meta rule metadata by id (custom rules are not included). */
export function ruleMeta(id: string): RuleInfo | undefined {
  return BY_ID.get(id)
}
