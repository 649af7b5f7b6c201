import type { SkillSource } from '../../core/types'
import type { Lang, LinePattern, RawFinding } from '../types'
import { classify } from '../classify'
import { inlineSkillCode } from '../constants'
import { excerptAt } from '../excerpt'
import { crossesSentences, literalTest } from '../finder'
import { LineIndex } from '../lines'
import { findFences, markCautionary } from '../markdown'

/**
 * A skill read as whole-skill rules need it: its code (script files and fenced blocks, by language) and its
 * prose, each split into statements that may span lines.
 */

export interface Unit {
  path: string
  lang: Lang
  /** The unit's lines; `first` is the 0-based file line of `lines[0]`. */
  lines: string[]
  first: number
}

export interface Statement {
  path: string
  lang: Lang
  /** The statement's lines joined by newlines, comment lines dropped. */
  text: string
  /** 1-based file line where it starts. */
  line: number
  /** How many file lines it spans. */
  span: number
  /** Its unit: `path\0first`. */
  unit: string
}

const FENCE_LANG: Record<string, Lang> = {
  js: 'js',
  ts: 'js',
  jsx: 'js',
  tsx: 'js',
  py: 'py',
  sh: 'sh',
  rb: 'rb',
  go: 'go',
}
/**
 * Text files read as code: no extension (Makefile, Dockerfile, Justfile), or a language no rule parses (a build
 * script, a C# tool, a Kotlin or Swift script): their statements still read stores and send data.
 */
const SCRIPT_EXT = new RegExp(
  String.raw`(?:^|\/)[^./]+$|\.(?:rb|pl|pm|php|lua|go|txt|cs|csx|java|kt|kts|scala|groovy|gradle|swift|rs|c|cc|cpp`
  + String.raw`|cxx|h|hpp|m|mm|dart|exs?|r|jl|nim|zig|mk|just|nix|tf|vbs|applescript|ahk|tcl|awk)$`,
  'i',
)
/** Info strings of fenced blocks in those languages. */
const OTHER_CODE = new RegExp(
  String.raw`^(?:c|cc|cpp|c\+\+|h|hpp|cs|csharp|c#|java|kotlin|kt|kts|scala|groovy|gradle|swift|rust|rs|objc`
  + String.raw`|objective-c|dart|elixir|ex|r|julia|jl|nim|zig|perl|pl|php|lua|make|makefile|mk|dockerfile|docker`
  + String.raw`|containerfile|just|justfile|nix|hcl|terraform|tf|vb|vbs|vbscript|applescript|ahk|autohotkey|tcl|awk)$`,
)
/** Info strings of blocks read as unlabelled text (which may be any shell). */
const PLAIN = new Set(['', 'text', 'txt', 'plain', 'plaintext'])

// The three data rules read the same units and statements of a skill: split it once.
const UNITS = new WeakMap<SkillSource, Unit[]>()
const STATEMENTS = new WeakMap<readonly Unit[], Statement[]>()

/** The code and prose units of a skill. Files over 128 KB are left to the line patterns. */
export function unitsOf(skill: SkillSource): Unit[] {
  let units = UNITS.get(skill)
  if (!units)
    UNITS.set(skill, (units = splitUnits(skill)))
  return units
}

/** A shell or build unit with its constants put back (`inlineSkillCode`). */
function inlined(skill: SkillSource, unit: Unit): Unit {
  if (unit.lang !== 'sh' && unit.lang !== 'text')
    return unit
  const lines = inlineSkillCode(skill, unit.path, unit.lang, unit.lines, unit.first)
  return lines === unit.lines ? unit : { ...unit, lines }
}

