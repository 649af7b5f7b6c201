import type { Ast, Set130 } from './regex-subset'
import { escapeRegExp } from '../../core/escape-regexp'
import { B, CLASS_S, NON_ASCII, none, parse, Unsupported } from './regex-subset'

/**
 * Cheap necessary conditions of a line pattern, derived from its regex by the finder's parser: the
 * character classes every match contains a character of, and the literals it contains (its gate).
 * The scanner tests them before it runs the pattern.
 */

/** Requirements of a regex: every match contains at least one character of each set. */
const SIZES = new WeakMap<Set130, number>()
function sizeOf(set: Set130): number {
  let n = SIZES.get(set)
  if (n === undefined) {
    n = 0
    for (let c = 0; c < B; c++) n += set[c]!
    SIZES.set(set, n)
  }
  return n
}

function requirements(ast: Ast): Set130[] {
  switch (ast.t) {
    case 'empty':
      return []
    case 'chars':
      return [ast.set]
    case 'seq':
      return ast.items.flatMap(requirements)
    case 'rep':
      return ast.min >= 1 ? requirements(ast.item) : []
    case 'alt': {
      // Each branch contributes its narrowest requirement; the match contains a character of their union.
      const union = none()
      for (const a of ast.alts) {
        const reqs = requirements(a)
        if (!reqs.length)
          return []
        // The first of the smallest sets (sizes counted once each: alternations of words have many).
        let best = reqs[0]!
        let bestSize = sizeOf(best)
        for (let k = 1; k < reqs.length; k++) {
          const n = sizeOf(reqs[k]!)
          if (n < bestSize) {
            best = reqs[k]!
            bestSize = n
          }
        }
        for (let c = 0; c < B; c++) union[c] |= best[c]!
      }
      return [union]
    }
  }
}

const MAX_REQUIRED_CHARS = 12

/**
 * Cheap necessary conditions of a line pattern: character classes that every match must contain a
 * character of (e.g. the `|` of `curl ... | sh`). A subject that fails one cannot match the pattern.
 * Unknown syntax, or conditions too broad to help, give none.
 */
export function requiredClasses(re: RegExp): RegExp[] {
  return requiredClassBodies(re).map(body => new RegExp(`[${body}]`))
}

/** `requiredClasses` as data: the body of each class (what goes between its brackets). */
function requiredClassBodies(re: RegExp): string[] {
  let ast: Ast
  try {
    ast = parse(re.source, re.flags.includes('i'))
  }
  catch (error) {
    if (error instanceof Unsupported)
      return []
    throw error
  }
  const out = new Set<string>()
  for (const set of requirements(ast)) {
    const chars: number[] = []
    for (let c = 0; c < 128; c++) {
      if (set[c])
        chars.push(c)
    }
    if (chars.length + (set[NON_ASCII] ? 8 : 0) > MAX_REQUIRED_CHARS)
      continue
    const body
      = chars.map(c => `\\x${c.toString(16).padStart(2, '0')}`).join('') + (set[NON_ASCII] ? '\\u0080-\\uFFFF' : '')
    if (body)
      out.add(body)
  }
  return [...out]
}

/**
 * Literals a regex cannot match without: `{ all }` needs each part, `{ any }` one of them. Strings are
 * lower case and free of whitespace (a masked view blanks comments to spaces: a literal without
 * whitespace that occurs in the view occurs at the same place in the raw text).
 */
export type Gate = string | { all: Gate[] } | { any: Gate[] }

/** The single character a class stands for (both cases of one letter count as one), or null. */
function literalChar(set: Set130): string | null {
  let found = -1
  for (let c = 0; c < B; c++) {
    if (!set[c])
      continue
    if (c >= 128)
      return null
    const lower = c >= 65 && c <= 90 ? c + 32 : c
    if (found !== -1 && found !== lower)
      return null
    found = lower
  }
  return found === -1 || CLASS_S.includes(found) ? null : String.fromCharCode(found)
}

