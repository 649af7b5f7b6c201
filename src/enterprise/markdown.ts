/**
 * Just enough CommonMark/GFM to find the links, images and headings of a skill's markdown, with
 * their offsets. Not a renderer: linear scans with bounded lookahead, because every file is
 * hostile input (a megabyte of unmatched brackets or backticks must not go quadratic).
 */

export type MdLinkKind = 'link' | 'image' | 'definition' | 'autolink' | 'html' | 'bare'

export interface MdLink {
  kind: MdLinkKind
  /** Destination as written: angle brackets removed, backslash escapes resolved, not percent-decoded. */
  dest: string
  /** Offset of the destination's first character in the original text. */
  offset: number
}

export interface MdHeading {
  text: string
  level: number
  offset: number
}

export interface MdAnalysis {
  links: MdLink[]
  headings: MdHeading[]
  /** Fragment ids a link may target: GitHub heading slugs plus explicit `id=`/`name=` anchors. */
  anchors: Set<string>
  /** The text with frontmatter, fenced code, inline code and HTML comments blanked (same offsets). */
  prose: string
}

const MAX_DEST = 4096
const MAX_TITLE = 2048
const MAX_OPENERS = 256
const MAX_PAREN_DEPTH = 32

export function analyzeMarkdown(text: string): MdAnalysis {
  const prose = maskCode(text)
  return new Analysis(findLinks(prose), prose)
}

/**
 * Headings and slugs are only needed for fragment links and the security checkpoint: on demand.
 * A class, not an object literal with getters: a literal's accessors are new closures per call, which
 * gives every result its own hidden class, and the maps' transition tree then keeps each `prose` alive
 * through young-generation GCs (measured: most of an audit's scavenge survivors).
 */
class Analysis implements MdAnalysis {
  private headingList: MdHeading[] | null = null
  private anchorSet: Set<string> | null = null
  constructor(
    readonly links: MdLink[],
    readonly prose: string,
  ) {}

  get headings(): MdHeading[] {
    return (this.headingList ??= findHeadings(this.prose))
  }

  get anchors(): Set<string> {
    if (this.anchorSet)
      return this.anchorSet
    const anchors = new Set<string>()
    const seen = new Map<string, number>()
    for (const h of this.headings) anchors.add(uniqueSlug(githubSlug(h.text), seen))
    if (this.prose.includes('<')) {
      for (const m of this.prose.matchAll(
        /<[A-Za-z][^<>]{0,1000}?\s(?:id|name)\s*=\s*(?:"([^"<>]{0,500})"|'([^'<>]{0,500})')/g,
      ))
        anchors.add(m[1] ?? m[2])
    }
    return (this.anchorSet = anchors)
  }
}

// --- blanking ----------------------------------------------------------------------------------

/** Every character but `\n` turned into a space (one repeat per line, not one replacement per character). */
function blank(s: string): string {
  return s
    .split('\n')
    .map(line => ' '.repeat(line.length))
    .join('\n')
}

/** Blank ranges (sorted, non-overlapping), keeping newlines so offsets, lines and columns hold. */
function blankRanges(text: string, ranges: Array<[number, number]>): string {
  if (ranges.length === 0)
    return text
  const parts: string[] = []
  let at = 0
  for (const [from, to] of ranges) {
    if (to <= at)
      continue
    const start = Math.max(from, at)
    parts.push(text.slice(at, start), blank(text.slice(start, to)))
    at = to
  }
  parts.push(text.slice(at))
  return parts.join('')
}

/** HTML comments blanked; an unclosed `<!--` stays (and so does every later one: none can close). */
function blankComments(text: string): string {
  let at = text.indexOf('<!--')
  if (at === -1)
    return text
  const parts: string[] = []
  let last = 0
  while (at !== -1) {
    const close = text.indexOf('-->', at + 4)
    if (close === -1)
      break
    parts.push(text.slice(last, at), blank(text.slice(at, close + 3)))
    last = close + 3
    at = text.indexOf('<!--', last)
  }
  parts.push(text.slice(last))
  return parts.join('')
}

/** Where `^` of a multiline regex matches: after \n, \r, U+2028, U+2029, or at 0. */
function atLineStart(text: string, p: number): boolean {
  if (p === 0)
    return true
  const c = text.charCodeAt(p - 1)
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029
}

