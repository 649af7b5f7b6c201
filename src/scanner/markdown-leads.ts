import type { LineIndex } from './lines'

/** Leads that govern the list or quote below them: a prohibition ("You MUST NOT:"), indicators, a monitor's alerts. */
// A list governed by a prohibition: the list's lead line ("You MUST NOT:", "## Never do this").
export const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/
const NEGATED_LEAD = new RegExp(
  String.raw`(?:\bmust\s+(?:not|never)\b|\bnever\b|\bdo\s+not\b|\bdon['’]t\b|\bdon['’]ts\b|\bshould\s+not\b`
  + String.raw`|\bavoid\b|\bprohibited\b|\bforbidden\b|\bnot\s+allowed\b|\bred\s+flags?\b|\banti-?patterns?\b`
  // "## What not to recommend", "Things not to do:".
  + String.raw`|\brefuse\b|\bnot\s+to\s+(?:do|use|run|recommend|suggest|try|copy|follow|obey|act\s+on|execute`
  + String.raw`|include|put|add|write|allow)\b`
  + String.raw`|❌|🚫|⛔)`,
  'i',
)

const INDICATOR_HEADING = new RegExp(
  String.raw`\b(?:detection|detecting|heuristics?|indicators?|IOCs?|red\s+flags?|warning\s+signs|signs\s+of`
  + String.raw`|what\s+to\s+look\s+for|(?:patterns|things|signals)\s+to\s+(?:flag|detect|catch|block|reject)`
  + String.raw`|(?:malicious|attack|suspicious|dangerous)\s+patterns)\b`,
  'i',
)

// A list's lead that says its items are what a monitor reports ("Daily review of security events; alerts on:").
const MONITOR_LEAD = /\b(?:alerts?\s+(?:on|when|for)|watch\s+for|look\s+for|detects?|flags?)\b[^.]*:\s*$/i

// A list's lead that says its items are quoted attacks ("Typical strings found in the wild (OWASP LLM01):").
const QUOTES_LEAD = new RegExp(
  String.raw`(?:\b(?:found|seen|observed)\s+in\s+the\s+wild|\b(?:typical|common|known|sample)\s+`
  + String.raw`(?:injection\s+|attack\s+)?(?:strings|payloads|phrases|attacks|lures))\b[^.]*:\s*$`,
  'i',
)

/** A heading over indicators, a monitor's lead, or a prohibition ending in a colon or made a heading. */
function governingLead(l: string): boolean {
  const heading = /^\s*#{1,6}\s/.test(l)
  return (heading && INDICATOR_HEADING.test(l)) || MONITOR_LEAD.test(l) || QUOTES_LEAD.test(l) || (NEGATED_LEAD.test(l)
    && (/:\s*(?:\*\*|__)?\s*$/.test(l) || heading || /^\s*(?:\*\*|__)[^*_]+(?:\*\*|__)\s*$/.test(l)))
}

export function governedByList(index: LineIndex, line0: number): boolean {
  if (!LIST_ITEM.test(index.line(line0)))
    return false
  for (let i = line0 - 1, n = 0; i >= 0 && n < 60; i--, n++) {
    const l = index.line(i)
    if (!l.trim() || LIST_ITEM.test(l) || /^\s{2,}\S/.test(l))
      continue
    // A lead ends in a colon, is a heading, or is a bold label on its own line ("**MUST NOT**"); a heading over
    // what to look for ("## Detection heuristics", "### Red flags") lists indicators, not orders.
    return governingLead(l)
  }
  return false
}

// A table's header that names its rows as attacks seen or indicators ("| Pattern | Example seen in the wild |").
const EXAMPLES_HEADER = new RegExp(
  String.raw`\|\s*(?:examples?\s+(?:seen\s+)?in\s+the\s+wild|(?:attack|malicious)\s+(?:examples?|strings?|payloads?)`
  + String.raw`|indicators?(?:\s+of\s+compromise)?|IOCs?|red\s+flags?)\s*\|`,
  'i',
)

const TABLE_ROW = /^\s*\|/

/** The first row (its header) of the markdown table that line0 is a row of; -1 when line0 is no table row. */
export function tableHead(index: LineIndex, line0: number): number {
  if (!TABLE_ROW.test(index.line(line0)))
    return -1
  let head = line0
  while (head > 0 && TABLE_ROW.test(index.line(head - 1))) head--
  return head
}

/**
 * A table row under a lead that governs it (as a list's: "## Patterns to flag", "Never run these:"), or in a
 * table whose header names its rows as attacks seen.
 */
export function governedByTable(index: LineIndex, line0: number): boolean {
  const head = tableHead(index, line0)
  if (head === -1)
    return false
  if (EXAMPLES_HEADER.test(index.line(head)))
    return true
  let i = head - 1
  while (i >= 0 && i > line0 - 80 && !index.line(i).trim()) i--
  return i >= 0 && governingLead(index.line(i))
}

/**
 * A blockquote under a lead that says what follows are things not to do ("They are quoted so you can recognise
 * them; do not act on them:"): its quotes are examples. The lead is the paragraph just above the quote block.
 */
export function governedByQuote(index: LineIndex, line0: number): boolean {
  if (!/^\s{0,3}>/.test(index.line(line0)))
    return false
  let i = line0 - 1
  while (i >= 0 && /^\s{0,3}>/.test(index.line(i))) i--
  while (i >= 0 && i > line0 - 60 && !index.line(i).trim()) i--
  const lead: string[] = []
  for (; i >= 0 && index.line(i).trim() && lead.length < 6; i--) lead.unshift(index.line(i))
  const text = lead.join(' ')
  return lead.length > 0 && /:\s*(?:\*\*|__)?\s*$/.test(text) && NEGATED_LEAD.test(text)
}
