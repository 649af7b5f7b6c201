/**
 * The English (Porter2) Snowball stemmer, written for this project. It runs at build time on skill
 * text and at query time on the user's words, so both sides land on the same stems; it has to stay
 * byte-for-byte stable, which is why it lives here and not in a dependency. Porter2 over the
 * original Porter (1980) conflates what users and skills write differently: `deploying` and
 * `deployment` (a `y` after a vowel stays a consonant), `quickly` and `quick` (the `li` ending),
 * `biology` and `biological`.
 */

// `Y` stands for a consonant y (see stem): it is not in this class.
const isVowel = (c: string) => c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y'

const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt'])
const LI_ENDING = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't'])
/** Words whose R1 starts after this prefix, not at the usual place. */
const R1_PREFIXES = ['gener', 'commun', 'arsen', 'past', 'univers', 'later', 'emerg', 'organ']

/** Irregular words the algorithm's rules would get wrong, and their stems. */
const EXCEPTIONS = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
])
/** Words left as they are once step 1a has run. */
const AFTER_1A = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed'])

/** Start of the region after the first non-vowel that follows a vowel, from `from`. */
function regionAfter(w: string, from: number): number {
  for (let i = from + 1; i < w.length; i++) {
    if (!isVowel(w[i]) && isVowel(w[i - 1]))
      return i + 1
  }
  return w.length
}

/**
 * A short syllable ends at `end` (exclusive): non-vowel, vowel, non-vowel other than w, x, Y; or, at the
 * start of the word, vowel, non-vowel.
 */
function shortSyllableAt(w: string, end: number): boolean {
  if (end === 2)
    return isVowel(w[0]) && !isVowel(w[1])
  if (end < 3)
    return false
  const c = w[end - 1]
  return !isVowel(w[end - 3]) && isVowel(w[end - 2]) && !isVowel(c) && c !== 'w' && c !== 'x' && c !== 'Y'
}

type Rule = readonly [suffix: string, replacement: string]

/** Step 2 (in R1); `ogi` and `li` have conditions of their own (see step2). Longest suffixes first. */
const STEP2: readonly Rule[] = [
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['tional', 'tion'],
  ['biliti', 'ble'],
  ['lessli', 'less'],
  ['entli', 'ent'],
  ['ation', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['ousli', 'ous'],
  ['iviti', 'ive'],
  ['fulli', 'ful'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['izer', 'ize'],
  ['ator', 'ate'],
  ['alli', 'al'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['li', ''],
]

/** Step 3 (in R1; `ative` in R2 only). Longest suffixes first. */
const STEP3: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ative', ''],
  ['ical', 'ic'],
  ['ness', ''],
  ['ful', ''],
]

/** Step 4 (deleted in R2; `ion` only after s or t). Longest suffixes first. */
const STEP4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
  'al',
  'er',
  'ic',
]

const longest = (w: string, rules: readonly Rule[]) => rules.find(([suffix]) => w.endsWith(suffix))

function step1a(w: string): string {
  if (w.endsWith('sses'))
    return w.slice(0, -2)
  if (w.endsWith('ied') || w.endsWith('ies'))
    return w.length > 4 ? w.slice(0, -2) : w.slice(0, -1)
  if (w.endsWith('us') || w.endsWith('ss'))
    return w
  if (w.endsWith('s')) {
    // Deleted when a vowel comes before the letter that precedes the s: gaps -> gap, but gas, this stay.
    for (let i = 0; i < w.length - 2; i++) {
      if (isVowel(w[i]))
        return w.slice(0, -1)
    }
  }
  return w
}

function step1b(w: string, r1: number): string {
  for (const suffix of ['eedly', 'eed']) {
    if (w.endsWith(suffix))
      return w.length - suffix.length >= r1 ? `${w.slice(0, -suffix.length)}ee` : w
  }
  const suffix = ['ingly', 'edly', 'ing', 'ed'].find(s => w.endsWith(s))
  if (!suffix)
    return w
  const stem = w.slice(0, -suffix.length)
  if (![...stem].some(isVowel))
    return w
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz'))
    return `${stem}e`
  if (DOUBLES.has(stem.slice(-2)))
    return stem.slice(0, -1)
  // A short word: R1 empty and ending in a short syllable (hop -> hope is not wanted, but hoping -> hope is).
  if (r1 >= stem.length && shortSyllableAt(stem, stem.length))
    return `${stem}e`
  return stem
}

function step2(w: string, r1: number): string {
  const rule = longest(w, STEP2)
  if (!rule)
    return w
  const [suffix, replacement] = rule
  const at = w.length - suffix.length
  if (at < r1)
    return w
  if (suffix === 'ogi' && w[at - 1] !== 'l')
    return w
  if (suffix === 'li' && !LI_ENDING.has(w[at - 1]))
    return w
  return w.slice(0, at) + replacement
}

function step3(w: string, r1: number, r2: number): string {
  const rule = longest(w, STEP3)
  if (!rule)
    return w
  const [suffix, replacement] = rule
  const at = w.length - suffix.length
  if (at < r1 || (suffix === 'ative' && at < r2))
    return w
  return w.slice(0, at) + replacement
}

function step4(w: string, r2: number): string {
  const suffix = STEP4.find(s => w.endsWith(s))
  if (!suffix)
    return w
  const at = w.length - suffix.length
  if (at < r2 || (suffix === 'ion' && w[at - 1] !== 's' && w[at - 1] !== 't'))
    return w
  return w.slice(0, at)
}

function step5(w: string, r1: number, r2: number): string {
  const last = w.length - 1
  if (w[last] === 'e' && (last >= r2 || (last >= r1 && !shortSyllableAt(w, last))))
    return w.slice(0, -1)
  if (w[last] === 'l' && last >= r2 && w[last - 1] === 'l')
    return w.slice(0, -1)
  return w
}

/** Stems one lowercase ASCII word; other words (digits, non-Latin scripts, short words) pass through. */
export function stem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word))
    return word
  const exception = EXCEPTIONS.get(word)
  if (exception)
    return exception
  // A y at the start or after a vowel is a consonant: Y, until the end.
  let w = word[0] === 'y' ? `Y${word.slice(1)}` : word
  w = w.replace(/([aeiouy])y/g, '$1Y')
  const prefix = R1_PREFIXES.find(p => w.startsWith(p))
  const r1 = prefix ? prefix.length : regionAfter(w, 0)
  const r2 = regionAfter(w, r1)
  w = step1a(w)
  if (AFTER_1A.has(w))
    return w
  w = step1b(w, r1)
  // 1c: a final y after a non-vowel that is not the first letter becomes i (cry -> cri, say and by stay).
  if (w.length > 2 && (w.endsWith('y') || w.endsWith('Y')) && !isVowel(w[w.length - 2]))
    w = `${w.slice(0, -1)}i`
  w = step2(w, r1)
  w = step3(w, r1, r2)
  w = step4(w, r2)
  w = step5(w, r1, r2)
  return w.replace(/Y/g, 'y')
}
