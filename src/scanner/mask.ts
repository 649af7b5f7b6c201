import type { Lang } from './types'

/** Comment and string ranges of a code text, found by one linear pass (no regex backtracking). */
interface Ranges {
  comments: number[]
  strings: number[]
}

function jsRanges(t: string): Ranges {
  const comments: number[] = []
  const strings: number[] = []
  // Stack of brace depths, one per open template `${`, so `}` knows when it resumes template text.
  const tpl: number[] = []
  let depth = 0
  let i = 0
  const n = t.length
  const scanTemplate = (from: number): number => {
    let j = from
    while (j < n) {
      const c = t.charCodeAt(j)
      if (c === 92) {
        j += 2
        continue
      }
      if (c === 96) {
        strings.push(from, j)
        return j + 1
      }
      if (c === 36 && t.charCodeAt(j + 1) === 123) {
        strings.push(from, j)
        tpl.push(depth)
        depth++
        return j + 2
      }
      j++
    }
    strings.push(from, n)
    return n
  }
  while (i < n) {
    const c = t.charCodeAt(i)
    if (c === 47) {
      const d = t.charCodeAt(i + 1)
      if (d === 47) {
        const e = t.indexOf('\n', i)
        const end = e === -1 ? n : e
        comments.push(i, end)
        i = end
        continue
      }
      if (d === 42) {
        const e = t.indexOf('*/', i + 2)
        const end = e === -1 ? n : e + 2
        comments.push(i, end)
        i = end
        continue
      }
      i++
      continue
    }
    if (c === 39 || c === 34) {
      let j = i + 1
      while (j < n) {
        const x = t.charCodeAt(j)
        if (x === 92) {
          j += 2
          continue
        }
        if (x === c || x === 10)
          break
        j++
      }
      strings.push(i + 1, Math.min(j, n))
      i = j + 1
      continue
    }
    if (c === 96) {
      i = scanTemplate(i + 1)
      continue
    }
    if (c === 123) {
      depth++
    }
    else if (c === 125) {
      depth--
      if (tpl.length && tpl[tpl.length - 1] === depth) {
        tpl.pop()
        i = scanTemplate(i + 1)
        continue
      }
    }
    i++
  }
  return { comments, strings }
}

/** `#` comments; `interpolates`: Ruby, where `#{` inside backticks and `%x()` is code, not a comment. */
function hashRanges(t: string, lang: 'py' | 'sh', interpolates = false): Ranges {
  const comments: number[] = []
  const strings: number[] = []
  let i = 0
  const n = t.length
  while (i < n) {
    const c = t.charCodeAt(i)
    if (c === 35) {
      const p = i === 0 ? 10 : t.charCodeAt(i - 1)
      // In shell `#` starts a comment only at the start of a word (`$#`, `${#a}` are not comments).
      const comment = lang === 'py'
        ? !(interpolates && t.charCodeAt(i + 1) === 123)
        : p === 10 || p === 32 || p === 9 || p === 59 || p === 13
      if (comment) {
        const e = t.indexOf('\n', i)
        const end = e === -1 ? n : e
        comments.push(i, end)
        i = end
        continue
      }
    }
    if (c === 39 || c === 34) {
      const triple = lang === 'py' && t.charCodeAt(i + 1) === c && t.charCodeAt(i + 2) === c
      if (triple) {
        const q = String.fromCharCode(c).repeat(3)
        const e = t.indexOf(q, i + 3)
        const end = e === -1 ? n : e
        strings.push(i + 3, end)
        i = end + 3
        continue
      }
      let j = i + 1
      const escapes = !(lang === 'sh' && c === 39)
      while (j < n) {
        const x = t.charCodeAt(j)
        if (x === 92 && escapes) {
          j += 2
          continue
        }
        if (x === c || (x === 10 && lang === 'py'))
          break
        j++
      }
      // Shell double quotes still expand `$(...)` and backticks: their content stays code.
      if (!(lang === 'sh' && c === 34))
        strings.push(i + 1, Math.min(j, n))
      i = j + 1
      continue
    }
    i++
  }
  return { comments, strings }
}