/**
 * What `text.matchAll()` of the global form of `sticky` (flags `my`, pattern `^[ \t]*<anchor>...`)
 * returns from `from` on: in order and non-overlapping. Only lines whose first non-blank text is an
 * anchor are tried, and indexOf finds those, so prose with few anchors costs next to nothing.
 */
function lineStartMatches(text: string, anchors: readonly string[], sticky: RegExp, from = 0): RegExpExecArray[] {
  const out: RegExpExecArray[] = []
  const next = anchors.map(a => text.indexOf(a, from))
  let end = from
  for (;;) {
    let k = -1
    for (let j = 0; j < next.length; j++) {
      if (next[j] !== -1 && (k === -1 || next[j] < next[k]))
        k = j
    }
    if (k === -1)
      return out
    const q = next[k]
    next[k] = text.indexOf(anchors[k], q + 1)
    let p = q
    while (p > 0 && (text.charCodeAt(p - 1) === 32 || text.charCodeAt(p - 1) === 9)) p--
    if (p < end || !atLineStart(text, p))
      continue
    sticky.lastIndex = p
    const m = sticky.exec(text)
    if (!m)
      continue
    out.push(m)
    end = p + m[0].length
  }
}

const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})([^\n]*)$/my

/**
 * Frontmatter, fenced code blocks, HTML comments and code spans are not prose: nothing in them is
 * a link. Fences are recognised at any indentation (skills put them inside list items).
 * Indented code blocks are not recognised: telling them from list continuations needs a full parser.
 */
export function maskCode(text: string): string {
  const source = text.includes('\r') ? text.replace(/\r/g, ' ') : text
  const ranges: Array<[number, number]> = []

  let from = 0
  const open = /^---[ \t]*(?:ya?ml)?[ \t]*\n/.exec(source)
  if (open) {
    const close = /^(?:---|\.\.\.)[ \t]*$/m
    const rest = source.slice(open[0].length)
    const m = close.exec(rest)
    if (m) {
      const end = open[0].length + m.index + m[0].length
      ranges.push([0, end])
      from = end
    }
  }

  // Only lines that look like fences matter: visit the ``` and ~~~ runs, not every line.
  let fence: { char: string, len: number, start: number } | null = null
  for (const m of lineStartMatches(source, ['```', '~~~'], FENCE_LINE, from)) {
    if (fence) {
      if (m[1][0] === fence.char && m[1].length >= fence.len && m[2].trim() === '') {
        ranges.push([fence.start, m.index + m[0].length])
        fence = null
      }
    }
    else if (!(m[1][0] === '`' && m[2].includes('`'))) {
      fence = { char: m[1][0], len: m[1].length, start: m.index }
    }
  }
  // An unclosed fence runs to the end of the document, as in CommonMark.
  if (fence)
    ranges.push([fence.start, source.length])

  const masked = blankComments(blankRanges(source, ranges))
  return maskCodeSpans(masked)
}

/**
 * A code span opens with a run of N backticks and closes at the next run of exactly N in the same
 * paragraph. The next run of each length is precomputed, so this stays linear.
 */
