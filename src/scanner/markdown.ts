import type { SkillFile } from '../core/types'
import type { LineIndex } from './lines'
import type { Lang, RawFinding } from './types'
import { frontmatterEnd, markdownOf } from '../core/markdown'
import { governedByList, governedByQuote, governedByTable, LIST_ITEM, tableHead } from './markdown-leads'

export interface Fence {
  /** 0-based line of the opening fence. */
  open: number
  /** 0-based line of the closing fence (or the last line when unclosed). */
  close: number
  info: string
  lang: Lang | 'ts' | 'jsx' | 'tsx'
  indent: number
}

const LANG_OF: Record<string, Fence['lang']> = {
  'js': 'js',
  'javascript': 'js',
  'mjs': 'js',
  'cjs': 'js',
  'node': 'js',
  'jsx': 'jsx',
  'ts': 'ts',
  'typescript': 'ts',
  'mts': 'ts',
  'cts': 'ts',
  'tsx': 'tsx',
  'py': 'py',
  'python': 'py',
  'python3': 'py',
  'py3': 'py',
  'ipython': 'py',
  'sh': 'sh',
  'bash': 'sh',
  'shell': 'sh',
  'zsh': 'sh',
  'console': 'sh',
  'terminal': 'sh',
  'shell-session': 'sh',
  'shellsession': 'sh',
  'powershell': 'sh',
  'ps1': 'sh',
  'pwsh': 'sh',
  'ps': 'sh',
  'bat': 'sh',
  'cmd': 'sh',
  'batch': 'sh',
  'fish': 'sh',
  'ksh': 'sh',
  'rb': 'rb',
  'ruby': 'rb',
  'go': 'go',
  'golang': 'go',
  'md': 'prose',
  'markdown': 'prose',
}

/**
 * The fenced code blocks of a markdown file (core/markdown: CommonMark fences), with the language their
 * info string names: its first word, up to a space, a backtick or `{` (`js{1,3}`), lowercased.
 */