function gateOf(ast: Ast): Gate | null {
  switch (ast.t) {
    case 'empty':
      return null
    case 'chars':
      return literalChar(ast.set)
    case 'rep': {
      if (ast.min < 1)
        return null
      const inner = gateOf(ast.item)
      // `x{2}` or `x+` still contains `x`; runs across copies are not joined (kept simple).
      return inner
    }
    case 'alt': {
      const parts: Gate[] = []
      for (const a of ast.alts) {
        const g = gateOf(a)
        if (g === null)
          return null
        parts.push(g)
      }
      return parts.length === 1 ? parts[0]! : { any: parts }
    }
    case 'seq': {
      const parts: Gate[] = []
      let run = ''
      // Single characters count too: `|` or `,` rejects most prose lines, and an alternative with one
      // (`and|then|,`) would otherwise leave the whole group, and often the gate, underived.
      const end = (): void => {
        if (run.length >= 1)
          parts.push(run)
        run = ''
      }
      for (const item of ast.items) {
        // Lookarounds and boundaries consume nothing: the characters around them stay adjacent.
        if (item.t === 'empty')
          continue
        if (item.t === 'chars') {
          const ch = literalChar(item.set)
          if (ch !== null) {
            run += ch
            continue
          }
          end()
          continue
        }
        end()
        const g = gateOf(item)
        if (g !== null)
          parts.push(g)
      }
      end()
      return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : { all: parts }
    }
  }
}

/** The literal gate of a line pattern, or null when none can be derived (the pattern then always runs). */
export function literalGate(re: RegExp): Gate | null {
  if (re.flags.includes('u') || re.flags.includes('v'))
    return null
  let ast: Ast
  try {
    ast = parse(re.source, true)
  }
  catch (error) {
    if (error instanceof Unsupported)
      return null
    throw error
  }
  const g = gateOf(ast)
  return typeof g === 'string' && g.length < 2 ? null : g
}

/** What the scan of a line pattern tests before its regex, as data (the build ships it: `gate-store.ts`). */
export interface Conditions {
  /** The bodies of the classes every match contains a character of (`requiredClasses`). */
  requires: string[]
  /** The literals every match contains, of the pattern and of its line gate (`literalGate`). */
  gate: Gate | null
}

/** The conditions of a line pattern: its regex and, when it has one, its line gate. */
export function conditionsOf(re: RegExp, lineGate?: RegExp): Conditions {
  const parts = [literalGate(re), lineGate ? literalGate(lineGate) : null].filter(g => g !== null)
  const gate = parts.length > 1 ? { all: parts } : (parts[0] ?? null)
  return { requires: requiredClassBodies(re), gate }
}

/**
 * Literals every text passing the gate contains (for `any`: those of one branch found inside a literal of
 * every other branch).
 */
function requiredLiterals(gate: Gate): string[] {
  if (typeof gate === 'string')
    return [gate]
  if ('all' in gate)
    return [...new Set(gate.all.flatMap(requiredLiterals))]
  const branches = gate.any.map(requiredLiterals)
  return branches[0]!.filter(lit => branches.every(b => b.some(other => other.includes(lit))))
}

/**
 * A gate as a test of a lower-cased text (closures: measured faster than walking the tree per hit).
 * `all` tests its literals first, longest first (rarer), then its groups. With `skip` (the pattern's
 * anchor), the longest required literal the anchor does not match, if any, is tested first: a line
 * without it fails at once (the anchor's own word is on the line whenever the gate is asked).
 */
export function compileGate(gate: Gate, skip?: RegExp): (lower: string) => boolean {
  const test = compileTree(gate)
  if (!skip || typeof gate === 'string')
    return test
  const first = requiredLiterals(gate)
    .filter(l => !skip.test(l))
    .sort((a, b) => b.length - a.length)[0]
  return first === undefined ? test : lower => lower.includes(first) && test(lower)
}

function compileTree(gate: Gate): (lower: string) => boolean {
  if (typeof gate === 'string')
    return lower => lower.includes(gate)
  if ('any' in gate) {
    // Three or more literals are one regex (one pass over the text, not one `includes` per literal).
    const literals = gate.any.filter((g): g is string => typeof g === 'string')
    const others = gate.any.filter(g => typeof g !== 'string')
    const parts = literals.length >= 3
      ? [anyLiteral(literals), ...others.map(compileTree)]
      : gate.any.map(compileTree)
    return (lower) => {
      for (const p of parts) {
        if (p(lower))
          return true
      }
      return false
    }
  }
  const literals = gate.all.filter((g): g is string => typeof g === 'string').sort((a, b) => b.length - a.length)
  const parts = [...literals, ...gate.all.filter(g => typeof g !== 'string')].map(compileTree)
  return (lower) => {
    for (const p of parts) {
      if (!p(lower))
        return false
    }
    return true
  }
}

function anyLiteral(literals: string[]): (lower: string) => boolean {
  const re = new RegExp(literals.map(escapeRegExp).join('|'))
  return lower => re.test(lower)
}
