import type { Ast } from './regex-subset'
import { parse, Unsupported } from './regex-subset'

const DOT = 46
const SPACE = 32
const TAB = 9

/**
 * Whether a pattern's match can run past the end of a sentence: hold a period followed by a space or a tab.
 * The wrapped-prose scan looks for the anchor of a pattern that cannot only in the sentences that wrap (a match
 * holds its anchor, and a match no single line shows lies in such a sentence). Anything the analyser does not
 * parse counts as crossing.
 */
export function crossesSentences(re: RegExp): boolean {
  // The scanner's "within one sentence" gap, `\.(?=\S)` (or `[.:](?=\S)`), is a period no space follows: never a
  // sentence end.
  const src = re.source.replaceAll(/(?:\\\.|\[(?:\\.|[^\]\\])*\])\(\?=\\S\)/g, '~')
  // An end of text, or a lookahead that can read a space, looks past the sentence: counted as crossing, which the
  // anchor test does not need but keeps the answer true of a scan that reads a sentence alone.
  if (/(?<!\\)\$/.test(src.replaceAll(/\\\\/g, '').replaceAll(/\[(?:\\.|[^\]\\])*\]/g, '')))
    return true
  const ignoreCase = re.flags.includes('i')
  try {
    return lookaheads(src).some(body => readsSpace(parse(body, ignoreCase))) || factsOf(parse(src, ignoreCase)).inner
  }
  catch (error) {
    if (error instanceof Unsupported)
      return true
    throw error
  }
}

/** The bodies of the lookaheads in a pattern's source. */
function lookaheads(src: string): string[] {
  const out: string[] = []
  for (let i = src.indexOf('(?'); i !== -1; i = src.indexOf('(?', i + 1)) {
    if (src[i + 2] !== '=' && src[i + 2] !== '!')
      continue
    let depth = 0
    let j = i
    for (; j < src.length; j++) {
      if (src[j] === '\\') {
        j++
        continue
      }
      if (src[j] === '[') {
        while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1
        continue
      }
      if (src[j] === '(')
        depth++
      else if (src[j] === ')' && --depth === 0)
        break
    }
    if (j >= src.length)
      throw new Unsupported('unbalanced lookahead')
    out.push(src.slice(i + 3, j))
  }
  return out
}

function readsSpace(ast: Ast): boolean {
  switch (ast.t) {
    case 'chars':
      return ast.set[SPACE] === 1 || ast.set[TAB] === 1
    case 'empty':
      return false
    case 'alt':
      return ast.alts.some(readsSpace)
    case 'rep':
      return readsSpace(ast.item)
    case 'seq':
      return ast.items.some(readsSpace)
  }
}

interface Facts {
  nullable: boolean
  /** A match can start with a space or a tab. */
  firstSpace: boolean
  /** A match can end with a period. */
  lastDot: boolean
  /** A match can hold a period followed by a space or a tab. */
  inner: boolean
}

function factsOf(ast: Ast): Facts {
  switch (ast.t) {
    case 'chars':
      return {
        nullable: false,
        firstSpace: ast.set[SPACE] === 1 || ast.set[TAB] === 1,
        lastDot: ast.set[DOT] === 1,
        inner: false,
      }
    case 'empty':
      return { nullable: true, firstSpace: false, lastDot: false, inner: false }
    case 'alt': {
      const all = ast.alts.map(factsOf)
      return {
        nullable: all.some(f => f.nullable),
        firstSpace: all.some(f => f.firstSpace),
        lastDot: all.some(f => f.lastDot),
        inner: all.some(f => f.inner),
      }
    }
    case 'rep': {
      const f = factsOf(ast.item)
      if (ast.max === 0)
        return factsOf({ t: 'empty' })
      // A repeated item can end one round with a period and start the next with a space.
      const inner = f.inner || (ast.max >= 2 && f.lastDot && f.firstSpace)
      return { ...f, nullable: ast.min === 0 || f.nullable, inner }
    }
    case 'seq': {
      let nullable = true
      let firstSpace = false
      let lastDot = false
      let inner = false
      for (const item of ast.items) {
        const f = factsOf(item)
        inner ||= f.inner || (lastDot && f.firstSpace)
        if (nullable)
          firstSpace ||= f.firstSpace
        lastDot = f.lastDot || (f.nullable && lastDot)
        nullable &&= f.nullable
      }
      return { nullable, firstSpace, lastDot, inner }
    }
  }
}
