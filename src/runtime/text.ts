import { stem } from './stem'

/**
 * The one text analyser shared by the index builder and the query side: any change here changes
 * every stored term, so bump ANALYZER_VERSION with it (the runtime refuses a mismatched index).
 */
export const ANALYZER_VERSION = 1

// Function words and skill boilerplate that carry no intent ("use this skill when ...").
const STOPWORDS = new Set((
  'a about above after again against all also am an and any are as at be because been before being below '
  + 'between both but by can could did do does doing done down during each either etc few for from further '
  + 'get gets got had has have having he her here hers herself him himself his how i if in into is it its '
  + 'itself just let lets like may me might more most must my myself need needs no nor not now of off on '
  + 'once one only or other our ours ourselves out over own please same shall she should so some such than '
  + 'that the their theirs them themselves then there these they this those through to too under until up '
  + 'upon us use used uses using very via want was we were what when where whether which while who whom '
  + 'why will with within without would yes yet you your yours yourself yourselves skill skills'
).split(' '))

export const isStopword = (word: string): boolean => STOPWORDS.has(word)

/** Longest token kept; longer runs are hashes, base64 or minified code, noise for search. */
const MAX_TOKEN = 40

/**
 * Lowercase word tokens: letters and digits of any script, camelCase and snake_case split,
 * stopwords dropped. Never throws, linear in the input.
 */
export function tokenize(text: string): string[] {
  const out: string[] = []
  // Split camelCase before lowercasing: `getUserId` -> `get User Id`.
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
  for (const m of spaced.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0]
    if (word.length > MAX_TOKEN || STOPWORDS.has(word)) continue
    // One-character tokens carry no meaning except digits (`v2`, `s3` are split as letters + digits).
    if (word.length === 1 && !/[0-9]/.test(word)) continue
    out.push(word)
  }
  return out
}

/** Tokens reduced to their stems: the terms of the lexical index. */
export function analyze(text: string, stemming = true): string[] {
  const tokens = tokenize(text)
  if (stemming) for (let i = 0; i < tokens.length; i++) tokens[i] = stem(tokens[i])
  return tokens
}
