import type { Conditions, Gate } from './gates'
/**
 * The conditions of the built-in line patterns (`conditionsOf`: required classes and literal gates), derived
 * when the package is built and shipped as `dist/scanner-gates.json`. Deriving them parses every pattern's
 * regex, which a fresh CLI run, each worker and each bundler process paid again as unoptimised code. As with
 * the finder tables (`store.ts`), sources run from `src/` never read the file, and a pattern the file does
 * not hold (a custom rule's, or one changed since the build) is derived as before.
 */
import { conditionsOf } from './gates'
import { shippedFile } from './store'

const MAGIC = 'unplugin-skills/scanner-gates/1'
export const GATE_FILE = 'scanner-gates.json'

/** The key of a line pattern: its regex and its line gate, with their flags. */
export function conditionsKey(re: RegExp, lineGate?: RegExp): string {
  return JSON.stringify([re.source, re.flags, lineGate?.source ?? null, lineGate?.flags ?? null])
}

/** The file's text for these patterns: deterministic (sorted by key, one entry per key). */
export function encodeGateStore(patterns: Iterable<{ re: RegExp, lineGate?: RegExp }>): string {
  const entries = new Map<string, Conditions>()
  for (const p of patterns) entries.set(conditionsKey(p.re, p.lineGate), conditionsOf(p.re, p.lineGate))
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `${JSON.stringify({ magic: MAGIC, entries: sorted })}\n`
}

function isGate(g: unknown): g is Gate {
  return typeof g === 'string'
    || (typeof g === 'object' && g !== null && Object.keys(g).length === 1
      && (Array.isArray((g as { all?: unknown }).all) || Array.isArray((g as { any?: unknown }).any))
      && ((g as { all?: unknown[] }).all ?? (g as { any: unknown[] }).any).every(isGate))
}

function isConditions(c: unknown): c is Conditions {
  return typeof c === 'object' && c !== null
    && Array.isArray((c as Conditions).requires) && (c as Conditions).requires.every(r => typeof r === 'string')
    && ((c as Conditions).gate === null || isGate((c as Conditions).gate))
}

/** The conditions by key, or null for a text that is not a store of this version (then all are derived). */
export function decodeGateStore(text: string): Map<string, Conditions> | null {
  let data: unknown
  try {
    data = JSON.parse(text)
  }
  catch {
    return null
  }
  const { magic, entries } = (data ?? {}) as { magic?: unknown, entries?: unknown }
  if (magic !== MAGIC || !Array.isArray(entries))
    return null
  const out = new Map<string, Conditions>()
  for (const e of entries) {
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || !isConditions(e[1]))
      return null
    out.set(e[0], e[1])
  }
  return out
}

let store: Map<string, Conditions> | null | undefined

/** The conditions the build shipped for a pattern, if any (read on first use, only beside the built scanner). */
export function shippedConditions(re: RegExp, lineGate?: RegExp): Conditions | undefined {
  if (store === undefined) {
    const bytes = shippedFile(GATE_FILE)
    store = bytes && decodeGateStore(bytes.toString('utf8'))
  }
  return store?.get(conditionsKey(re, lineGate))
}
