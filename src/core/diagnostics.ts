import type { Diagnostic, Severity } from './types'
import { Buffer } from 'node:buffer'

type DiagnosticInit = Pick<Diagnostic, 'code' | 'severity' | 'message'>
  & Partial<Omit<Diagnostic, 'code' | 'severity' | 'message'>>

/** Builds a diagnostic with every field present (null when unknown), so JSON consumers see one shape. */
export function diagnostic(init: DiagnosticInit): Diagnostic {
  const d: Diagnostic = {
    code: init.code,
    severity: init.severity,
    message: init.message,
    file: init.file ?? null,
    line: init.line ?? null,
    column: init.column ?? null,
    skill: init.skill ?? null,
    hint: init.hint ?? null,
  }
  if (init.rule !== undefined)
    d.rule = init.rule
  if (init.kind !== undefined)
    d.kind = init.kind
  if (init.cwe !== undefined)
    d.cwe = init.cwe
  if (init.excerpt !== undefined)
    d.excerpt = init.excerpt
  return d
}

/** Errors first: the order reports and the scanner's "most severe per line" use. */
export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 }

/** Bytewise string order: what `LC_ALL=C sort` does, the same on every OS and locale. */
export function compareBytewise(a: string, b: string): number {
  if (a === b)
    return 0
  // UTF-16 order equals UTF-8 byte order except around surrogates; only pay for Buffers then.
  const len = Math.min(a.length, b.length)
  for (let i = 0; i < len; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) {
      if (x >= 0xD800 || y >= 0xD800)
        return Buffer.compare(Buffer.from(a.slice(i)), Buffer.from(b.slice(i)))
      return x - y
    }
  }
  return a.length - b.length
}

/** Stable order: file, line, column, then severity and code. Deterministic output for every run. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return list.sort(
    (a, b) =>
      compareBytewise(a.file ?? '', b.file ?? '')
      || (a.line ?? 0) - (b.line ?? 0)
      || (a.column ?? 0) - (b.column ?? 0)
      || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]
      || compareBytewise(a.code, b.code)
      || compareBytewise(a.message, b.message),
  )
}

export function countBySeverity(list: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
  for (const d of list) counts[d.severity]++
  return counts
}

export const hasErrors = (list: readonly Diagnostic[]): boolean => list.some(d => d.severity === 'error')