export function findFences(file: SkillFile): Fence[] {
  return (markdownOf(file)?.fences ?? []).map((f) => {
    const info = /^[^\s`{]*/.exec(f.info)![0].toLowerCase()
    return { open: f.openLine, close: f.closeLine, info, lang: LANG_OF[info] ?? 'text', indent: f.column }
  })
}

// A warning that *mentions* an attack is documentation. The marker must govern the match:
// before it in the same sentence, or leading the line right above a fenced block.
const LEAD_SAME_LINE
  = /(?:\bnever\b(?!\s+mind)|\b(?:do|must|should)\s+(?:\*\*|__|[*_])?not\b|\bdon['’]t\b|\bnot\s+safe\b|❌|🚫|⛔)/gi
const LEAD_ABOVE_BLOCK = new RegExp(
  String.raw`^[\s>*_#\-:|]*(?:never\b(?!\s+mind)|do\s+not\b|don['’]t\b|bad\b|unsafe\b|insecure\b|dangerous\b|wrong\b`
  + String.raw`|anti-?pattern\b|avoid\b|malicious\b|vulnerable\b|vulnerability\b|exploit(?:able|ed)?\b|attacker\b`
  + String.raw`|attack\s+(?:example|payload|string)|non-?compliant\b|before\s*\(?(?:vulnerable|insecure|unsafe)\b`
  + String.raw`|examples?\s*:?\s*(?:of\s+)?(?:an?\s+)?(?:vulnerable|insecure|dangerous|unsafe|malicious|bad)\b`
  + String.raw`|examples?\s+of\s+(?:\w+\s+){0,3}?(?:attacks?|malicious|injections?|phishing|payloads?)`
  + String.raw`|❌|🚫|⛔|⚠️?\s*(?:never|do\s+not|don['’]t|dangerous|insecure|unsafe))`,
  'i',
)
const QUOTED_ATTACK = new RegExp(
  String.raw`\b(?:detect\w*|flag\w*|block\w*|reject\w*|filter\w*|attack\w*|inject\w*|malicious|adversar\w*|exploit\w*`
  + String.raw`|phrases?\s+(?:like|such\s+as)|such\s+as|e\.g\.|for\s+example|jailbreak\w*|refus\w*|declin\w*`
  + String.raw`|untrusted|treat\w*|avoid\w*|says?|contains?|claims?|resist\w*|report\w*`
  + String.raw`|(?:never|not)\s+(?:follow|obey|comply))\b`,
  'i',
)

export const CAUTION_RULES = new Set([
  'remote_exec',
  'dangerous_shell',
  'prompt_injection',
  'exfiltration',
  'obfuscation',
  'concealment',
  'security_control_disablement',
  'agent_config_tampering',
  'dns_exfiltration',
  'credential_harvesting',
  'encoded_payload',
  'reverse_shell',
  'crypto_mining',
  'supply_chain',
])
/**
 * Capability rules lowered only inside a fenced example that a marker calls bad or vulnerable: such a block
 * documents code, it is not the skill's own.
 */
const EXAMPLE_RULES = new Set(['dynamic_eval', 'child_process', 'network_access', 'fs_write'])

// Inside a fence: a comment that labels the lines below it (up to a blank line) or its own line as bad code.
const EXAMPLE_COMMENT = new RegExp(
  String.raw`(?:^|\s)(?:#|\/\/|--\s|\/\*)\s*(?:(?:❌|🚫|⛔|⚠️)\s*)?(?:dangerous|vulnerable|vulnerability|bad|insecure`
  + String.raw`|unsafe|wrong|non-?compliant|attack(?:er)?|exploit\w*|ruleid|don['’]t|do\s+not|never|avoid)\b|❌|🚫|⛔`,
  'i',
)

// The skill's own uninstall steps remove the hooks it installed ("## Uninstall": `pre-commit uninstall`).
const THREAT_HEADING
  = /\b(?:threat\s+models?|threats|attack\s+(?:surface|vectors?|examples?|patterns?)|known\s+attacks?)\b/i
const UNINSTALL_HEADING = /^(?:\d+[.)]\s*)?(?:uninstall(?:ing|ation)?|removal|removing|teardown|rollback)\b/i

/**
 * What says a quoted phrase is an example: its line, the line before (a sentence wrapped in two), and for a
 * table row the table's header ("| Attack | Example |").
 */
function quoteContext(index: LineIndex, line0: number): string {
  const text = index.line(line0)
  let context = text
  if (line0 > 0 && index.line(line0 - 1).trim())
    context += ` ${index.line(line0 - 1)}`
  if (/^\s*\|/.test(text)) {
    let head = line0
    while (head > 0 && /^\s*\|/.test(index.line(head - 1))) head--
    context += ` ${index.line(head)}`
  }
  return context
}

function labelledInFence(index: LineIndex, fence: Fence, line0: number): boolean {
  if (EXAMPLE_COMMENT.test(index.line(line0)))
    return true
  for (let i = line0 - 1; i > fence.open; i--) {
    const l = index.line(i)
    if (!l.trim())
      return false
    if (EXAMPLE_COMMENT.test(l))
      return true
  }
  return false
}

/** Rules whose findings in inline code of prose are documentation when the line names the attack. */
const QUOTED_CODE_RULES = new Set(['exfiltration', 'dns_exfiltration', 'credential_harvesting'])
const NAMES_ATTACK = /\b(?:attack\w*|malicious|adversar\w*|exploit\w*|exfiltrat\w*)/i
// Prose that presents what it quotes as something to find in samples or logs, not to run.
const INDICATOR = new RegExp(
  String.raw`\b(?:attackers?|malware|intrusions?|look\s+for|indicators?\s+(?:of|such|like)|IOCs?|detects?`
  + String.raw`|detection\s+of|signatures?\s+(?:of|for|such|like)|captured\s+(?:by|in|from)`
  + String.raw`|seen\s+in\s+(?:the\s+)?(?:wild|logs|samples)`
  + String.raw`|alerts?\s+(?:often\s+|usually\s+|typically\s+|may\s+)?(?:contain|show|include|carry)`
  // "Typical layers: `eval(atob(...))`": a catalogue of the forms an analyst meets.
  + String.raw`|(?:typical|common)\s+(?:layers?|patterns?|forms?|payloads?|tricks?|techniques?))\b`,
  'i',
)
/** The lines above whose sentence runs on into this one (up to three, none ending a sentence or a lead). */
function runOnAbove(index: LineIndex, line0: number): string {
  let out = ''
  for (let i = line0 - 1; i >= 0 && i >= line0 - 3; i--) {
    const l = index.line(i)
    if (!l.trim() || /^\s*(?:#|```|~~~|\|)/.test(l) || /[.!?:]\s*$/.test(l))
      break
    out = `${l} ${out}`
  }
  return out
}
/** The line before, when its sentence runs on into this one. */
const indicatorLead = (prev: string): boolean => INDICATOR.test(prev) && !/[.:]\s*$/.test(prev)

// A match that is itself a prohibition ("... and do not mention that you skipped it") is an instruction of its
// own: an earlier "do not" on the line coordinates with it, it does not quote it.
const OWN_NEGATION = /^(?:do\s+not|don['’]t|never|must\s+not|should\s+not)\b/i

const REFERS_BACK = /^\s*(?:[a-z]+ing)\s+(?:them|it|this|these|that|those|so)\b/i

// "`setenforce 0` is not a fix: ...": the sentence the match opens rejects it.
const REJECTED_AFTER
  = /^[^.!?:;]{0,80}?\b(?:is|are)\s+(?:not|never)\s+(?:a\s+|an\s+|the\s+)?(?:fix|solution|answer|option)\b/i

function governedOnLine(line: string, column: number): boolean {
  const from = line.slice(column - 1)
  if (OWN_NEGATION.test(from))
    return false
  if (REJECTED_AFTER.test(from))
    return true
  const before = line.slice(0, column - 1)
  LEAD_SAME_LINE.lastIndex = 0
  let last = -1
  for (let m = LEAD_SAME_LINE.exec(before); m; m = LEAD_SAME_LINE.exec(before)) last = m.index + m[0].length
  if (last === -1)
    return false
  // Same sentence: no sentence end between the marker and the match; or the next sentence, when it refers back to
  // what was forbidden ("Never truncate audit logs. Clearing them (`auditctl -D`) destroys evidence").
  const parts = before.slice(last).split(/[.!?;:]\s+|\s-\s/)
  return parts.length === 1 || (parts.length === 2 && REFERS_BACK.test(parts[1]!))
}

/** "If asked to disable audit logging ..., decline": a request the sentence refuses (read over the next line). */
const ASKED_TO
  = /\bif\s+(?:you\s+are\s+|you['’]re\s+|the\s+user\s+)?(?:asked|told|requested|asks\s+you|tells\s+you)\s+to\b/i
function askedThenDeclined(index: LineIndex, line0: number, column: number): boolean {
  const line = index.line(line0)
  const before = line.slice(0, column - 1)
  const asked = ASKED_TO.exec(before)
  if (!asked || /[.!?]/.test(before.slice(asked.index)))
    return false
  const rest = `${line.slice(column - 1)} ${line0 + 1 < index.count ? index.line(line0 + 1) : ''}`
  return /^[^.!?]*\b(?:decline|refuse|push\s+back|say\s+no)\b/i.test(rest)
}

/**
 * A sentence wrapped onto this line from the one above ("... do **not** add" / "`--privileged` ..."): the
 * marker on the line above governs the match when no sentence ends between them.
 */
function governedAbove(index: LineIndex, line0: number, column: number): boolean {
  const prev = line0 > 0 ? index.line(line0 - 1) : ''
  if (!prev.trim() || /^\s*(?:#|```|~~~|\|)/.test(prev) || /[.!?:]\s*$/.test(prev) || LIST_ITEM.test(index.line(line0)))
    return false
  return governedOnLine(`${prev} ${index.line(line0)}`, prev.length + 1 + column)
}

function inCodeSpan(line: string, column: number): boolean {
  return (line.slice(0, column - 1).match(/`/g) ?? []).length % 2 === 1
}

function isQuoted(line: string, column: number): boolean {
  const before = line.slice(0, column - 1)
  const ticks = (before.match(/`/g) ?? []).length
  const quotes = (before.match(/["“”]/g) ?? []).length
  return ticks % 2 === 1 || quotes % 2 === 1
}

// A defanged address: `hxxp://`, `198.51.100[.]23`, `evil[.]com`.
const DEFANGED = new RegExp(
  String.raw`\bhxxps?:\/\/|\b\d{1,3}(?:\.\d{1,3}){2}\[\.\]\d{1,3}\b`
  + String.raw`|\b[\w-]+\[\.\](?:com|net|org|io|ru|cn|xyz|top|info|biz|app|dev|site|online)\b`,
  'i',
)

/**
 * A `key: "value"` line with the value's enclosing quotes blanked, and the phrases it quotes in single quotes
 * (`such as 'ignore all previous instructions'`, not the apostrophes of `user's`) marked as quotes (columns kept).
 */
function unquotedValue(line: string): string {
  const m = /^(\s*[\w-]+:\s*)(["'])(.*)\2(\s*)$/.exec(line)
  if (!m)
    return line
  const value = m[3]!.replace(/(^|\s)'([^'\n]+)'(?=[\s.,;:!?)]|$)/g, '$1"$2"')
  return `${m[1]} ${value} ${m[4]}`
}

// What takes a search pattern: a regex constructor, or a search command with its flags.
const PATTERN_TAKER = new RegExp(
  String.raw`(?:\bre\.(?:compile|search|match|fullmatch|findall|finditer|sub)|\bnew\s+RegExp|\bRegExp|Pattern\.compile`
  + String.raw`|\bRegex|\bregexp\.(?:MustCompile|Compile)|\bgrepl?|\bregmatches)\s*\(\s*(?:r|rb|br)?$`
  + String.raw`|\b(?:grep|egrep|rg|ag|findstr|Select-String(?:\s+-Pattern)?)(?:\s+-[\w-]+)*\s+$`,
)
// A string that is a list of alternatives without spaces (`xmrig|minerd|cpuminer`): an indicator list, never a
// command line.
const ALTERNATIVES = /^[^\s|]+(?:\|[^\s|]+){2,}$/

/**
 * Whether the match at `column` (1-based) lies inside a quoted string that is a search pattern: handed to a regex
 * constructor or a search command (`grep -Ei 'xmrig|minerd'`, `re.compile(r"exec\(.*b64decode")`), or written as
 * a list of alternatives. A detector's patterns name what it looks for.
 */
export function inSearchPattern(line: string, column: number): boolean {
  const at = column - 1
  for (const m of line.matchAll(/(["'])((?:\\.|(?!\1).)*)\1/g)) {
    const start = m.index + 1
    const end = start + m[2]!.length
    if (at < start || at >= end)
      continue
    return PATTERN_TAKER.test(line.slice(0, m.index)) || ALTERNATIVES.test(m[2]!)
  }
  return false
}

/** Marks findings that a markdown warning only quotes ("never run `curl | sh`"): they are reported as info. */
export function markCautionary(findings: RawFinding[], index: LineIndex, fences: Fence[], path: string): void {
  const fenceAt = (line0: number): Fence | undefined =>
    fences.find(fc => line0 > fc.open && line0 < fc.close + (fc.close === index.count - 1 ? 1 : 0))
  // The 0-based line of the frontmatter's closing delimiter (-1: no frontmatter).
  const end = frontmatterEnd(index.text)
  const head = end === 0 ? -1 : index.lineOf(end - 1)
  for (const f of findings) {
    const example = EXAMPLE_RULES.has(f.rule)
    if (f.path !== path || (!CAUTION_RULES.has(f.rule) && !example))
      continue
    const line0 = f.line - 1
    // A frontmatter value's own YAML quotes quote nothing: the value is what the agent reads.
    const text = line0 <= head ? unquotedValue(index.line(line0)) : index.line(line0)
    const fence = fenceAt(line0)
    // A rendered image loads whatever the text around it says; inside a fence or a code span it is text, not an
    // image.
    if (f.rule === 'exfiltration' && /image|link/.test(f.message) && !fence && !inCodeSpan(text, f.column))
      continue
    let cautious = false
    if (!example) {
      cautious = governedOnLine(text, f.column) || (!!fence && inSearchPattern(text, f.column))
        || (!fence && (governedByList(index, line0) || governedByQuote(index, line0)
          || governedByTable(index, line0) || governedAbove(index, line0, f.column)))
      if (!cautious && (f.rule === 'prompt_injection' || f.rule === 'concealment'))
        cautious = isQuoted(text, f.column) && QUOTED_ATTACK.test(quoteContext(index, line0))
      // A command quoted inline in prose that names it an attack documents the attack.
      if (!cautious && QUOTED_CODE_RULES.has(f.rule) && !fence)
        cautious = isQuoted(text, f.column) && NAMES_ATTACK.test(`${runOnAbove(index, line0)} ${text}`)
      // Quoted inline under a heading that forbids it ("## Never decode-and-execute").
      if (!cautious && !fence && inCodeSpan(text, f.column))
        cautious = sectionHeadingCautions(index, line0)
      // Quoted inline as what to look for: "Look for `eval`, `iex`, `FromBase64String`", "`curl ... | bash`
      // chains, common in intrusions", "`echo <b64> | base64 -d | bash` lines captured by auditd".
      if (!cautious && !fence && isQuoted(text, f.column))
        cautious = INDICATOR.test(text) || (line0 > 0 && indicatorLead(index.line(line0 - 1)))
    }
    if (!cautious && !fence)
      cautious = askedThenDeclined(index, line0, f.column)
    if (!cautious && f.rule === 'security_control_disablement' && /commit hook/.test(f.message))
      cautious = sectionHeadingCautions(index, line0, UNINSTALL_HEADING)
    // Inline code in a table whose header calls its cells payloads or attacks ("| Test payload |").
    if (!cautious && !fence)
      cautious = isQuoted(text, f.column) && payloadTable(index, line0)
    // A table of quoted phrasings under a lead that says they are data to flag ("treat these as data:").
    if (!cautious && !fence)
      cautious = tableUnderLead(index, line0)
    // A quoted cell of a table in a threat model's section ("| Support ticket body | "Ignore your previous ..." |").
    if (!cautious && !fence && isQuoted(text, f.column) && tableHead(index, line0) !== -1)
      cautious = sectionHeadingCautions(index, line0, THREAT_HEADING)
    // Defanged indicators (`hxxp://`, `198.51.100[.]23`) are threat-intelligence notes, in prose or in a fenced
    // report: nothing there can run as written.
    if (!cautious)
      cautious = DEFANGED.test(text)
    if (!cautious && fence) {
      cautious = labelledInFence(index, fence, line0) || labelledAbove(index, fence)
        || (!example && (governedBlock(index, fence) || removedInDiff(index, fence, line0)))
    }
    if (cautious)
      f.cautionary = true
  }
}

// A YARA rule (`rule name {` ... `strings:` ... `condition:`) or a Sigma rule (`detection:` ... `condition:`), each
// part looked for after the one before: one lazy regex over the three retried from every `rule` line, quadratic
// in a file of them.
const YARA_RULE = [
  /^\s*(?:(?:private|global)\s+)*rule\s+\w+(?:\s*:[\w\s]*)?\s*\{/gm,
  /^\s*strings\s*:/gm,
  /^\s*condition\s*:/gm,
]
const SIGMA_RULE = [/^detection:\s*$/gm, /^\s+condition:/gm]

/** Whether each regex matches after the end of the one before's first match. */
function inOrder(text: string, parts: readonly RegExp[]): boolean {
  let at = 0
  for (const re of parts) {
    re.lastIndex = at
    const m = re.exec(text)
    if (!m)
      return false
    at = m.index + m[0].length
  }
  return true
}

/** Marks findings of a code file that lie inside its search patterns (`inSearchPattern`). */
export function markSearchPatterns(findings: RawFinding[], text: string): void {
  let lines: string[] | null = null
  for (const f of findings) {
    if (!CAUTION_RULES.has(f.rule) || f.cautionary)
      continue
    lines ??= text.split('\n')
    if (inSearchPattern(lines[f.line - 1] ?? '', f.column))
      f.cautionary = true
  }
}

/**
 * A data file that is a detection rule (YARA, Sigma): its strings are what to look for in samples and logs, so the
 * attacks it quotes are marked as quoted (an error becomes a warning), as in a detection rule fenced in prose.
 */
export function markDetectionRule(findings: RawFinding[], text: string): void {
  if (!findings.some(f => CAUTION_RULES.has(f.rule)) || !(inOrder(text, YARA_RULE) || inOrder(text, SIGMA_RULE)))
    return
  for (const f of findings) {
    if (CAUTION_RULES.has(f.rule))
      f.cautionary = true
  }
}

// A test sample's record labelled with the verdict it expects: `{"prompt": "...", "expected": "refuse"}`.
const SAMPLE_LABEL = new RegExp(
  String.raw`["']?\b(?:expected(?:_\w+)?|expect|label|verdict|should|target|outcome)["']?\s*[:=,]\s*["']?`
  + String.raw`(?:refuse[ds]?|refusal|block(?:ed)?|reject(?:ed)?|den(?:y|ied)|flag(?:ged)?|malicious|injection`
  + String.raw`|jailbreak|attack|unsafe|harmful)\b`,
  'i',
)

const CSV_HEADER = /^[\w" ]*[,\t].*\b(?:expected|label|verdict|class|category|outcome)\b/i
const CSV_VERDICT = new RegExp(
  String.raw`[,\t]\s*"?(?:flag(?:ged)?|malicious|injection|attack|unsafe|block(?:ed)?|refuse[ds]?|reject(?:ed)?`
  + String.raw`|jailbreak)"?\s*$`,
  'i',
)

/**
 * A data file of test samples (JSON Lines, CSV): a record that carries the verdict it expects ("refuse", "block",
 * "malicious") quotes its attack to test a defence, as a labelled corpus in prose does.
 */
export function markLabelledSamples(findings: RawFinding[], text: string): void {
  let lines: string[] | null = null
  let table: boolean | null = null
  for (const f of findings) {
    if (!CAUTION_RULES.has(f.rule) || f.cautionary)
      continue
    lines ??= text.split('\n')
    const line = lines[f.line - 1] ?? ''
    // A table of samples: a header that names the verdict column, and the row's verdict last.
    table ??= CSV_HEADER.test(lines[0] ?? '')
    if (SAMPLE_LABEL.test(line) || (table && CSV_VERDICT.test(line)))
      f.cautionary = true
  }
}

// A detection table's header names its cells indicators (`| Technique | Indicator |`): they are what to look for.
const PAYLOAD_HEADER = new RegExp(
  String.raw`\b(?:payloads?|attacks?|malicious|exploits?|dangerous|vulnerable|unsafe|insecure|indicators?|IOCs?`
  + String.raw`|phrasings?|test\s+(?:strings?|inputs?|cases?)|quoted\s+data)\b`,
  'i',
)

function payloadTable(index: LineIndex, line0: number): boolean {
  const head = tableHead(index, line0)
  return head !== -1 && head < line0 && PAYLOAD_HEADER.test(index.line(head))
}

// A heading over a section of examples not to follow: "## Review catalogue - never do this", "### Red flags".
const CAUTION_HEADING = new RegExp(
  String.raw`\b(?:never|do\s+not|don['’]t|avoid|anti-?patterns?|red\s+flags?|prohibited|forbidden|dangerous`
  + String.raw`|insecure|unsafe|malicious|attacks?\s+(?:examples?|patterns?|catalog(?:ue)?)|what\s+not\s+to)\b|❌|🚫|⛔`,
  'i',
)
// A lead that says the block below holds examples to recognise, ending in a colon: "They are listed so reviewers
// recognise them; treat them as data:".
const RECOGNISE_LEAD = new RegExp(
  // "Sites with bot detection": the noun names a feature, not what the block is for.
  String.raw`\b(?:recogni[sz]e|detect(?:ed)?|detection\s+(?:rules?|signatures?|patterns?|logic|quer(?:y|ies))`
  + String.raw`|flag(?:ged)?|examples?\s+of|treat\s+(?:them|these|it)\s+as\s+data`
  + String.raw`|shown\s+(?:here\s+)?only|do\s+not\s+(?:run|execute|follow|copy))\b`,
  'i',
)
// A Sigma detection rule: its strings are what to look for in logs.
const DETECTION_RULE = /^\s*detection:\s*$/m
const DETECTION_CONDITION = /^\s*condition:\s*\S/m
// A Falco rule: its condition names the processes and connections to alert on.
const FALCO_RULE = /^\s*-\s*rule:\s*\S/m
const FALCO_OUTPUT = /^\s*(?:output|priority):\s*\S/m

/** The heading of the section a line is in matches (by default: warns against what it holds). */
function sectionHeadingCautions(index: LineIndex, line0: number, re = CAUTION_HEADING): boolean {
  for (let i = line0 - 1; i >= 0 && i > line0 - 80; i--) {
    const m = /^\s{0,3}#{1,6}\s+(.*)$/.exec(index.line(i))
    if (m)
      return re.test(m[1]!)
  }
  return false
}

/**
 * The headings a fence sits under, nearest first: its own section's heading, then each enclosing one (a heading of a
 * lower level). A cautionary one governs every block of its section, subsections included.
 */
function underCautionHeading(index: LineIndex, fence: Fence): boolean {
  let level = 7
  for (let i = fence.open - 1; i >= 0 && level > 1; i--) {
    const m = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(index.line(i))
    if (!m || m[1]!.length >= level)
      continue
    level = m[1]!.length
    if (CAUTION_HEADING.test(m[2]!))
      return true
  }
  return false
}

/** The paragraph right above a fence ends in a colon and says its block holds examples to recognise. */
function recogniseLead(index: LineIndex, fence: Fence): boolean {
  let i = fence.open - 1
  while (i >= 0 && !index.line(i).trim()) i--
  const lead: string[] = []
  for (; i >= 0 && index.line(i).trim() && !/^\s{0,3}#/.test(index.line(i)) && lead.length < 6; i--)
    lead.unshift(index.line(i))
  const text = lead.join(' ')
  return /:\s*$/.test(text) && RECOGNISE_LEAD.test(text)
}

function detectionRule(index: LineIndex, fence: Fence): boolean {
  const body: string[] = []
  for (let i = fence.open + 1; i < fence.close && i < index.count; i++) body.push(index.line(i))
  const text = body.join('\n')
  // A Sigma or Falco rule, or a YARA rule (its strings are what to look for in samples).
  return ((DETECTION_RULE.test(text) || (FALCO_RULE.test(text) && FALCO_OUTPUT.test(text)))
    && DETECTION_CONDITION.test(text)) || inOrder(text, YARA_RULE)
}

/**
 * A line a diff removes (`- "defaultMode": "bypassPermissions"`): a block labelled `diff` or `patch`, or an unlabelled
 * one whose every line is a removal, an addition, context or a hunk header, with both removals and additions.
 */
function removedInDiff(index: LineIndex, fence: Fence, line0: number): boolean {
  if (!/^-(?!--)/.test(index.line(line0)))
    return false
  if (fence.info === 'diff' || fence.info === 'patch')
    return true
  if (fence.info)
    return false
  let added = false
  for (let i = fence.open + 1; i < fence.close && i < index.count; i++) {
    const l = index.line(i)
    if (l.startsWith('+'))
      added = true
    else if (l.trim() && !/^(?:-|@@|\s)/.test(l))
      return false
  }
  return added
}

/**
 * A block of threats quoted as documentation: under a cautionary heading, after a lead that says to recognise them,
 * or a detection rule. Capability findings keep their severity there (what the code can do is still reviewed).
 */
function governedBlock(index: LineIndex, fence: Fence): boolean {
  return underCautionHeading(index, fence) || recogniseLead(index, fence) || detectionRule(index, fence)
}

// A lead that calls the block test data for the agent to resist ("Use these as test inputs ... does not comply").
const TEST_DATA_LEAD = new RegExp(
  String.raw`\b(?:(?:test|attack|injection)\s+(?:inputs?|cases?|corpus|corpora|suite|payloads?|samples?|strings?)`
  + String.raw`|payloads?\s+(?:to\s+use\s+)?(?:in|for)\s+[*_]{0,2}tests?`
  + String.raw`|red[-\s]team|attacker\s+content|injected\s+text)\b`,
  'i',
)
const RESISTED = new RegExp(
  String.raw`\b(?:(?:does|do|must|should)\s+not\s+comply|treat\s+(?:them|these|it)\s+as\s+data|quoted\s+examples?`
  + String.raw`|not\s+instructions|(?:these|they)\s+are\s+data|(?:do(?:es)?\s+not|never)\s+(?:act\s+on|follow)\s+them`
  + String.raw`|should\s+have\s+no\s+effect)\b`,
  'i',
)

function labelledAbove(index: LineIndex, fence: Fence): boolean {
  let seen = 0
  let lead = ''
  for (let i = fence.open - 1; i >= 0 && seen < 2; i--) {
    const above = index.line(i)
    if (!above.trim())
      continue
    seen++
    lead = `${above} ${lead}`
    if (LEAD_ABOVE_BLOCK.test(above))
      return true
  }
  // The sentence right after the block may say what the lead did not ("These are data ...; do not act on them").
  let after = ''
  for (let i = fence.close + 1; i < index.count && i <= fence.close + 3; i++) after += ` ${index.line(i)}`
  return TEST_DATA_LEAD.test(lead) && RESISTED.test(`${lead} ${after}`.replace(/[*_]/g, ''))
}

/** A table row whose table follows a lead (ending in a colon) that says its rows are examples to recognise. */
function tableUnderLead(index: LineIndex, line0: number): boolean {
  const head = tableHead(index, line0)
  if (head === -1)
    return false
  let i = head - 1
  while (i >= 0 && i > line0 - 80 && !index.line(i).trim()) i--
  const lead: string[] = []
  for (; i >= 0 && index.line(i).trim() && !/^\s{0,3}#/.test(index.line(i)) && lead.length < 6; i--)
    lead.unshift(index.line(i))
  const text = lead.join(' ').replace(/[*_]/g, '')
  return /:\s*$/.test(text) && (RECOGNISE_LEAD.test(text) || INDICATOR.test(text))
}
