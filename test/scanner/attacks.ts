import type { Diagnostic } from '../../src/core/types'
import fs from 'node:fs'
import path from 'node:path'
import { compareBytewise } from '../../src/core/diagnostics'
import { scanSkill } from '../../src/scanner/index'
import { CORPUS, loadSkill } from './corpus'

/** The threat classes of the attack corpus: `attacks/<class>/<sample>/` under test/fixtures/scanner. */
export const THREAT_CLASSES = [
  'agent-config-tampering',
  'committed-secrets',
  'concealment',
  'credential-harvesting',
  'crypto-mining',
  'dns-exfiltration',
  'encoded-payloads',
  'exfiltration',
  'opaque-artifacts',
  'remote-code-execution',
  'reverse-shells',
  'security-control-disablement',
  'supply-chain',
  'typosquatting',
] as const

export interface AttackRow {
  threatClass: string
  samples: number
  /** Samples with a threat finding above info. */
  detected: number
  /** Samples with a threat error. */
  errors: number
  missed: string[]
  notError: string[]
}

export interface AttackReport {
  rows: AttackRow[]
  benign: { skills: number, errors: Diagnostic[], warnings: number }
}

const list = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).filter(e => e.isDirectory()).map(e => e.name).sort(compareBytewise)
    : []

/**
 * Detection by attack, not by rule: a sample counts as detected when any threat finding above info fires on it,
 * whatever its rule, in the agentskills profile (capability findings are never counted).
 */
export function evaluateAttacks(root = CORPUS): AttackReport {
  const options = { maxTextSize: 1024 * 1024, profile: 'agentskills' as const }
  const rows: AttackRow[] = []
  for (const threatClass of list(path.join(root, 'attacks'))) {
    const row: AttackRow = { threatClass, samples: 0, detected: 0, errors: 0, missed: [], notError: [] }
    for (const sample of list(path.join(root, 'attacks', threatClass))) {
      const skill = loadSkill(path.join(root, 'attacks', threatClass, sample))
      const threats = scanSkill(skill, options).diagnostics.filter(d => d.kind === 'threat')
      row.samples++
      if (threats.some(d => d.severity !== 'info'))
        row.detected++
      else row.missed.push(sample)
      if (threats.some(d => d.severity === 'error'))
        row.errors++
      else row.notError.push(sample)
    }
    rows.push(row)
  }
  const benign: AttackReport['benign'] = { skills: 0, errors: [], warnings: 0 }
  for (const name of list(path.join(root, 'benign'))) {
    const skill = loadSkill(path.join(root, 'benign', name))
    benign.skills++
    for (const d of scanSkill(skill, options).diagnostics) {
      if (d.severity === 'error')
        benign.errors.push(d)
      else if (d.severity === 'warning')
        benign.warnings++
    }
  }
  return { rows, benign }
}

const pct = (n: number, of: number): string => `${of ? ((n / of) * 100).toFixed(1) : '0.0'}%`.padStart(6)

export function formatAttackReport(r: AttackReport): string {
  const lines = [
    'threat class                   samples  detected        as error',
    '-----------------------------  -------  --------------  --------------',
  ]
  for (const row of r.rows) {
    const detected = `${String(row.detected).padStart(3)} ${pct(row.detected, row.samples)}`
    const errors = `${String(row.errors).padStart(3)} ${pct(row.errors, row.samples)}`
    const missed = row.missed.length ? `  missed: ${row.missed.join(', ')}` : ''
    lines.push(`${row.threatClass.padEnd(29)}  ${String(row.samples).padStart(7)}  ${detected.padEnd(14)}  ${errors}${missed}`)
  }
  lines.push(`hard benign skills: ${r.benign.skills}, errors: ${r.benign.errors.length}, warnings: ${r.benign.warnings}`)
  for (const e of r.benign.errors)
    lines.push(`  FP ${e.code} ${e.file}:${e.line}:${e.column} ${e.message} | ${e.excerpt ?? ''}`)
  return lines.join('\n')
}
