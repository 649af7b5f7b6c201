/**
 * The block structure the checks need: the frontmatter and the fenced code blocks. One pass over the
 * lines, constant work per character, because every file is hostile input.
 */

/** A fenced code block (CommonMark 4.5). */
export interface MdFence {
  /** 0-based line of the opening fence. */
  openLine: number
  /** 0-based line of the closing fence; the text's last line when the fence is unclosed. */
  closeLine: number
  closed: boolean
  /** Offset of the opening fence's first backtick or tilde. */
  start: number
  /** Offset just past the closing fence's line (before its `\n` or `\r\n`); the text's length when unclosed. */
  end: number
  /** Characters before the fence on its line: the indentation, and a list item's marker when the fence opens one. */
  column: number
  char: '`' | '~'
  /** Length of the opening run. */
  length: number
  /** The info string (`js title="x"`), without the spaces and tabs around it. */
  info: string
}

/**
 * Offset just past the frontmatter's closing delimiter line (before its line break), or 0 when the text
 * has none. Frontmatter is not markdown: nothing in it is a fence, a heading or a link.
 */
export function frontmatterEnd(text: string): number {
  const open = /^---[ \t\r]*(?:ya?ml)?[ \t\r]*\n/.exec(text)
  if (!open)
    return 0
  const close = /\n(?:---|\.\.\.)[ \t\r]*(?=\n|$)/g
  close.lastIndex = open[0].length - 1
  const m = close.exec(text)
  return m ? m.index + m[0].length : 0
}

/** List items nested deeper than this are read as text: CommonMark sets no limit, a hostile file would. */
const MAX_LIST_DEPTH = 32

const BACKTICK = 96
const TILDE = 126
const SPACE = 32
const TAB = 9

/**
 * The fenced code blocks after `from`, per CommonMark: an opening run of at least three backticks or
 * tildes, indented at most 3 columns (relative to the list item that holds it, so a fence inside a
 * nested list item may sit deeper); a backtick fence's info string has no backtick. The block closes at
 * a run of the same character, at least as long, indented at most 3 columns more than its list item,
 * followed by nothing but spaces and tabs; an unclosed fence runs to the end of the text.
 *
 * List items are tracked only for where their content starts. Three things are deliberately simpler
 * than CommonMark, as all the earlier finders were and as skill authors write: a fence in a blockquote
 * (`> ````) is not recognised, an HTML block does not hide a fence, and a line indented less than the
 * fence's list item does not close the fence (authors write `# comment` lines at column 0 inside an
 * indented shell block). A line ends at `\n` (`\r\n` too); a lone `\r` or U+2028 does not end one.
 */
export function findFences(text: string, from = 0): MdFence[] {
  const fences: MdFence[] = []
  if (!text.includes('```', from) && !text.includes('~~~', from))
    return fences
  // Content columns of the open list items, innermost last.
  const items: number[] = []
  // The last line was paragraph text: a less indented text line continues it (a lazy line).
  let paragraph = false
  // An item opened empty on the last line (`-`): a blank line ends it (an item begins with at most one blank line).
  let empty = -1
  let fence: MdFence | null = null
  let base = 0 // the open fence's list item content column
  let line = 0
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < from; nl = text.indexOf('\n', nl + 1)) line++
  let s = from === 0 ? 0 : text.lastIndexOf('\n', from - 1) + 1
  for (; ; line++) {
    let e = text.indexOf('\n', s)
    if (e === -1)
      e = text.length
    const end = e > s && text.charCodeAt(e - 1) === 13 ? e - 1 : e
    // Indentation in columns (a tab advances to the next multiple of 4).
    let p = s
    let col = 0
    for (; p < end; p++) {
      const c = text.charCodeAt(p)
      if (c === SPACE)
        col++
      else if (c === TAB)
        col += 4 - (col % 4)
      else break
    }

    if (fence) {
      if (col - base <= 3 && text.charCodeAt(p) === (fence.char === '`' ? BACKTICK : TILDE)) {
        const run = runLength(text, p, end)
        if (run >= fence.length && onlyBlanks(text, p + run, end)) {
          fence.closeLine = line
          fence.end = end
          fence.closed = true
          fences.push(fence)
          fence = null
          paragraph = false
        }
      }
    }
    else if (p === end) {
      // Blank: the list items stay open.
      paragraph = false
      if (empty !== -1)
        items.length = empty
      empty = -1
    }
    else {
      empty = -1
      let depth = items.length
      while (depth > 0 && items[depth - 1]! > col) depth--
      const lazy = paragraph && depth < items.length
      let container = depth > 0 ? items[depth - 1]! : 0
      // A line may open list items (`1. - ```js`): read its blocks from the left.
      for (let k = 0; ; k++) {
        const c = text.charCodeAt(p)
        if (col - container >= 4) {
          // Indented code, or a paragraph's continuation: no block starts here.
          if (!paragraph)
            items.length = depth
          break
        }
        const run = c === BACKTICK || c === TILDE ? runLength(text, p, end) : 0
        if (run >= 3 && (c === TILDE || !includes(text, BACKTICK, p + run, end))) {
          items.length = depth
          base = container
          fence = {
            openLine: line,
            closeLine: line,
            closed: false,
            start: p,
            end: text.length,
            column: p - s,
            char: c === BACKTICK ? '`' : '~',
            length: run,
            info: text.slice(p + run, end).replace(/^[ \t]+|[ \t]+$/g, ''),
          }
          paragraph = false
          break
        }
        const rule = k === 0 && thematicBreak(text, p, end)
        const marker = rule || depth >= MAX_LIST_DEPTH ? 0 : listMarker(text, p, end)
        if (marker > 0 && (!paragraph || lazy || canInterrupt(text, p, p + marker, end))) {
          // The content starts after 1-4 spaces; 5 or more (indented code), or none, count as one.
          let q = p + marker
          let after = col + marker
          while (q < end && after - col - marker <= 4) {
            const ch = text.charCodeAt(q)
            if (ch !== SPACE && ch !== TAB)
              break
            after += ch === TAB ? 4 - (after % 4) : 1
            q++
          }
          const rest = q < end && after - col - marker <= 4
          items.length = depth
          items.push(rest ? after : col + marker + 1)
          depth++
          container = items[depth - 1]!
          paragraph = false
          if (q === end)
            empty = depth - 1
          if (!rest)
            break
          p = q
          col = after
          continue
        }
        if (rule || (c === 35 /* # */ && atxHeading(text, p, end))) {
          items.length = depth
          paragraph = false
        }
        else if (paragraph && !lazy && k === 0 && setextUnderline(text, p, end)) {
          // The paragraph becomes a heading (an underline is never a lazy line).
          paragraph = false
        }
        else if (!(lazy && k === 0 && c !== 62 /* > */)) {
          // Not a lazy continuation line (those keep the list items open).
          items.length = depth
          paragraph = true
        }
        break
      }
    }
    if (e === text.length)
      break
    s = e + 1
  }
  if (fence) {
    fence.closeLine = line
    fence.end = text.length
    fences.push(fence)
  }
  return fences
}

