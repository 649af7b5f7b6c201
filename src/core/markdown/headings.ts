/**
 * ATX and setext headings of the prose, and the fragment ids a link may target (GitHub's heading slugs).
 */
import { lineStartMatches } from './prose'

export interface MdHeading {
  text: string
  level: number
  /** Offset of the heading's first line. */
  offset: number
  kind: 'atx' | 'setext'
}

// Lines that start another block: they end a paragraph and cannot be setext heading content.
const BLOCK_START = new RegExp(
  [
    String.raw`^ {0,3}(?:[-*+>|]|\d{1,9}[.)])(?:[ \t]|$)`,
    String.raw`^ {0,3}\[[^\]\n]{1,999}\]:`,
    String.raw`^ {0,3}#{1,6}(?:[ \t]|$)`,
    String.raw`^ {0,3}(?:=+|-+)[ \t]*$`,
  ].join('|'),
)

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+([^\n]*))?[ \t]*$/my
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/my

export function findHeadings(prose: string): MdHeading[] {
  const headings: MdHeading[] = []
  for (const m of lineStartMatches(prose, ['#'], ATX))
    headings.push({ text: atxContent(m[2] ?? ''), level: m[1].length, offset: m.index, kind: 'atx' })

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
      headings.push({ text: lines.reverse().join(' '), level: m[1][0] === '=' ? 1 : 2, offset: first, kind: 'setext' })
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

/** Fragment ids a link may target: GitHub heading slugs plus explicit `id=`/`name=` anchors of HTML tags. */
export function anchorsOf(headings: readonly MdHeading[], prose: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const h of headings) anchors.add(uniqueSlug(githubSlug(h.text), seen))
  if (prose.includes('<')) {
    for (const m of prose.matchAll(
      /<[A-Za-z][^<>]{0,1000}?\s(?:id|name)\s*=\s*(?:"([^"<>]{0,500})"|'([^'<>]{0,500})')/g,
    ))
      anchors.add(m[1] ?? m[2])
  }
  return anchors
}