function maskCodeSpans(text: string): string {
  if (!text.includes('`'))
    return text
  const ranges: Array<[number, number]> = []
  // One pass over the backtick runs; the paragraph breaks are found as far as the runs need them.
  const separator = /\n[ \t]*\n/g
  const nextBreak = (): number => separator.exec(text)?.index ?? text.length
  let paragraphEnd = nextBreak()
  let runs: Array<[number, number]> = []
  const backticks = /`+/g
  for (let m = backticks.exec(text); m; m = backticks.exec(text)) {
    while (m.index >= paragraphEnd) {
      pairRuns(runs, ranges)
      runs = []
      paragraphEnd = nextBreak()
    }
    let at = m.index
    let len = m[0].length
    // A backslash escapes the first backtick of a run only.
    if (escaped(text, at)) {
      at++
      len--
    }
    if (len > 0)
      runs.push([at, len])
  }
  pairRuns(runs, ranges)
  return blankRanges(text, ranges)
}

/** Pairs the runs of one paragraph: each opener with the next run of the same length. */
function pairRuns(runs: Array<[number, number]>, ranges: Array<[number, number]>): void {
  const next = new Array<number>(runs.length).fill(-1)
  const lastOfLength = new Map<number, number>()
  for (let i = runs.length - 1; i >= 0; i--) {
    next[i] = lastOfLength.get(runs[i][1]) ?? -1
    lastOfLength.set(runs[i][1], i)
  }
  for (let i = 0; i < runs.length;) {
    const j = next[i]
    if (j === -1) {
      i++
      continue
    }
    ranges.push([runs[i][0], runs[j][0] + runs[j][1]])
    i = j + 1
  }
}

/** Whether the character at `i` is itself escaped by an odd run of backslashes. */
function escaped(text: string, i: number): boolean {
  let n = 0
  for (let k = i - 1; k >= 0 && text[k] === '\\'; k--) n++
  return n % 2 === 1
}

// --- headings ----------------------------------------------------------------------------------

// Lines that start another block: they end a paragraph and cannot be setext heading content.
const BLOCK_START
  = /^ {0,3}(?:[-*+>|]|\d{1,9}[.)])(?:[ \t]|$)|^ {0,3}\[[^\]\n]{1,999}\]:|^ {0,3}#{1,6}(?:[ \t]|$)|^ {0,3}(?:=+|-+)[ \t]*$/

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+([^\n]*))?[ \t]*$/my
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/my

function findHeadings(prose: string): MdHeading[] {
  const headings: MdHeading[] = []
  for (const m of lineStartMatches(prose, ['#'], ATX))
    headings.push({ text: atxContent(m[2] ?? ''), level: m[1].length, offset: m.index })

  // Setext: an underline below a paragraph; walk back over the paragraph's lines.
  for (const m of lineStartMatches(prose, ['=', '-'], SETEXT)) {
    const lines: string[] = []
    let end = m.index - 1 // the newline before the underline
    let first = -1
    while (end > 0) {
      const start = prose.lastIndexOf('\n', end - 1) + 1
      const line = prose.slice(start, end)
      if (line.trim() === '' || BLOCK_START.test(line))
        break
      lines.push(line.trim())
      first = start
      end = start - 1
    }
    if (first !== -1)
      headings.push({ text: lines.reverse().join(' '), level: m[1][0] === '=' ? 1 : 2, offset: first })
  }
  return headings.sort((a, b) => a.offset - b.offset)
}

/** Drops the optional closing `#` sequence (done by hand: a regex here backtracks on long lines). */
function atxContent(rest: string): string {
  let end = rest.length
  while (end > 0 && /[ \t]/.test(rest[end - 1])) end--
  let hashes = end
  while (hashes > 0 && rest[hashes - 1] === '#') hashes--
  if (hashes < end && (hashes === 0 || /[ \t]/.test(rest[hashes - 1])))
    end = hashes
  return rest.slice(0, end).trim()
}

/**
 * GitHub's heading id: the rendered text lowercased, characters other than letters, marks,
 * numbers, `_`, `-` and space removed, spaces turned into `-`. Inline markdown is reduced to its
 * text first (links to their label, code to its content, emphasis markers dropped).
 */
export function githubSlug(heading: string): string {
  const text = heading
    .slice(0, 2000)
    .replace(/!?\[([^\]]{0,500})\]\([^)]{0,2000}\)/g, '$1')
    .replace(/!?\[([^\]]{0,500})\]\[[^\]]{0,500}\]/g, '$1')
    .replace(/<[^<>]{0,1000}>/g, '')
    .replace(/`/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[*~]/g, '')
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, '$1')
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Repeated headings get `-1`, `-2`, ... as on GitHub. */
function uniqueSlug(slug: string, seen: Map<string, number>): string {
  let result = slug
  let n = seen.get(slug)
  if (n !== undefined) {
    do result = `${slug}-${++n}`
    while (seen.has(result))
    seen.set(slug, n)
  }
  seen.set(result, seen.get(result) ?? 0)
  return result
}

// --- links -------------------------------------------------------------------------------------

const unescape = (dest: string): string => dest.replace(/\\([!-/:-@[-`{-~])/g, '$1')