function runLength(text: string, p: number, end: number): number {
  const c = text.charCodeAt(p)
  let q = p
  while (q < end && text.charCodeAt(q) === c) q++
  return q - p
}

function includes(text: string, code: number, p: number, end: number): boolean {
  for (; p < end; p++) {
    if (text.charCodeAt(p) === code)
      return true
  }
  return false
}

function onlyBlanks(text: string, p: number, end: number): boolean {
  for (; p < end; p++) {
    const c = text.charCodeAt(p)
    if (c !== SPACE && c !== TAB)
      return false
  }
  return true
}

/** Width of a list marker at `p` (`-`, `+`, `*`, `1.`, `1)`) followed by a space, a tab or the line's end; else 0. */
function listMarker(text: string, p: number, end: number): number {
  const c = text.charCodeAt(p)
  let q = p
  if (c === 45 || c === 43 || c === 42) {
    q++
  }
  else {
    while (q < end && q - p < 9 && text.charCodeAt(q) >= 48 && text.charCodeAt(q) <= 57) q++
    if (q === p || q >= end || (text.charCodeAt(q) !== 46 && text.charCodeAt(q) !== 41))
      return 0
    q++
  }
  if (q < end && text.charCodeAt(q) !== SPACE && text.charCodeAt(q) !== TAB)
    return 0
  return q - p
}

/**
 * A list item interrupts a paragraph of its own container only when it has content, and an ordered one only
 * when it starts at 1 (a paragraph of an item that the line leaves does not count: `1. a` then `2. b`).
 */
function canInterrupt(text: string, p: number, q: number, end: number): boolean {
  if (onlyBlanks(text, q, end))
    return false
  const c = text.charCodeAt(p)
  return c === 45 || c === 43 || c === 42 || text.slice(p, q - 1) === '1'
}

/** `***`, `- - -`, `___`: three or more of one of `*-_`, with only spaces and tabs between. */
function thematicBreak(text: string, p: number, end: number): boolean {
  const c = text.charCodeAt(p)
  if (c !== 42 && c !== 45 && c !== 95)
    return false
  let n = 0
  for (; p < end; p++) {
    const ch = text.charCodeAt(p)
    if (ch === c)
      n++
    else if (ch !== SPACE && ch !== TAB)
      return false
  }
  return n >= 3
}

function atxHeading(text: string, p: number, end: number): boolean {
  const run = runLength(text, p, end)
  if (run > 6)
    return false
  const c = text.charCodeAt(p + run)
  return p + run >= end || c === SPACE || c === TAB
}

/** `===` or `---` under a paragraph (the paragraph becomes a heading). */
function setextUnderline(text: string, p: number, end: number): boolean {
  const c = text.charCodeAt(p)
  if (c !== 61 && c !== 45)
    return false
  const run = runLength(text, p, end)
  return onlyBlanks(text, p + run, end)
}
