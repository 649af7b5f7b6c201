import { buildFinder, lazyFinder, splitAlternatives } from './prefilter'

/** Below this length the regex answers sooner than the finder is set up. */
const SHORT = 128

const REGISTERED = new Map<string, { tokens: readonly string[], ignoreCase: boolean }>()

/**
 * `re.test(text)` at literal-search speed, for the big case-insensitive alternations the whole-skill rules
 * ask of whole paragraphs, files and code blocks (V8 tries every alternative at every position; the finder
 * looks at the pairs of characters a match can start with). A short text goes to the regex, which reads it
 * sooner than the finder is set up. Both answer alike: the finder's hits are those of the regex.
 *
 * Each call registers its regex: the build ships the tables of every one (`builtin.ts`), so a process builds
 * none. A call at a module's top level is registered when the rules are imported; later calls still answer,
 * with tables built on first use.
 */
export function literalTest(re: RegExp): (text: string) => boolean {
  if (!/^i?$/.test(re.flags))
    throw new Error(`literalTest takes a regex without flags or with \`i\` only: /${re.source}/${re.flags}`)
  const ignoreCase = re.flags === 'i'
  const tokens = splitAlternatives(re.source)
  const key = `${ignoreCase ? 'i' : ''}:${tokens.join('|')}`
  if (!REGISTERED.has(key))
    REGISTERED.set(key, { tokens, ignoreCase })
  const finder = lazyFinder(() => buildFinder(tokens, ignoreCase))
  return text => (text.length < SHORT ? re.test(text) : finder.test(text))
}

/** The finders `literalTest` made so far, in the order they were first asked for. */
export function literalTestFinders(): Array<{ tokens: readonly string[], ignoreCase: boolean }> {
  return [...REGISTERED.values()]
}