function splitUnits(skill: SkillSource, maxChars = 128 * 1024): Unit[] {
  const out: Unit[] = []
  for (const file of skill.files) {
    const text = file.text
    if (text === null || text.length > maxChars)
      continue
    const kind = classify(file.path, text)
    if (!kind.markdown) {
      // Data files (xml, json, csv...) hold no statements; scripts without a known extension may.
      if (kind.lang !== 'text' || SCRIPT_EXT.test(file.path))
        out.push(inlined(skill, { path: file.path, lang: kind.lang, lines: text.split(/\r?\n/), first: 0 }))
      else if (/\.ya?ml$/i.test(file.path))
        pushYamlShell(out, file.path, text.split(/\r?\n/), 0)
      continue
    }
    const lines = text.split(/\r?\n/)
    const prose = lines.slice()
    for (const f of findFences(file)) {
      const last = Math.min(f.close, lines.length - 1)
      const closed = /^\s*(?:`{3,}|~{3,})\s*$/.test(lines[last] ?? '') && last > f.open
      prose.fill('', f.open, last + 1)
      // A block in a language no rule reads (yara, sql, yaml...) is data, not the skill's code.
      const lang = FENCE_LANG[f.lang] ?? (PLAIN.has(f.info) || OTHER_CODE.test(f.info) ? 'text' : null)
      const body = lines.slice(f.open + 1, closed ? last : last + 1)
      if (lang)
        out.push(inlined(skill, { path: file.path, lang, lines: body, first: f.open + 1 }))
      else if (f.info === 'yaml' || f.info === 'yml')
        pushYamlShell(out, file.path, body, f.open + 1)
    }
    out.push({ path: file.path, lang: 'prose', lines: prose, first: 0 })
  }
  return out
}

// A key whose value is a command line (CI steps, Ansible tasks, compose services), and a list of them.
const COMMAND_KEY = /^(\s*)(?:-\s+)?(?:run|shell|command|cmd|entrypoint|ansible\.builtin\.(?:shell|command)):\s*(.*)$/
const SCRIPT_KEY = /^(\s*)(?:-\s+)?(?:script|before_script|after_script|commands|steps):\s*$/

/**
 * The shell in a YAML file (a CI workflow's `run:` steps, GitLab's `script:` lists, Ansible's `shell:`), as a shell
 * unit whose other lines are blank: the file's lines keep their numbers.
 */
function pushYamlShell(out: Unit[], path: string, lines: string[], first: number): void {
  const shell = Array.from<string>({ length: lines.length }).fill('')
  let found = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const command = COMMAND_KEY.exec(line)
    const list = command ? null : SCRIPT_KEY.exec(line)
    if (!command && !list)
      continue
    const indent = (command ?? list)![1]!.length
    const value = command?.[2]?.trim() ?? ''
    if (command && value && !/^[|>][-+]?$/.test(value)) {
      shell[i] = value.replace(/^["']|["']$/g, '')
      found = true
      continue
    }
    // A block scalar (`run: |`) or a list (`script:`): the lines indented deeper, list markers dropped.
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]!
      if (!next.trim())
        continue
      // Deeper than the key, or a list item at the key's own depth (`script:` then `- cmd` under it).
      const depth = next.length - next.trimStart().length
      if (depth < indent || (depth === indent && !(list && /^\s*-\s/.test(next))))
        break
      shell[j] = next.trim().replace(/^-\s+/, '').replace(/^["']|["']$/g, '')
      found = true
      i = j
    }
  }
  if (found)
    out.push({ path, lang: 'sh', lines: shell, first })
}

const COMMENT: Partial<Record<Lang, RegExp>> = {
  sh: /^\s*(?:#|rem\b|::)/i,
  py: /^\s*#/,
  js: /^\s*\/\//,
  rb: /^\s*#/,
  go: /^\s*\/\//,
  text: /^\s*#(?!!)/,
}
const MAX_SPAN = 30

function depthOf(line: string): number {
  let d = 0
  let quote = 0
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    // Quoted text does not count: a `(` inside a string opens nothing.
    if (quote) {
      if (c === 92)
        i++
      else if (c === quote)
        quote = 0
    }
    else if (c === 34 || c === 39 || c === 96) {
      quote = c
    }
    else if (c === 40 || c === 91 || c === 123) {
      d++
    }
    else if (c === 41 || c === 93 || c === 125) {
      d--
    }
  }
  return d
}

/** Whether a line goes on: a trailing backslash (or PowerShell backtick), pipe, boolean operator or comma. */
function goesOn(line: string): boolean {
  const t = line.trimEnd()
  const c = t.charCodeAt(t.length - 1)
  // \ ` | , ( [ { and && (the last `&` of it).
  return c === 92 || c === 96 || c === 124 || c === 44 || c === 40 || c === 91 || c === 123
    || (c === 38 && t.endsWith('&&'))
}

/** The statements of a code unit: continuation lines and open brackets join lines. */
export function statementsOf(unit: Unit): Statement[] {
  const out: Statement[] = []
  const comment = COMMENT[unit.lang]
  const key = `${unit.path}\0${unit.first}`
  let i = 0
  while (i < unit.lines.length) {
    const start = i
    const parts: string[] = []
    let depth = 0
    for (;;) {
      const line = unit.lines[i] ?? ''
      i++
      if (!(comment && comment.test(line))) {
        parts.push(line)
        depth += depthOf(line)
      }
      if (i >= unit.lines.length || i - start >= MAX_SPAN)
        break
      if (depth <= 0 && !goesOn(line))
        break
    }
    const text = parts.join('\n')
    if (text.trim())
      out.push({ path: unit.path, lang: unit.lang, text, line: unit.first + start + 1, span: i - start, unit: key })
  }
  return out
}

/** Every statement of every code unit of a skill (prose excluded). */
export function codeStatements(units: readonly Unit[]): Statement[] {
  let list = STATEMENTS.get(units)
  if (!list)
    STATEMENTS.set(units, (list = units.filter(u => u.lang !== 'prose').flatMap(statementsOf)))
  return list
}

/**
 * Marks whole-skill findings in markdown files that a "never do this" context governs, as the line scan
 * does for its own findings (`markCautionary`).
 */
export function markQuoted(skill: SkillSource, findings: RawFinding[]): RawFinding[] {
  const paths = new Set(findings.map(f => f.path))
  for (const file of skill.files) {
    if (!paths.has(file.path) || file.text === null || !classify(file.path, file.text).markdown)
      continue
    markCautionary(findings, new LineIndex(file.text), findFences(file), file.path)
  }
  return findings
}

const PARAGRAPHS = new WeakMap<Unit, Array<{ first: number, lines: string[] }>>()

/** Paragraphs of a prose unit (a list and the lead line ending in `:` belong to one). */
export function paragraphs(unit: Unit): Array<{ first: number, lines: string[] }> {
  let list = PARAGRAPHS.get(unit)
  if (!list)
    PARAGRAPHS.set(unit, (list = splitParagraphs(unit)))
  return list
}

function splitParagraphs(unit: Unit): Array<{ first: number, lines: string[] }> {
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

const ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s/

// Several rules read the paragraphs as lines joined by spaces: joined once.
const JOINED = new WeakMap<{ lines: string[] }, string>()
export function joined(p: { lines: string[] }): string {
  let text = JOINED.get(p)
  if (text === undefined)
    JOINED.set(p, (text = p.lines.join(' ')))
  return text
}

// The anchors of a rule's patterns as one alternation, asked of every paragraph at literal-search speed (by
// source: lists of the same anchors share one finder).
const ANY_ANCHOR = new WeakMap<readonly LinePattern[], (text: string) => boolean>()
const ANY_SOURCE = new Map<string, (text: string) => boolean>()
function anyAnchor(patterns: readonly LinePattern[]): (text: string) => boolean {
  let test = ANY_ANCHOR.get(patterns)
  if (!test) {
    const source = [...new Set(patterns.map(p => `(?:${p.anchor})`))].join('|')
    test = ANY_SOURCE.get(source)
    if (!test)
      ANY_SOURCE.set(source, (test = literalTest(new RegExp(source, 'i'))))
    ANY_ANCHOR.set(patterns, test)
  }
  return test
}
const COMPILED = new WeakMap<LinePattern, { anchor: RegExp, re: RegExp, inSentence: boolean }>()
// Patterns that share an anchor share its regex: a paragraph is tested once per anchor.
const ANCHORS = new Map<string, RegExp>()
function compiledOf(p: LinePattern): { anchor: RegExp, re: RegExp, inSentence: boolean } {
  let c = COMPILED.get(p)
  if (!c) {
    let anchor = ANCHORS.get(p.anchor)
    if (!anchor)
      ANCHORS.set(p.anchor, (anchor = new RegExp(p.anchor, 'i')))
    // The line scan's flags (`g` added): one compiled regex serves both scans.
    const flags = p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`
    COMPILED.set(p, (c = { anchor, re: new RegExp(p.re.source, flags), inSentence: !crossesSentences(p.re) }))
  }
  return c
}

/**
 * Matches of line patterns on prose sentences that wrap over lines: each paragraph is read as one line
 * (line breaks as spaces), and a pattern's first match is reported where it starts if no single line shows it.
 * A pattern whose matches stay within a sentence has none to report in a paragraph where no sentence wraps (every
 * line ends one): its anchor is looked for in the sentences that wrap, not in the whole paragraph.
 */
export function wrappedMatches(units: readonly Unit[], patterns: readonly LinePattern[], rule: string): RawFinding[] {
  const out: RawFinding[] = []
  const compiled = patterns.map(compiledOf)
  const any = anyAnchor(patterns)
  for (const unit of units) {
    if (unit.lang !== 'prose')
      continue
    for (const p of paragraphs(unit)) {
      if (p.lines.length < 2)
        continue
      const text = joined(p)
      // Every pattern needs its anchor: one test of them all first, then each pattern where one is there.
      if (!any(text))
        continue
      // Answers of the gates and anchors on this paragraph, and of anchors on its sentences that wrap (where a
      // pattern that stays within a sentence can match), for stateless regexes only: no `g` or `y`.
      const answers = new Map<RegExp, boolean>()
      const inWrapped = new Map<RegExp, boolean>()
      let wrappedText: string | undefined
      const passes = (re: RegExp, sentences: boolean): boolean => {
        const where = sentences
          ? (wrappedText ??= wrappedSentences(p, text).map(([from, to]) => text.slice(from, to)).join('\n'))
          : text
        if (re.global || re.sticky)
          return re.test(where)
        const cache = sentences ? inWrapped : answers
        let v = cache.get(re)
        if (v === undefined)
          cache.set(re, (v = re.test(where)))
        return v
      }
      for (let k = 0; k < patterns.length; k++) {
        const pat = patterns[k]!
        const c = compiled[k]!
        // The anchor and the gate are cheap; most paragraphs stop there. A match holds its anchor, while the gate
        // may lie anywhere in the paragraph.
        if (!passes(c.anchor, c.inSentence) || (pat.lineGate && !passes(pat.lineGate, false)))
          continue
        c.re.lastIndex = 0
        const m = c.re.exec(text)
        if (!m || (pat.accept && !pat.accept(m, text, () => '')))
          continue
        // Only what no single line shows: a match inside one line is the line scan's.
        let at = 0
        let start = 0
        while (at + 1 < p.lines.length && start + p.lines[at]!.length < m.index) start += p.lines[at++]!.length + 1
        if (m.index + m[0].length <= start + p.lines[at]!.length)
          continue
        // A list is not a sentence: a lead line governs each item, but the data of one item and the place of
        // another ("should include: - name and credentials - ... - background image") are not one instruction.
        let items = 0
        for (let i = at + 1, pos = start + p.lines[at]!.length + 1; i < p.lines.length && pos < m.index + m[0].length;
          pos += p.lines[i++]!.length + 1) {
          if (ITEM.test(p.lines[i]!))
            items++
        }
        if (items >= 2 || (items === 1 && ITEM.test(p.lines[at]!)))
          continue
        const line = p.lines[at]!
        const col = m.index - start
        out.push({
          rule,
          path: unit.path,
          line: p.first + at + 1,
          column: col + 1,
          message: pat.message,
          excerpt: excerptAt(line, col, Math.min(80, line.length - col)),
          ...(pat.severity ? { severity: pat.severity } : {}),
        })
        break
      }
    }
  }
  return out
}

/**
 * The sentences of a paragraph that hold a line break, as [from, to) in its joined text. A sentence ends at a
 * period followed by a space or a tab (the patterns' own gap, `\.(?=\S)`, never passes one).
 */
function wrappedSentences(p: { lines: string[] }, text: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  const breaks: number[] = []
  for (let i = 0, pos = 0; i + 1 < p.lines.length; i++) breaks.push((pos += p.lines[i]!.length + (i ? 1 : 0)))
  let b = 0
  let from = 0
  const close = (to: number): void => {
    while (b < breaks.length && breaks[b]! < from) b++
    if (b < breaks.length && breaks[b]! < to)
      out.push([from, to])
    from = to
    while (from < text.length && (text[from] === ' ' || text[from] === '\t')) from++
  }
  for (let i = text.indexOf('.'); i !== -1 && from < text.length; i = text.indexOf('.', i + 1)) {
    if (text[i + 1] === ' ' || text[i + 1] === '\t')
      close(i + 1)
  }
  if (from < text.length)
    close(text.length)
  return out
}

// A rule's prose patterns, found once per list.
const PROSE = new WeakMap<readonly LinePattern[], readonly LinePattern[]>()
function proseOf(patterns: readonly LinePattern[]): readonly LinePattern[] {
  let prose = PROSE.get(patterns)
  if (!prose)
    PROSE.set(patterns, (prose = patterns.filter(p => p.langs.includes('prose') && (p.view ?? 'raw') === 'raw')))
  return prose
}

/**
 * Makes the paragraph test of a list that `wrappedProse` (or, with `prose: false`, `wrappedMatches`) will read:
 * called where a rule defines the list, so that the build ships its finder.
 */
export function prepareWrapped(patterns: readonly LinePattern[], { prose = true }: { prose?: boolean } = {}): void {
  anyAnchor(prose ? proseOf(patterns) : patterns)
}

/**
 * The prose line patterns of a rule matched on sentences that wrap over lines (prose is often wrapped at 80
 * columns: "tell them" at the end of one line, "only the plan ran" on the next), marked like the line scan's.
 */
export function wrappedProse(skill: SkillSource, patterns: readonly LinePattern[], rule: string): RawFinding[] {
  const prose = proseOf(patterns)
  return prose.length ? markQuoted(skill, wrappedMatches(unitsOf(skill), prose, rule)) : []
}
