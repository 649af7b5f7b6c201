import type { LinePattern, RawFinding } from '../types'
import type { Unit } from './code-units'
import { excerptAt } from '../excerpt'
import { paragraphs, prepareWrapped } from './code-units'
import { namesSensitive, sourceHinted, storeKinds } from './leak-sources'

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
  + String.raw`(?:(?:quietly|silently|carefully|recursively|automatically)\s+)?${VERB}(?:s|es)?\b`,
  'i',
)
const NEGATED = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not|not\s+allowed|refuse|avoid)\b/i
// "Avoid" and "refuse" govern their own clause only: "to avoid back-and-forth, start by asking..." is an order.
const NEGATED_ORDER = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not)\b/i
const NEGATED_CLAUSE = /\b(?:not\s+allowed|refuse|avoid)\b(?![^,;]*[,;])/i
const negatedAsk = (before: string): boolean => NEGATED_ORDER.test(before) || NEGATED_CLAUSE.test(before)

/**
 * The instruction that starts at a line: its sentence (wrapped over the next lines), or, when it leads a
 * list (`collect the following:`), the rest of the paragraph.
 */
function instruction(lines: readonly string[], at: number): string {
  const lead = lines[at]!
  if (/:\s*$/.test(lead))
    return lines.slice(at).join('\n')
  let end = at
  while (end + 1 < lines.length && !/[.!?]\s*$/.test(lines[end]!)) end++
  return lines.slice(at, end + 1).join('\n')
}

/** Paragraphs that tell the agent to gather two or more kinds of credential store. */
export function proseHarvest(units: readonly Unit[]): RawFinding[] {
  const out: RawFinding[] = []
  for (const unit of units) {
    if (unit.lang !== 'prose')
      continue
    for (const p of paragraphs(unit)) {
      const all = p.lines.join('\n')
      if (!sourceHinted(all) || !namesSensitive(all))
        continue
      for (let at = 0; at < p.lines.length; at++) {
        const line = p.lines[at]!
        if (!IMPERATIVE.test(line) || NEGATED.test(line))
          continue
        const kinds = storeKinds(instruction(p.lines, at))
        if (kinds.length < 2)
          continue
        const col = line.length - line.trimStart().length
        out.push({
          rule: 'credential_harvesting',
          path: unit.path,
          line: p.first + at + 1,
          column: col + 1,
          message: `instructs the agent to gather ${kinds.length} kinds of credential store (${kinds.join(', ')})`,
          excerpt: excerptAt(line, col, Math.min(80, line.length - col)),
        })
        break
      }
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

/** Asking the user to hand their secrets to the chat, where the skill (and its transcript) reads them. */
export const PHISHING: readonly LinePattern[] = [
  {
    anchor: 'paste|share|send|provide|enter|type|give|post',
    re: new RegExp(
      String.raw`\b(?:ask|tell|have|get|prompt|instruct)(?:s|ed|ing)?\s+(?:the\s+)?(?:user|them|him|her)\s+`
      + String.raw`(?:to\s+|for\s+)?`
      // A gap may hold periods inside words and paths (`~/.ssh/id_ed25519`), not a sentence's end.
      + String.raw`(?:paste|share|send|provide|enter|type|give|post)\b(?:[^.\n]|\.(?=\S)){0,140}?`
      + String.raw`\b(?:tokens?|api[\s_-]?keys?`
      + String.raw`|secret(?:\s+access)?\s+keys?|passwords?|private\s+keys?|credentials|seed\s+phrases?|2fa\s+codes?`
      + String.raw`|recovery\s+codes?)\b(?:[^.\n]|\.(?=\S)){0,100}?\b(?:in|into|to)\s+(?:the\s+|this\s+|your\s+)?`
      + String.raw`(?:chat|conversation|reply|message|prompt|thread)\b`,
      'i',
    ),
    langs: ['prose', 'text'],
    message: 'asks the user to paste secrets into the conversation',
    accept: (m, line) => !negatedAsk(line.slice(Math.max(0, m.index - 60), m.index + 8)),
  },
  {
    // The place first: "ask the user to paste into this chat their password and backup codes".
    anchor: 'paste|share|send|provide|enter|type|give|post',
    re: new RegExp(
      String.raw`\b(?:ask|tell|have|get|prompt|instruct)(?:s|ed|ing)?\s+(?:the\s+)?(?:user|them|him|her)\s+`
      + String.raw`(?:to\s+|for\s+)?(?:paste|share|send|provide|enter|type|give|post)\s+(?:\w+\s+)?(?:in|into|to)\s+`
      + String.raw`(?:the\s+|this\s+|your\s+)?(?:chat|conversation|reply|message|prompt|thread)\b`
      + String.raw`(?:[^.\n]|\.(?=\S)){0,80}?\b(?:tokens?|api[\s_-]?keys?|passwords?|private\s+keys?|credentials`
      + String.raw`|seed\s+phrases?|2fa\s+codes?|recovery\s+codes?|backup\s+(?:verification\s+)?codes?)\b`,
      'i',
    ),
    langs: ['prose', 'text'],
    message: 'asks the user to paste secrets into the conversation',
    accept: (m, line) => !negatedAsk(line.slice(Math.max(0, m.index - 60), m.index + 8)),
  },
]

prepareWrapped(PHISHING)

export const HARVEST_PROSE: readonly LinePattern[] = [
  ...PHISHING,
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
  {
    anchor: String.raw`env(?:ironment)?\s+var`,
    re: new RegExp(
      String.raw`\b${VERB}\b[^.\n]{0,40}?\b(?:all|every|any|each)\s+(?:of\s+)?(?:the\s+)?`
      + String.raw`env(?:ironment)?\s+var(?:iable)?s?\b`
      + String.raw`[^.\n]{0,60}?\b(?:whose|with|that|named|containing|matching|like)\b[^.\n]{0,60}?`
      + String.raw`\b(?:keys?|tokens?|secrets?|passwords?|credentials?|auth)\b`,
      'i',
    ),
    langs: ['prose', 'text'],
    message: 'instructs the agent to collect the environment\'s secrets',
  },
]