const DEFINITION
  = /^ {0,3}\[(?:[^[\]\\\n]|\\.){1,999}\]:[ \t]*(?:<([^<>\n]*)>|(\S+))(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/dmy
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]{0,4096})>/y
const HTML_TAG = /<(?:a|img|source|link)\s[^<>]{0,2000}>/iy
const BARE_URL = /\bhttps?:\/\/[^\s<>]{1,4096}/iy

function findLinks(prose: string): MdLink[] {
  const links: MdLink[] = []
  // Ranges owned by a link (its whole `[text](dest)`, tag or definition line), so a URL inside
  // one is not counted again as a bare URL or an autolink.
  const claimed: Array<[number, number]> = []
  const add = (kind: MdLinkKind, raw: string, offset: number): void => {
    links.push({ kind, dest: kind === 'autolink' || kind === 'bare' ? raw : unescape(raw), offset })
  }

  const definitionDests = new Set<number>()
  // Reference definitions `[id]: dest "title"`: checked where they are written, whether used or not.
  for (const m of lineStartMatches(prose, ['['], DEFINITION)) {
    const group = m[1] !== undefined ? 1 : 2
    claimed.push([m.index, m.index + m[0].length])
    if (m[group] === '')
      continue
    add('definition', m[group], m.indices![group]![0])
    definitionDests.add(m.indices![group]![0])
  }

  const openers: number[] = []
  // Only the stretch from the first `[`/`<` (with the `!` or backslashes before it, which change its
  // meaning) to the last one, and on while a bracket is open, can hold a link.
  const first = firstOf(prose, '[', '<')
  const last = first === -1 ? -1 : Math.max(prose.lastIndexOf('['), prose.lastIndexOf('<'))
  let start = first === -1 ? prose.length : first
  if (start > 0 && prose[start - 1] === '!')
    start--
  while (start > 0 && prose[start - 1] === '\\') start--
  for (let i = start; i < prose.length; i++) {
    if (i > last && openers.length === 0)
      break
    const c = prose[i]
    if (c === '\\') {
      i++
    }
    else if (c === '!' && prose[i + 1] === '[') {
      if (openers.length < MAX_OPENERS)
        openers.push(-i - 1) // negative: an image opener
      i++
    }
    else if (c === '[') {
      if (openers.length < MAX_OPENERS)
        openers.push(i)
    }
    else if (c === ']') {
      const opener = openers.pop()
      if (opener === undefined || prose[i + 1] !== '(')
        continue
      const parsed = inlineDestination(prose, i + 2)
      if (!parsed)
        continue
      const image = opener < 0
      if (parsed.dest !== '')
        add(image ? 'image' : 'link', parsed.dest, parsed.offset)
      claimed.push([image ? -opener - 1 : opener, parsed.end])
      // A link cannot contain another link: its enclosing openers are spent.
      if (!image)
        openers.length = 0
      i = parsed.end - 1
    }
    else if (c === '<') {
      AUTOLINK.lastIndex = i
      const m = AUTOLINK.exec(prose)
      if (m) {
        if (!definitionDests.has(i + 1))
          add('autolink', m[1], i + 1)
        claimed.push([i, i + m[0].length])
        i += m[0].length - 1
      }
    }
    else if (c === '\n' && openers.length > 0 && blankLineAt(prose, i + 1)) {
      openers.length = 0 // brackets do not pair across paragraphs
    }
  }

  // Raw HTML `<a href>`, `<img src>`: rendered as links by GitHub and agents alike. A tag holds no
  // other `<`, so trying the tag at each `<` finds what a global scan would.
  for (let i = prose.indexOf('<'); i !== -1; i = prose.indexOf('<', i + 1)) {
    HTML_TAG.lastIndex = i
    const tag = HTML_TAG.exec(prose)
    if (!tag)
      continue
    claimed.push([i, i + tag[0].length])
    for (const attr of tag[0].matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/dgi)) {
      const group = attr[1] !== undefined ? 1 : attr[2] !== undefined ? 2 : 3
      if (attr[group] === '')
        continue
      add('html', attr[group].replace(/&amp;/g, '&'), i + attr.indices![group]![0])
    }
    i += tag[0].length - 1
  }

  // GFM autolink literals: bare http(s) URLs in prose, trailing punctuation not included.
  claimed.sort((x, y) => x[0] - y[0] || y[1] - x[1])
  let k = 0
  let reach = -1 // furthest end among claimed ranges starting at or before the URL
  for (const m of bareUrls(prose)) {
    while (k < claimed.length && claimed[k][0] <= m.index) reach = Math.max(reach, claimed[k++][1])
    if (m.index < reach)
      continue
    add('bare', trimAutolink(m[0]), m.index)
  }
  return links.sort((x, y) => x.offset - y.offset)
}

