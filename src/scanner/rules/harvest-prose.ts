import type { LinePattern, RawFinding } from '../types'
import type { Unit } from './code-units'
import { excerptAt } from '../excerpt'
import { SOURCE_HINT, storeKinds } from './leak-sources'

/**
 * Harvesting asked for in prose: a verb that gathers, at the start of an instruction, and either several
 * kinds of credential store in the same paragraph (or its list) or every secret of the machine.
 */

const VERB = String.raw`(?:collect|gather|harvest|enumerate|extract|dump|grab|locate|find|search|look\s+for|scan`
  + String.raw`|read|cat`
  + String.raw`|copy|retrieve|fetch|print|output|list|back\s+up|archive|compress|zip|bundle|export|include|steal`
  + String.raw`|pull|open)`
// The verb leads an instruction: a line or list item, a sentence, or follows "then", "you must"...
const IMPERATIVE = new RegExp(
  String.raw`(?:^[\s>*_#-]*(?:\d+[.)]\s*)?(?:\*\*[^*\n]{0,40}\*\*:?\s*)?|[.:;!,]\s+|\b(?:then|and|also|first|next`
  + String.raw`|please|now|must|should|to)\s+)`
  + String.raw`(?:(?:quietly|silently|carefully|recursively|automatically)\s+)?${VERB}\b`,
  'i',
)
const NEGATED = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|not\s+allowed|refuse|avoid)\b/i

/** Paragraphs of a prose unit (a list and the lead line ending in `:` belong to one). */
function paragraphs(unit: Unit): Array<{ first: number, lines: string[] }> {
  const out: Array<{ first: number, lines: string[] }> = []
  let cur: { first: number, lines: string[] } | null = null
  for (let i = 0; i < unit.lines.length; i++) {
    const line = unit.lines[i]!
    if (!line.trim()) {
      if (cur && !/:\s*$/.test(cur.lines.at(-1)!)) {
        out.push(cur)
        cur = null
      }
      continue
    }
    if (/^\s{0,3}#{1,6}\s/.test(line)) {
      if (cur)
        out.push(cur)
      cur = null
      continue
    }
    cur ??= { first: unit.first + i, lines: [] }
    while (cur.first + cur.lines.length < unit.first + i) cur.lines.push('')
    cur.lines.push(line)
  }
  if (cur)
    out.push(cur)
  return out
}

/** Paragraphs that tell the agent to gather two or more kinds of credential store. */
export function proseHarvest(units: readonly Unit[]): RawFinding[] {
  const out: RawFinding[] = []
  for (const unit of units) {
    if (unit.lang !== 'prose')
      continue
    for (const p of paragraphs(unit)) {
      const text = p.lines.join('\n')
      if (!SOURCE_HINT.test(text))
        continue
      const kinds = storeKinds(text)
      if (kinds.length < 2)
        continue
      const at = p.lines.findIndex(l => IMPERATIVE.test(l) && !NEGATED.test(l))
      if (at === -1 || p.lines.every(l => NEGATED.test(l) && storeKinds(l).length))
        continue
      const line = p.lines[at]!
      const col = line.length - line.trimStart().length
      out.push({
        rule: 'credential_harvesting',
        path: unit.path,
        line: p.first + at + 1,
        column: col + 1,
        message: `instructs the agent to gather ${kinds.length} kinds of credential store (${kinds.join(', ')})`,
        excerpt: excerptAt(line, col, Math.min(80, line.length - col)),
      })
    }
  }
  return out
}

const SECRETS = String.raw`(?:(?:saved|stored|cached)\s+)?(?:api\s+keys|tokens|credentials|secrets|passwords`
  + String.raw`|private\s+keys`
  + String.raw`|ssh\s+keys|cookies|session\s+tokens|auth\s+tokens|access\s+keys|environment\s+variables)`
const PLACE = String.raw`(?:home\s+director(?:y|ies)|~\/|\$HOME|(?:this|the|user['’]?s?)\s+(?:machine|computer`
  + String.raw`|system|laptop|profile)`
  + String.raw`|browser|keychain|environment|disk|file\s*system|dotfiles|config(?:uration)?\s+files)`

const COMMITTED = /\b(?:hard-?coded|committed|leaked\s+in|in\s+(?:the\s+)?(?:code|repo\w*|source|commits?|diffs?))\b/i

export const HARVEST_PROSE: readonly LinePattern[] = [
  {
    anchor: 'api keys|tokens|credentials|secrets|passwords|private keys|ssh keys|cookies|access keys|environment',
    re: new RegExp(
      String.raw`\b${VERB}\b[^.\n]{0,40}?\b(?:all|every|any|each)\s+(?:of\s+)?(?:the\s+)?(?:user['’]?s\s+)?${SECRETS}`
      + String.raw`(?:[^.\n]|\.(?=\S)){0,80}?${PLACE}`,
      'i',
    ),
    langs: ['prose', 'text'],
    message: 'instructs the agent to gather every secret of the machine',
    // A secret scanner looks for secrets committed to code; that is review, not harvesting.
    accept: m => !COMMITTED.test(m[0]),
  },
]
