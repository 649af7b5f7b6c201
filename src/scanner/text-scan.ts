import type { Dialect } from './embedded'
import type { Finder } from './finder'
import type { MaskRanges } from './mask'
import type { Lang, LinePattern, RawFinding, View } from './types'
import { SEVERITY_RANK } from '../core/diagnostics'
import { endTiming, startTiming } from '../core/timings'
import { inlineConstants, originalColumn } from './constants'
import { embeddedViews } from './embedded'
import { excerptAt, redact } from './excerpt'
import { buildFinder, compileGate, conditionsOf, lazyFinder, shippedConditions, splitAlternatives } from './finder'
import { LineIndex } from './lines'
import { maskedSlice, maskRanges } from './mask'
import { RULE_MODULES } from './rules/index'
import { servesLang } from './types'

/** Required classes and literal gate of a line pattern. */
interface Derived {
  requires: RegExp[]
  gate: ((lower: string) => boolean) | null
}

/**
 * A line pattern of one language.
 * `requires`: classes every match contains a character of; a window without one skips the pattern.
 * `gate`: literals every match contains; a hit on a line without them cannot lead to a finding.
 * Both are derived when first read: a scan reads them only for patterns whose anchor hit.
 */
class Compiled {
  readonly re: RegExp
  readonly anchor: RegExp
  private derived: Derived | null = null
  constructor(
    readonly rule: string,
    readonly p: LinePattern,
    readonly tokens: readonly string[],
  ) {
    this.re = new RegExp(p.re.source, p.re.flags.includes('g') ? p.re.flags : `${p.re.flags}g`)
    this.anchor = new RegExp(tokens.join('|'), 'i')
  }

  get requires(): RegExp[] {
    return (this.derived ??= derive(this.p, this.anchor)).requires
  }

  get gate(): Derived['gate'] {
    return (this.derived ??= derive(this.p, this.anchor)).gate
  }
}

// Short tokens that must be whole words to be worth a look (`rm`, not `rmdir`... nor `format`).
const WHOLE = new Set([
  'rm',
  'dd',
  'nc',
  'DAN',
  'iex',
  'iwr',
  'irm',
  'ssh',
  'scp',
  'ftp',
  'net',
  'got',
  'ws',
  'tls',
  'ufw',
  'pwd',
  'env',
  'cat',
  'tar',
  'zip',
  'os',
  'xxd',
  'sftp',
  'ncat',
])

/**
 * Top-level alternatives of an anchor fragment, each with a leading word boundary when it starts with a
 * word character.
 */
export function anchorTokens(anchor: string): string[] {
  return splitAlternatives(anchor)
    .filter(Boolean)
    .map(a => (/^\w/.test(a) ? '\\b' : '') + a + (WHOLE.has(a) ? '\\b' : ''))
}

/**
 * Per language: its patterns, the combined anchor (longest tokens first), and the same without AST-covered
 * patterns. The finders produce exactly the hits of the combined anchors, at literal-search speed.
 */
interface LangTable {
  patterns: Compiled[]
  anchor: RegExp
  anchorAst: RegExp
  finder: Finder
  finderAst: Finder
  memo: Map<string, number[]>
  /**
   * Per pattern: the line (`gateLineId`) its gate was last tested on, and the answer (trigger words repeat
   * on a line).
   */
  gateOn: Float64Array
  gateAnswer: Uint8Array
}

const LANGS: readonly Lang[] = ['js', 'py', 'sh', 'rb', 'go', 'prose', 'text']
/** The suppression comment: index.ts looks for directives only in files whose scan met it. */
export const DIRECTIVE = 'skills-ignore-next-line'
/**
 * Its anchor token, in every finder (the scan reads each byte once, instead of a separate search of
 * every text for the directive). It consumes only `skills`, which no other token matches at or in, so the
 * other hits stay exactly what they were (test/scanner/directive-anchor.test.ts compares them). A
 * directive is met at this token's hit, inside a longer hit that covers its start, or on a line the
 * scan skips (read there).
 */
const DIRECTIVE_TOKEN = 'skills(?=-ignore-next-line)'
/** Long lines are read in windows around anchor hits, so a 1 MB line costs a bounded amount per hit. */
const WINDOW = 4096
const OVERLAP = 512

