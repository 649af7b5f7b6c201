/**
 * Links, images, reference definitions, autolinks, raw HTML `href`/`src` and bare URLs of the prose, with
 * their offsets. Not a renderer: linear scans with bounded lookahead (a megabyte of unmatched brackets
 * must not go quadratic).
 */
import { lineStartMatches } from './prose'

export type MdLinkKind = 'link' | 'image' | 'definition' | 'autolink' | 'html' | 'bare'

export interface MdLink {
  kind: MdLinkKind
  /** Destination as written: angle brackets removed, backslash escapes resolved, not percent-decoded. */
  dest: string
  /** Offset of the destination's first character in the original text. */
  offset: number
}

const MAX_DEST = 4096
const MAX_TITLE = 2048
const MAX_OPENERS = 256
const MAX_PAREN_DEPTH = 32

const unescape = (dest: string): string => dest.replace(/\\([!-/:-@[-`{-~])/g, '$1')

// `[label]: <dest>` or `[label]: dest`, then an optional title.
const DEFINITION = new RegExp(
  String.raw`^ {0,3}\[(?:[^[\]\\\n]|\\.){1,999}\]:[ \t]*(?:<([^<>\n]*)>|(\S+))`
  + String.raw`(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$`,
  'dmy',
)
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]{0,4096})>/y
const HTML_TAG = /<(?:a|img|source|link)\s[^<>]{0,2000}>/iy
const BARE_URL = /\bhttps?:\/\/[^\s<>]{1,4096}/iy

export function findLinks(prose: string): MdLink[] {
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