const blank = (s: string): string => (s.includes('\n') ? s.replace(/[^\n]/g, ' ') : ' '.repeat(s.length))

function apply(t: string, ranges: number[][]): string {
  const all: Array<[number, number]> = []
  for (const r of ranges) {
    for (let k = 0; k < r.length; k += 2) {
      if (r[k + 1]! > r[k]!)
        all.push([r[k]!, r[k + 1]!])
    }
  }
  if (!all.length)
    return t
  all.sort((a, b) => a[0] - b[0])
  let out = ''
  let pos = 0
  for (const [s, e] of all) {
    if (s < pos)
      continue
    out += t.slice(pos, s) + blank(t.slice(s, e))
    pos = e
  }
  return out + t.slice(pos)
}

/** Blanked intervals (flat, sorted, disjoint [start, end) pairs) of each masked view of a text. */
export interface MaskRanges {
  noComments: number[]
  code: number[]
}

/** The intervals `apply` blanks: sorted by start, a range starting inside an earlier one is dropped whole. */
function effective(ranges: number[][]): number[] {
  const all: Array<[number, number]> = []
  for (const r of ranges) {
    for (let k = 0; k < r.length; k += 2) {
      if (r[k + 1]! > r[k]!)
        all.push([r[k]!, r[k + 1]!])
    }
  }
  all.sort((a, b) => a[0] - b[0])
  const out: number[] = []
  let pos = 0
  for (const [s, e] of all) {
    if (s < pos)
      continue
    out.push(s, e)
    pos = e
  }
  return out
}

/** Go has JS's comments and strings (raw strings in backticks); Ruby has Python's `#` comments. */
function codeRanges(text: string, lang: Lang): Ranges | null {
  if (lang === 'js' || lang === 'go')
    return jsRanges(text)
  if (lang === 'py' || lang === 'sh')
    return hashRanges(text, lang)
  // Ruby: Python's `#` comments and quotes; its backticks run commands, so they stay code.
  return lang === 'rb' ? hashRanges(text, 'py', true) : null
}

let last: { text: string, lang: Lang, ranges: MaskRanges } | null = null

/** The ranges each masked view blanks in a text (shared: callers only read them). */
export function maskRanges(text: string, lang: Lang): MaskRanges {
  // The line scan of a segment and its embedded views (Python's joined lines) ask for the same text's ranges.
  if (last?.text === text && last.lang === lang)
    return last.ranges
  const r = codeRanges(text, lang)
  const ranges = r
    ? { noComments: effective([r.comments]), code: effective([r.comments, r.strings]) }
    : { noComments: [], code: [] }
  last = { text, lang, ranges }
  return ranges
}

/** `maskViews(text)[view].slice(from, to)` without building the whole masked copy (`iv`: that view's ranges). */
export function maskedSlice(text: string, iv: number[], from: number, to: number): string {
  // First interval ending after `from` (binary search over the pairs).
  let lo = 0
  let hi = iv.length >> 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (iv[2 * mid + 1]! <= from)
      lo = mid + 1
    else hi = mid
  }
  let out = ''
  let pos = from
  for (let k = 2 * lo; k < iv.length && iv[k]! < to; k += 2) {
    const s = Math.max(iv[k]!, from)
    const e = Math.min(iv[k + 1]!, to)
    out += text.slice(pos, s) + blank(text.slice(s, e))
    pos = e
  }
  return out + text.slice(pos, to)
}

/** Same-length copies of a code text: without comments, and without comments nor string contents. */
export function maskViews(text: string, lang: Lang): { noComments: string, code: string } {
  const r = codeRanges(text, lang)
  if (!r)
    return { noComments: text, code: text }
  return { noComments: apply(text, [r.comments]), code: apply(text, [r.comments, r.strings]) }
}
