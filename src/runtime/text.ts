import { stem } from './stem'

/**
 * The one text analyser shared by the index builder and the query side: any change here changes
 * every stored term, so bump ANALYZER_VERSION with it (the runtime refuses a mismatched index).
 */
export const ANALYZER_VERSION = 2

// Function words and skill boilerplate that carry no intent ("use this skill when ...").
const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below '
    + 'between both but by can could did do does doing done down during each either etc few for from further '
    + 'get gets got had has have having he her here hers herself him himself his how i if in into is it its '
    + 'itself just let lets like may me might more most must my myself need needs no nor not now of off on '
    + 'once one only or other our ours ourselves out over own please same shall she should so some such than '
    + 'that the their theirs them themselves then there these they this those through to too under until up '
    + 'upon us use used uses using very via want was we were what when where whether which while who whom '
    + 'why will with within without would yes yet you your yours yourself yourselves skill skills'
  ).split(' '),
)

export const isStopword = (word: string): boolean => STOPWORDS.has(word)

/** Longest token kept; longer runs are hashes, base64 or minified code, noise for search. */
const MAX_TOKEN = 40

/** Text whose code units are all ASCII (NUL to DEL). */
const ASCII = /^[\0-\x7F]*$/

/**
 * Lowercase word tokens: letters and digits of any script, camelCase and snake_case split,
 * stopwords dropped. Never throws, linear in the input.
 */
export function tokenize(text: string): string[] {
  // Most skill text is ASCII: a char-code scan gives the same tokens as the Unicode path without its regexes.
  if (ASCII.test(text))
    return tokenizeAscii(text)
  const out: string[] = []
  // Split camelCase before lowercasing: `getUserId` -> `get User Id`.
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
  for (const m of spaced.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0]
    if (word.length > MAX_TOKEN || STOPWORDS.has(word))
      continue
    // One-character tokens carry no meaning except digits (`v2`, `s3` are split as letters + digits).
    if (word.length === 1 && !/[0-9]/.test(word))
      continue
    out.push(word)
  }
  return out
}

/**
 * Stems of words seen before: text repeats its words, and stemming is most of the analysis cost.
 * Bounded (cleared when full) so a hostile stream of distinct tokens cannot grow it without limit.
 */
const stemMemo = new Map<string, string>()
const STEM_MEMO_MAX = 200_000

export function memoStem(word: string): string {
  let s = stemMemo.get(word)
  if (s === undefined) {
    if (stemMemo.size >= STEM_MEMO_MAX)
      stemMemo.clear()
    s = stem(word)
    stemMemo.set(word, s)
  }
  return s
}

const isLower = (c: number) => c >= 97 && c <= 122
const isUpper = (c: number) => c >= 65 && c <= 90
const isDigit = (c: number) => c >= 48 && c <= 57

/**
 * The tokens tokenize() keeps from ASCII text as [start, end) ranges (lowercase letters and digits,
 * split where a lowercase letter or digit meets an uppercase one), stopwords not yet removed: the
 * index builder looks ranges up without making a string per token. False for non-ASCII text.
 */
export function scanAsciiTokens(text: string, visit: (start: number, end: number) => void): boolean {
  if (!ASCII.test(text))
    return false
  const emit = (start: number, end: number) => {
    const length = end - start
    if (length > MAX_TOKEN || (length === 1 && !isDigit(text.charCodeAt(start))))
      return
    visit(start, end)
  }
  let start = -1
  let prev = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isLower(c) || isUpper(c) || isDigit(c)) {
      if (start < 0) {
        start = i
      }
      else if (isUpper(c) && (isLower(prev) || isDigit(prev))) {
        emit(start, i)
        start = i
      }
    }
    else if (start >= 0) {
      emit(start, i)
      start = -1
    }
    prev = c
  }
  if (start >= 0)
    emit(start, text.length)
  return true
}

/** tokenize() for ASCII text. */
function tokenizeAscii(text: string): string[] {
  const out: string[] = []
  const lower = text.toLowerCase()
  scanAsciiTokens(text, (start, end) => {
    const word = lower.slice(start, end)
    if (!STOPWORDS.has(word))
      out.push(word)
  })
  return out
}

/** Tokens reduced to their stems: the terms of the lexical index. */
export function analyze(text: string, stemming = true): string[] {
  const tokens = tokenize(text)
  if (stemming) {
    for (let i = 0; i < tokens.length; i++) tokens[i] = memoStem(tokens[i])
  }
  return tokens
}
