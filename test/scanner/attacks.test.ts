import { describe, expect, it } from 'vitest'
import { evaluateAttacks, formatAttackReport, THREAT_CLASSES } from './attacks'

// Quality gate on the attack corpus (test/fixtures/scanner/attacks, written by us from public threat taxonomies).
describe('threat rules on the attack corpus', () => {
  const report = evaluateAttacks()
  it('prints the table', () => {
    // eslint-disable-next-line no-console -- the report table is what this test shows
    console.log(`\n${formatAttackReport(report)}\n`)
    expect(report.rows.map(r => r.threatClass)).toEqual([...THREAT_CLASSES])
  })
  it('has at least 12 samples per class and 100 hard benign skills', () => {
    for (const r of report.rows) expect(r.samples, r.threatClass).toBeGreaterThanOrEqual(12)
    expect(report.benign.skills).toBeGreaterThanOrEqual(100)
  })
  it('detects >= 95% of every class with a threat finding, and >= 80% as an error', () => {
    for (const r of report.rows) {
      expect(r.detected / r.samples, `${r.threatClass} missed ${r.missed.join(', ')}`).toBeGreaterThanOrEqual(0.95)
      expect(r.errors / r.samples, `${r.threatClass} not an error: ${r.notError.join(', ')}`)
        .toBeGreaterThanOrEqual(0.8)
    }
  })
  it('raises no error on the hard benign skills', () => {
    expect(report.benign.errors.map(e => `${e.code} ${e.file}:${e.line}`)).toEqual([])
  })
})