function derive(p: LinePattern, anchor: RegExp): Derived {
  const { requires, gate } = shippedConditions(p.re, p.lineGate) ?? conditionsOf(p.re, p.lineGate)
  const classes = requires.map(body => new RegExp(`[${body}]`))
  return { requires: classes, gate: gate === null ? null : compileGate(gate, anchor) }
}

const order = (tokens: Iterable<string>): string[] => [...new Set(tokens)].sort((a, b) => b.length - a.length)
const combine = (tokens: Iterable<string>): RegExp => new RegExp(order(tokens).join('|') || '(?!)', 'gi')

/**
 * One finder per distinct token list (prose and text use the same list with and without AST rules), built
 * on first use.
 */
const finders = new Map<string, Finder>()
function finderOf(tokens: string[]): Finder {
  const key = tokens.join('\n')
  let f = finders.get(key)
  if (!f)
    finders.set(key, (f = lazyFinder(() => buildFinder(tokens, true))))
  return f
}

/**
 * A pattern's compiled form, shared by the languages it serves (nothing in it depends on the language; `re`
 * is reset before each use).
 */
const shared = new WeakMap<LinePattern, Compiled>()

/** A language's patterns and the tokens of its two finders (every pattern's; those not covered by the AST). */
function langPatterns(lang: Lang): { patterns: Compiled[], all: string[], noAst: string[] } {
  const patterns: Compiled[] = []
  const all: string[] = []
  const noAst: string[] = []
  for (const mod of RULE_MODULES) {
    for (const p of mod.patterns) {
      if (!servesLang(p.langs, lang))
        continue
      let c = shared.get(p)
      if (!c)
        shared.set(p, (c = new Compiled(mod.meta.id, p, anchorTokens(p.anchor))))
      patterns.push(c)
      all.push(...c.tokens)
      if (!p.astCovered)
        noAst.push(...c.tokens)
    }
  }
  all.push(DIRECTIVE_TOKEN)
  noAst.push(DIRECTIVE_TOKEN)
  return { patterns, all, noAst }
}

/** The token lists of the line patterns' finders, as `finderOf` is given them (the build stores their tables). */
export function lineFinderTokens(): string[][] {
  const lists = new Map<string, string[]>()
  for (const lang of LANGS) {
    const { all, noAst } = langPatterns(lang)
    for (const tokens of [order(all), order(noAst)]) lists.set(tokens.join('\n'), tokens)
  }
  return [...lists.values()]
}

function compile(lang: Lang): LangTable {
  const { patterns, all, noAst } = langPatterns(lang)
  // The combined regexes are what the finders stand for (tests compare them); the scan never runs them.
  let anchor: RegExp | null = null
  let anchorAst: RegExp | null = null
  return {
    patterns,
    get anchor() {
      return (anchor ??= combine(all))
    },
    get anchorAst() {
      return (anchorAst ??= combine(noAst))
    },
    finder: finderOf(order(all)),
    finderAst: finderOf(order(noAst)),
    memo: new Map(),
    gateOn: new Float64Array(patterns.length).fill(-1),
    gateAnswer: new Uint8Array(patterns.length),
  }
}

/**
 * Per language, compiled on first access (importing the scanner compiles nothing; a language no file uses
 * never is).
 */
export const COMPILED = {} as Readonly<Record<Lang, LangTable>>
for (const lang of LANGS) {
  Object.defineProperty(COMPILED, lang, {
    enumerable: true,
    configurable: true,
    get: () => {
      const table = compile(lang)
      Object.defineProperty(COMPILED, lang, { value: table, enumerable: true })
      return table
    },
  })
}

/**
 * Which patterns an anchor hit can belong to (memoised on the hit text: few distinct words fire; the
 * anchors ignore case, so every spelling of a word shares the list made for its lower case).
 */
function patternsFor(table: LangTable, hit: string): number[] {
  let list = table.memo.get(hit)
  if (list)
    return list
  const key = hit.toLowerCase()
  list = table.memo.get(key)
  if (!list) {
    list = []
    for (let i = 0; i < table.patterns.length; i++) {
      if (table.patterns[i]!.anchor.test(hit))
        list.push(i)
    }
  }
  if (table.memo.size > 20_000)
    table.memo.clear()
  table.memo.set(key, list)
  table.memo.set(hit, list)
  return list
}

