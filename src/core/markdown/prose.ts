/**
 * The prose of a markdown text: the same text with everything that is not prose (frontmatter, fenced
 * code, HTML comments, code spans) blanked, so offsets, lines and columns still hold. Linear scans:
 * every file is hostile input (a megabyte of unmatched backticks must not go quadratic).
 */

/** Every character but `\n` turned into a space (one repeat per line, not one replacement per character). */
function blank(s: string): string {
  // Most blanked ranges (code spans) are one line: no array of lines for those.
  let nl = s.indexOf('\n')
  if (nl === -1)
    return ' '.repeat(s.length)
  let out = ''
  let at = 0
  for (; nl !== -1; nl = s.indexOf('\n', at)) {
    out += `${' '.repeat(nl - at)}\n`
    at = nl + 1
  }
  return out + ' '.repeat(s.length - at)
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
export function lineStartMatches(
  text: string,
  anchors: readonly string[],
  sticky: RegExp,
  from = 0,
): RegExpExecArray[] {
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

/**
 * The text with `ranges` (the frontmatter and the fenced code blocks, sorted), then HTML comments, then
 * code spans blanked. A `\r` becomes a space. Indented code blocks are not recognised: telling them from
 * list continuations takes more than this needs.
 */
export function maskProse(text: string, ranges: Array<[number, number]>): string {
  const source = text.includes('\r') ? text.replace(/\r/g, ' ') : text
  return maskCodeSpans(blankComments(blankRanges(source, ranges)))
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
