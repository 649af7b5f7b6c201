/**
 * Options are checked once, against `schemas/options.schema.json` (the schema editors read through `$schema`):
 * a security gate must not weaken itself on a typo. Every problem names the option's path, the value, what is
 * allowed and, for a near miss, what was probably meant.
 */
import type { ErrorObject, ValidateFunction } from 'ajv'
import { options as validate } from '../generated/options-validator.js'

const validator = validate as ValidateFunction

/** Invalid options: the CLI exits 2, a build fails with `message` and no stack trace. */
export class OptionsError extends Error {
  constructor(readonly problems: string[], source: string) {
    super(`invalid options (${source}):\n${problems.map(p => `  ${p}`).join('\n')}`)
    this.name = 'OptionsError'
    this.stack = `${this.name}: ${this.message}`
  }
}

/** Levenshtein distance, bounded: only near misses matter. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3)
    return 99
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = cur
  }
  return prev[b.length]!
}

/** The closest candidate within a few edits (case and `-`/`_` ignored), if any. */
export function didYouMean(value: string, candidates: readonly string[]): string | null {
  const norm = (s: string): string => s.toLowerCase().replace(/[-_]/g, '')
  let best: string | null = null
  let bestDistance = Math.max(2, Math.floor(value.length / 4)) + 1
  for (const c of candidates) {
    const d = norm(c) === norm(value) ? 0 : distance(norm(value), norm(c))
    if (d < bestDistance) {
      best = c
      bestDistance = d
    }
  }
  return best
}

function show(value: unknown): string {
  if (typeof value === 'function')
    return 'a function'
  if (typeof value === 'number' && !Number.isFinite(value))
    return String(value)
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function pathOf(error: ErrorObject): string {
  return error.instancePath.split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~')).join('.')
}

function valueAt(data: unknown, at: string): unknown {
  let value = data
  for (const key of at ? at.split('.') : [])
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
  return value
}

/** Plain data to validate: RegExps as their source, functions where only functions may be. */
function plain(options: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...options }
  const scanner = options.scanner
  if (scanner && typeof scanner === 'object' && Array.isArray((scanner as { custom?: unknown }).custom)) {
    const s = scanner as { custom: unknown[] }
    copy.scanner = {
      ...s,
      custom: s.custom.map(c => (c && typeof c === 'object' && (c as { pattern?: unknown }).pattern instanceof RegExp
        ? { ...c, pattern: ((c as { pattern: RegExp }).pattern).source }
        : c)),
    }
  }
  return copy
}

/** Every problem of `options`, or an empty list. */
export function optionProblems(options: unknown): string[] {
  if (!options || typeof options !== 'object' || Array.isArray(options))
    return [`options must be an object, not ${show(options)}`]
  const data = plain(options as Record<string, unknown>)
  const problems: string[] = []
  if (!validator(data)) {
    const errors = validator.errors ?? []
    const byPath = new Map<string, ErrorObject[]>()
    for (const e of errors) {
      const at = e.keyword === 'additionalProperties'
        ? [pathOf(e), (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.')
        : pathOf(e)
      byPath.set(at, [...(byPath.get(at) ?? []), e])
    }
    const paths = [...byPath.keys()]
    for (const [at, list] of byPath) {
      // A failed `anyOf` (a root is a string or an object...) is explained by the errors deeper in the value.
      if (paths.some(p => p !== at && p.startsWith(at ? `${at}.` : '')))
        continue
      problems.push(describe(at, list, data))
    }
  }
  const o = options as Record<string, unknown>
  if (o.resolvers && typeof o.resolvers === 'object') {
    for (const [scheme, fn] of Object.entries(o.resolvers)) {
      if (typeof fn !== 'function')
        problems.push(`resolvers.${scheme}: must be a function (uri, { root }) => directory, not ${show(fn)}`)
    }
  }
  if (o.embed !== undefined && typeof o.embed !== 'function')
    problems.push(`embed: must be a function (texts) => vectors, not ${show(o.embed)}`)
  return problems
}

function describe(at: string, errors: ErrorObject[], data: unknown): string {
  const value = valueAt(data, at)
  const name = at || '(options)'
  const first = errors.find(e => e.keyword !== 'anyOf') ?? errors[0]!
  if (first.keyword === 'additionalProperties') {
    const properties = (first.parentSchema as { properties?: object }).properties ?? {}
    const known = Object.keys(properties).filter(k => k !== '$schema')
    const key = (first.params as { additionalProperty: string }).additionalProperty
    const near = didYouMean(key, known)
    return `${name}: unknown option${near ? `; did you mean "${near}"?` : ''} (known: ${known.join(', ')})`
  }
  if (first.keyword === 'required') {
    const key = (first.params as { missingProperty: string }).missingProperty
    const why = at.startsWith('overrides') && key === 'reason' ? ' (every override says why it is needed)' : ''
    return `${name}: missing required key "${key}"${why}`
  }
  const allowed = errors.flatMap((e) => {
    if (e.keyword === 'enum')
      return (e.params as { allowedValues: unknown[] }).allowedValues.map(v => show(v))
    if (e.keyword === 'const')
      return [show((e.params as { allowedValue: unknown }).allowedValue)]
    if (e.keyword === 'type') {
      const type = (e.params as { type: string }).type
      return [`${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`]
    }
    return []
  })
  if (allowed.length) {
    const words = allowed.filter(a => a.startsWith('"')).map(a => a.slice(1, -1))
    const near = typeof value === 'string' ? didYouMean(value, words) : null
    const unique = [...new Set(allowed)]
    const hint = near ? ` (did you mean "${near}"?)` : ''
    return `${name}: ${show(value)} is not allowed; expected ${unique.join(' or ')}${hint}`
  }
  return `${name}: ${show(value)} ${first.message ?? 'is invalid'}`
}

/** Throws `OptionsError` when `options` has a problem. */
export function assertOptions(options: unknown, source: string): void {
  const problems = optionProblems(options)
  if (problems.length)
    throw new OptionsError(problems, source)
}