/** Whether every pattern of a hit has a literal gate (only then can a line without them skip the hit). */
function gatesFail(patterns: Compiled[], list: number[]): boolean {
  for (const i of list) {
    if (patterns[i]!.gate === null)
      return false
  }
  return list.length > 0
}

/** Whether `DIRECTIVE` starts in [from, to) of the text. */
function startsIn(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    if (text.charCodeAt(k) === 115 && text.startsWith(DIRECTIVE, k))
      return true
  }
  return false
}

/** A number per gated line, unique in this thread: gate answers are kept per pattern for the current one. */
let gateLineId = 0

function passesAny(table: LangTable, list: number[], lower: string, line: number): boolean {
  for (const i of list) {
    if (table.gateOn[i] !== line) {
      table.gateOn[i] = line
      table.gateAnswer[i] = table.patterns[i]!.gate!(lower) ? 1 : 0
    }
    if (table.gateAnswer[i])
      return true
  }
  return false
}

/** A piece of a file read in one language: a whole file, or a fenced block of a markdown file. */
export interface Segment {
  path: string
  text: string
  lang: Lang
  /** 0-based file line of the segment's first line. */
  lineOffset: number
  /** Added to columns (indented fences). */
  colOffset: number
  /** JS whose AST was analysed: the token patterns the AST replaces are skipped. */
  astDone: boolean
  /** Lines (0-based, segment-relative) this scan must skip, e.g. fenced blocks inside prose. */
  skip?: (line: number) => boolean
  index?: LineIndex
  /** Text in a data format whose values may hold commands (JSON, YAML): they are read as shell too. */
  dialect?: Dialect
}

interface Window {
  line: number
  lineStart: number
  lineEnd: number
  from: number
  to: number
  pats: Set<number>
}

/** What the windows of one segment's scan share: `scanLine` reads one window with it. */
interface LineScan {
  seg: Segment
  patterns: Compiled[]
  /** The text of [from, to) as a pattern's view reads it. */
  viewSlice: (v: View, from: number, to: number) => string
  /** The segment's line table (built on its first hit). */
  index: LineIndex
  out: RawFinding[]
  /** Rules already reported on the current line: later windows of a long line skip them. */
  done: Set<string>
}

const DIALECT_OF: Record<string, Dialect> = { json: 'json', jsonc: 'json', yaml: 'yaml', yml: 'yaml' }

/**
 * Runs the line patterns of a segment, then of its views (`embeddedViews`: logical lines joined, code written
 * inside another language): a view's findings are kept where the segment's own scan found nothing of that
 * rule on that line. Returns false when the text cannot contain `DIRECTIVE`, true when it may.
 */
export function scanSegment(seg: Segment, out: RawFinding[]): boolean {
  const start = out.length
  const scanning = startTiming()
  const directive = scanLines(seg, out)
  // The key is built only when timing: this runs for every segment.
  if (scanning)
    endTiming(`scan: line patterns (${seg.lang})`, scanning)
  if (seg.lang === 'prose')
    return directive
  if (seg.lang === 'sh' || seg.lang === 'text')
    scanInlined(seg, out)
  const ext = seg.path.slice(seg.path.lastIndexOf('.') + 1).toLowerCase()
  const dialect = seg.dialect ?? (seg.lang === 'text' ? DIALECT_OF[ext] : undefined)
  const viewing = startTiming()
  const views = embeddedViews(seg.text, seg.lang, dialect)
  endTiming('scan: embedded code (found)', viewing)
  if (!views.length)
    return directive
  const viewScan = startTiming()
  // A view may see a finding of a rule that the line's own scan saw another of (`sudo rm \` + `-rf /`).
  const key = (f: RawFinding): string => `${f.line}\0${f.rule}\0${f.message}`
  const seen = new Set(out.slice(start).map(key))
  const own = seg.index ?? new LineIndex(seg.text)
  for (const view of views) {
    const found: RawFinding[] = []
    scanLines({ ...seg, text: view.text, lang: view.lang, astDone: false, index: undefined, dialect: undefined }, found)
    if (!found.length)
      continue
    const index = new LineIndex(view.text)
    for (const f of found) {
      // Back to the segment's lines: a view keeps offsets, not always lines.
      const offset = index.start(f.line - 1 - seg.lineOffset) + f.column - 1 - seg.colOffset
      const line = own.lineOf(offset)
      const g = { ...f, line: seg.lineOffset + line + 1, column: offset - own.start(line) + 1 + seg.colOffset }
      if (!seen.has(key(g))) {
        seen.add(key(g))
        out.push(g)
      }
    }
  }
  endTiming('scan: embedded code (scanned)', viewScan)
  return directive
}