/**
 * The matches of /\bhttps?:\/\/[^\s<>]{1,4096}/gi, found from each `://`: a URL starts 4 or 5
 * characters before it (`http`, `https`), and never before the end of the previous URL.
 */
function bareUrls(prose: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = []
  let end = 0
  for (let q = prose.indexOf('://'); q !== -1; q = prose.indexOf('://', q + 1)) {
    for (let start = q - 5; start <= q - 4; start++) {
      if (start < end)
        continue
      BARE_URL.lastIndex = start
      const m = BARE_URL.exec(prose)
      if (!m)
        continue
      out.push(m)
      end = start + m[0].length
      break
    }
  }
  return out
}

function firstOf(text: string, a: string, b: string): number {
  const i = text.indexOf(a)
  const j = text.indexOf(b)
  return i === -1 ? j : j === -1 ? i : Math.min(i, j)
}

const BLANK_LINE = /[ \t]*(?:\n|$)/y
function blankLineAt(s: string, at: number): boolean {
  BLANK_LINE.lastIndex = at
  return BLANK_LINE.test(s)
}

function trimAutolink(url: string): string {
  let end = url.length
  for (;;) {
    const last = url[end - 1]
    if (/[?!.,:*_~'"]/.test(last)) {
      end--
    }
    else if (last === ')') {
      let open = 0
      let close = 0
      for (let i = 0; i < end; i++) {
        if (url[i] === '(')
          open++
        else if (url[i] === ')')
          close++
      }
      if (close > open)
        end--
      else break
    }
    else {
      break
    }
  }
  return url.slice(0, end)
}

/** Parses `dest "title")` after `](`; null when it is not an inline link. */
function inlineDestination(s: string, start: number): { dest: string, offset: number, end: number } | null {
  let p = skipSpace(s, start)
  let dest: string
  let offset: number
  if (s[p] === '<') {
    const close = s.slice(p + 1, p + 1 + MAX_DEST).search(/[<>\n]/)
    if (close === -1 || s[p + 1 + close] !== '>')
      return null
    dest = s.slice(p + 1, p + 1 + close)
    offset = p + 1
    p = p + close + 2
  }
  else {
    offset = p
    let depth = 0
    const limit = Math.min(s.length, p + MAX_DEST)
    for (; p < limit; p++) {
      const c = s[p]
      if (c === '\\' && p + 1 < limit) {
        p++
      }
      else if (c === '(') {
        if (++depth > MAX_PAREN_DEPTH)
          return null
      }
      else if (c === ')') {
        if (depth === 0)
          break
        depth--
      }
      else if (c <= ' ') {
        break
      }
    }
    if (depth !== 0 || p >= limit)
      return null
    dest = s.slice(offset, p)
  }
  const afterDest = p
  p = skipSpace(s, p)
  if (p > afterDest && (s[p] === '"' || s[p] === '\'' || s[p] === '(')) {
    const close = s[p] === '(' ? ')' : s[p]
    const limit = Math.min(s.length, p + MAX_TITLE)
    let q = p + 1
    for (; q < limit; q++) {
      if (s[q] === '\\')
        q++
      else if (s[q] === close)
        break
      else if (close === ')' && s[q] === '(')
        return null
      else if (s[q] === '\n' && blankLineAt(s, q + 1))
        return null
    }
    if (q >= limit)
      return null
    p = skipSpace(s, q + 1)
  }
  if (s[p] !== ')')
    return null
  return { dest, offset, end: p + 1 }
}

/** Spaces and tabs, and at most one line break (link parts may not span a blank line). */
function skipSpace(s: string, p: number): number {
  let newline = false
  for (; p < s.length; p++) {
    if (s[p] === ' ' || s[p] === '\t')
      continue
    if (s[p] === '\n' && !newline) {
      newline = true
      continue
    }
    break
  }
  return p
}
