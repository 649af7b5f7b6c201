import type { Diagnostic, Severity } from '../core/types'
import { codeInfo } from '../core/codes'
import { compareBytewise, sortDiagnostics } from '../core/diagnostics'
import { ruleMeta } from '../scanner/catalog'

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' }

// GitHub ranks security alerts by this CVSS-like score (critical >= 9, high >= 7, medium >= 4).
const SECURITY_SEVERITY: Record<string, string> = {
  'secrets': '9.1',
  'remote_exec': '9.0',
  'prompt_injection': '8.8',
  'exfiltration': '8.6',
  'dynamic_eval': '8.1',
  'child_process': '7.8',
  'hidden_unicode': '7.5',
  'dangerous_shell': '7.2',
  'network_access': '6.5',
  'obfuscation': '5.5',
  'fs_write': '5.0',
  'unknown-capability': '3.0',
  'suppression-invalid': '3.0',
  'file-too-large': '2.0',
  'analysis-too-large': '2.0',
  'parse-fallback': '1.0',
  'unused-capability': '1.0',
}
const BY_LEVEL: Record<Severity, string> = { error: '7.0', warning: '5.0', info: '2.0' }

interface SarifRule {
  id: string
  name: string
  shortDescription: { text: string }
  fullDescription: { text: string }
  help: { text: string, markdown: string }
  defaultConfiguration: { level: 'error' | 'warning' | 'note' }
  properties: Record<string, unknown>
}

function firstSentence(s: string): string {
  const m = /^(.+?[.:])(?:\s|$)/.exec(s)
  return (m ? m[1]! : s).replace(/:$/, '')
}

/**
 * What a code means: a scanner rule's own description, or the table of every other code (`core/codes.ts`).
 * Undefined only for a project's custom scanner rule, which the project describes with its message.
 */
export function describeCode(code: string): { short: string, full: string } | undefined {
  const meta = code.startsWith('scan/') ? ruleMeta(code.slice(5)) : undefined
  return meta ? { short: firstSentence(meta.description), full: meta.description } : codeInfo(code)
}

/**
 * The level a rule reports by default in this run: the level most of its results have (the more severe on a
 * tie). A rule's severity depends on the profile, `scanner.rules` and, for some rules, the pattern that matched
 * (`dangerous_shell`: `rm -rf /` an error, `sudo` a warning), so its own default can't be fixed in advance.
 */
function defaultLevel(severities: readonly Severity[]): Severity {
  const count = (s: Severity): number => severities.filter(x => x === s).length
  return (['error', 'warning', 'info'] as const).reduce((best, s) => (count(s) > count(best) ? s : best))
}

function ruleFor(code: string, sample: Diagnostic, severities: readonly Severity[]): SarifRule {
  const scan = code.startsWith('scan/')
  const id = scan ? code.slice(5) : null
  const meta = id ? ruleMeta(id) : undefined
  const cwe = meta?.cwe ?? sample.cwe
  const described = describeCode(code) ?? {
    short: `Project rule ${id ?? code}.`,
    full: `A rule of this project's \`scanner.custom\`: ${sample.message}`,
  }
  const hint = meta?.hint ?? sample.hint ?? described.full
  const tags = scan ? ['security'] : [code.split('/')[0]!]
  if (cwe)
    tags.push(`external/cwe/${cwe.toLowerCase()}`)
  const severity = defaultLevel(severities)
  const level = LEVEL[severity]
  const properties: Record<string, unknown> = { tags }
  if (scan) {
    properties['security-severity'] = SECURITY_SEVERITY[id!] ?? BY_LEVEL[meta?.severity ?? severity]
    properties.precision = 'high'
    properties['problem.severity'] = level === 'note' ? 'recommendation' : level
    if (meta?.kind)
      properties.kind = meta.kind
  }
  return {
    id: code,
    name: (id ?? code)
      .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))
      .replace(/^./, c => c.toUpperCase()),
    shortDescription: { text: described.short },
    fullDescription: { text: described.full },
    help: {
      text: hint,
      markdown: cwe
        ? `${hint}\n\n[${cwe}](https://cwe.mitre.org/data/definitions/${cwe.replace(/^CWE-/i, '')}.html)`
        : hint,
    },
    defaultConfiguration: { level },
    properties,
  }
}

/**
 * SARIF 2.1.0 for GitHub code scanning. Every diagnostic code becomes a rule (scanner rules carry
 * their CWE, description and security-severity); paths stay relative to the project root (%SRCROOT%).
 */
export function toSarif(diagnostics: Diagnostic[], options: { version: string }): object {
  const sorted = sortDiagnostics([...diagnostics])
  const samples = new Map<string, Diagnostic>()
  const severities = new Map<string, Severity[]>()
  for (const d of sorted) {
    if (!samples.has(d.code))
      samples.set(d.code, d)
    const list = severities.get(d.code)
    if (list)
      list.push(d.severity)
    else severities.set(d.code, [d.severity])
  }
  const codes = [...samples.keys()].sort(compareBytewise)
  const rules = codes.map(code => ruleFor(code, samples.get(code)!, severities.get(code)!))
  const index = new Map(codes.map((c, i) => [c, i]))
  const results = sorted.map((d) => {
    const result: Record<string, unknown> = {
      ruleId: d.code,
      ruleIndex: index.get(d.code)!,
      level: LEVEL[d.severity],
      message: { text: d.message || d.code },
    }
    if (d.file) {
      const region: Record<string, unknown> = { startLine: d.line && d.line > 0 ? d.line : 1 }
      if (d.column && d.column > 0)
        region.startColumn = d.column
      if (d.excerpt)
        region.snippet = { text: d.excerpt }
      const artifactLocation = { uri: encodeUri(d.file), uriBaseId: '%SRCROOT%' }
      result.locations = [{ physicalLocation: { artifactLocation, region } }]
      // A capability finding stands for its file's other uses too.
      const more = (d.locations ?? []).slice(1)
      if (more.length) {
        result.relatedLocations = more.map((at, i) => ({
          id: i + 1,
          physicalLocation: { artifactLocation, region: { startLine: at.line, startColumn: at.column } },
        }))
      }
    }
    const properties: Record<string, unknown> = {}
    if (d.skill)
      properties.skill = d.skill
    if (d.kind)
      properties.kind = d.kind
    if (d.cwe)
      properties.cwe = d.cwe
    if (Object.keys(properties).length)
      result.properties = properties
    return result
  })
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'unplugin-skills',
            version: options.version,
            informationUri: 'https://www.npmjs.com/package/unplugin-skills',
            rules,
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  }
}

/** Relative URI reference: posix separators, each segment percent-encoded. */
function encodeUri(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .map(s => encodeURIComponent(s))
    .join('/')
}