/**
 * Runs the line patterns of a shell or build text again with its constants put back (`inlineConstants`), when
 * it uses any: a finding there is placed on the file's own line and column.
 */
function scanInlined(seg: Segment, out: RawFinding[]): void {
  const syntax = seg.lang === 'sh' ? 'shell' : 'build'
  const inlined = seg.text.includes('$') ? inlineConstants(seg.text.split('\n'), syntax) : null
  if (!inlined)
    return
  const found: RawFinding[] = []
  scanLines({ ...seg, text: inlined.lines.join('\n'), astDone: false, index: undefined, skip: undefined }, found)
  for (const f of found) {
    const edits = inlined.edits.get(f.line - 1 - seg.lineOffset)
    out.push(edits ? { ...f, column: originalColumn(edits, f.column - 1 - seg.colOffset) + 1 + seg.colOffset } : f)
  }
}

/**
 * Runs the line patterns of a text: one anchor pass over it, full patterns only where their anchor hit.
 * Returns false when the text cannot contain `DIRECTIVE` (its anchor never hit), true when it may.
 */
function scanLines(seg: Segment, out: RawFinding[]): boolean {
  const table = COMPILED[seg.lang]
  if (!table.patterns.length)
    return true
  const finder = seg.astDone ? table.finderAst : table.finder
  const text = seg.text
  // The line table is built on the first hit: most segments have none.
  let lines = seg.index ?? null
  // Comment and string ranges are found once, and only when a pattern reads a masked view.
  let ranges: MaskRanges | null = null
  const viewSlice = (view: View, from: number, to: number): string => {
    if (view === 'raw')
      return text.slice(from, to)
    ranges ??= maskRanges(text, seg.lang)
    return maskedSlice(text, ranges[view], from, to)
  }
  let scan: LineScan | null = null
  let doneLine = -1
  let cur: Window | null = null
  const flush = (w: Window): void => {
    scan ??= { seg, patterns: table.patterns, viewSlice, index: lines!, out, done: new Set() }
    if (w.line !== doneLine) {
      scan.done.clear()
      doneLine = w.line
    }
    scanLine(scan, w)
  }
  let next = 0
  // The line of the last gated hit (trigger words repeat on a line): bounds, and lower-cased text when short.
  let gateStart = -1
  let gateEnd = -1
  let gateLine: string | null = null
  let directive = false
  for (let hit = finder.next(text, next); hit; hit = finder.next(text, next)) {
    const pos = hit.index
    next = pos + (hit.text.length || 1)
    // A directive starts at its own anchor's hit or inside a hit that covered it.
    if (!directive)
      directive = startsIn(text, pos, next)
    const list = patternsFor(table, hit.text)
    // No pattern: the directive's anchor (a hit for nothing else, as if it were not there).
    if (list.length === 0)
      continue
    // A hit on a line (read whole, not in windows) that lacks the literals of every pattern it could
    // start cannot lead to a finding: skip it before any line bookkeeping.
    if (gatesFail(table.patterns, list)) {
      if (pos < gateStart || pos > gateEnd) {
        gateStart = pos === 0 ? 0 : text.lastIndexOf('\n', pos - 1) + 1
        gateEnd = text.indexOf('\n', pos)
        if (gateEnd === -1)
          gateEnd = text.length
        gateLine = gateEnd - gateStart <= WINDOW ? text.slice(gateStart, gateEnd).toLowerCase() : null
        gateLineId++
      }
      if (gateLine !== null && !passesAny(table, list, gateLine, gateLineId))
        continue
    }
    if (
      cur
      && pos < cur.lineStart + cur.to
      && (cur.to === cur.lineEnd - cur.lineStart || pos < cur.lineStart + cur.to - OVERLAP)
    ) {
      for (const i of list) cur.pats.add(i)
      continue
    }
    if (cur)
      flush(cur)
    const index = (lines ??= new LineIndex(text))
    const line: number = cur && pos < cur.lineEnd ? cur.line : index.lineOf(pos)
    const lineStart = index.start(line)
    const lineEnd = line + 1 < index.count ? index.start(line + 1) - 1 : text.length
    if (seg.skip?.(line)) {
      // The rest of a skipped line is not searched: it may hold the directive.
      if (!directive)
        directive = startsIn(text, lineStart, lineEnd)
      cur = null
      next = lineEnd + 1
      continue
    }
    let from = 0
    let to = lineEnd - lineStart
    if (to > WINDOW) {
      from = Math.max(0, pos - lineStart - OVERLAP)
      to = Math.min(to, from + WINDOW)
    }
    cur = { line, lineStart, lineEnd, from, to, pats: new Set(list) }
  }
  if (cur)
    flush(cur)
  return directive
}

