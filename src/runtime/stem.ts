/**
 * Porter (1980) suffix stripping, written for this project. It runs at build time on skill text
 * and at query time on the user's words, so both sides land on the same stems; it has to stay
 * byte-for-byte stable, which is why it lives here and not in a dependency.
 */

function isVowelAt(w: string, i: number): boolean {
  const c = w.charCodeAt(i)
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117)
    return true
  // `y` is a vowel after a consonant.
  return c === 121 && i > 0 && !isVowelAt(w, i - 1)
}

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences of the stem. */
function measure(w: string): number {
  let m = 0
  let i = 0
  const n = w.length
  while (i < n && !isVowelAt(w, i)) i++
  while (i < n) {
    while (i < n && isVowelAt(w, i)) i++
    if (i >= n)
      break
    m++
    while (i < n && !isVowelAt(w, i)) i++
  }
  return m
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) {
    if (isVowelAt(w, i))
      return true
  }
  return false
}

function endsDoubleConsonant(w: string): boolean {
  return w.length >= 2 && w[w.length - 1] === w[w.length - 2] && !isVowelAt(w, w.length - 1)
}

/** *o: stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length
  if (n < 3)
    return false
  if (isVowelAt(w, n - 1) || !isVowelAt(w, n - 2) || isVowelAt(w, n - 3))
    return false
  const last = w[n - 1]
  return last !== 'w' && last !== 'x' && last !== 'y'
}

type Rule = readonly [suffix: string, replacement: string]

const STEP2: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
]

const STEP3: readonly Rule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
]

const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
] as const

/** Applies the first rule whose suffix matches, if the remaining stem has measure > min. */
function replaceFirst(w: string, rules: readonly Rule[], min: number): string {
  for (const [suffix, replacement] of rules) {
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length)
      return measure(stem) > min ? stem + replacement : w
    }
  }
  return w
}

function step1ab(w: string): string {
  if (w.endsWith('sses'))
    w = w.slice(0, -2)
  else if (w.endsWith('ies'))
    w = w.slice(0, -2)
  else if (w.endsWith('s') && !w.endsWith('ss'))
    w = w.slice(0, -1)

  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0)
      w = w.slice(0, -1)
    return w
  }
  let stem: string | null = null
  if (w.endsWith('ed') && hasVowel(w.slice(0, -2)))
    stem = w.slice(0, -2)
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3)))
    stem = w.slice(0, -3)
  if (stem === null)
    return w
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz'))
    return `${stem}e`
  if (endsDoubleConsonant(stem) && !/[lsz]$/.test(stem))
    return stem.slice(0, -1)
  if (measure(stem) === 1 && endsCvc(stem))
    return `${stem}e`
  return stem
}

/** Stems one lowercase ASCII word; other words (digits, non-Latin scripts, short words) pass through. */
export function stem(word: string): string {
  if (word.length < 3 || !/^[a-z]+$/.test(word))
    return word
  let w = step1ab(word)
  if (w.endsWith('y') && hasVowel(w.slice(0, -1)))
    w = `${w.slice(0, -1)}i`
  w = replaceFirst(w, STEP2, 0)
  w = replaceFirst(w, STEP3, 0)
  for (const suffix of STEP4) {
    if (w.endsWith(suffix)) {
      const s = w.slice(0, -suffix.length)
      if (measure(s) > 1 && (suffix !== 'ion' || /[st]$/.test(s)))
        w = s
      break
    }
  }
  if (w.endsWith('e')) {
    const s = w.slice(0, -1)
    const m = measure(s)
    if (m > 1 || (m === 1 && !endsCvc(s)))
      w = s
  }
  if (w.endsWith('ll') && measure(w) > 1)
    w = w.slice(0, -1)
  return w
}