const RULE_SEVERITY = new Map(RULE_MODULES.map(m => [m.meta.id, m.meta.severity]))
function rankOf(rule: string, p: LinePattern): number {
  return SEVERITY_RANK[p.severity ?? RULE_SEVERITY.get(rule) ?? 'warning']
}

/**
 * Runs the patterns whose anchors hit in one window of a line: per rule, the most severe finding wins, then the
 * first (`sudo rm -rf /` is the deletion's error, not the sudo warning).
 */
function scanLine(scan: LineScan, w: Window): void {
  const { seg, patterns, viewSlice, index, out, done } = scan
  const { line, lineStart, from } = w
  let to = w.to
  // CRLF: keep the CR out of the line.
  if (lineStart + to === w.lineEnd && seg.text.charCodeAt(w.lineEnd - 1) === 13)
    to--
  const best = new Map<string, { rank: number, finding: RawFinding }>()
  const raw = viewSlice('raw', lineStart + from, lineStart + to)
  let nextLine: string | null = null
  const next = (lines = 1): string => {
    nextLine ??= line + 1 < index.count ? index.line(line + 1) : ''
    if (lines === 1)
      return nextLine
    // More lines of the same paragraph: a blank line ends it.
    const more = [nextLine]
    for (let k = line + 2; k <= line + lines && k < index.count && more.at(-1)!.trim(); k++)
      more.push(index.line(k))
    return more.join(' ')
  }
  for (const i of [...w.pats].sort((a, b) => a - b)) {
    const c = patterns[i]!
    if ((seg.astDone && c.p.astCovered) || done.has(c.rule))
      continue
    const already = best.get(c.rule)
    const rank = rankOf(c.rule, c.p)
    if (already && already.rank < rank)
      continue
    const view = c.p.view ?? 'raw'
    const subject = view === 'raw' ? raw : viewSlice(view, lineStart + from, lineStart + to)
    if (c.requires.length && !c.requires.every(r => r.test(subject)))
      continue
    if (c.p.lineGate && !c.p.lineGate.test(subject))
      continue
    c.re.lastIndex = 0
    for (let m = c.re.exec(subject); m; m = c.re.exec(subject)) {
      if (m[0] === '') {
        c.re.lastIndex++
        continue
      }
      if (already && already.rank === rank && already.finding.column <= m.index + from + 1 + seg.colOffset)
        break
      if (c.p.accept && !c.p.accept(m, subject, next))
        continue
      const column = from + m.index + 1 + seg.colOffset
      const matched = raw.slice(m.index, m.index + m[0].length)
      best.set(c.rule, { rank, finding: {
        rule: c.rule,
        path: seg.path,
        line: seg.lineOffset + line + 1,
        column,
        message: c.p.message,
        excerpt: c.rule === 'secrets' ? redact(m[1] ?? matched) : excerptAt(raw, m.index, m[0].length),
        ...(c.p.severity ? { severity: c.p.severity } : {}),
      } })
      break
    }
  }
  for (const { rank, finding } of best.values()) {
    // Nothing in a later window of this line can beat an error.
    if (rank === 0)
      done.add(finding.rule)
    out.push(finding)
  }
}
