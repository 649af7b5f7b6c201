import { describe, expect, it } from 'vitest'
import { evaluateCorpus, formatReport } from './corpus'

// Quality gate on the labelled corpus in test/fixtures/scanner (not a timing test).
describe('scanner quality on the labelled corpus', () => {
  const report = evaluateCorpus()
  it('prints the table', () => {
    // eslint-disable-next-line no-console -- the report table is what this test shows
    console.log(`\n${formatReport(report)}\n`)
    expect(report.rows.length).toBe(12)
  })
  it('has at least 60 malicious samples, 5 per rule, and 60 benign skills', () => {
    expect(report.rows.reduce((n, r) => n + r.samples, 0)).toBeGreaterThanOrEqual(60)
    for (const r of report.rows) expect(r.samples, r.rule).toBeGreaterThanOrEqual(5)
    expect(report.benign.skills).toBeGreaterThanOrEqual(60)
  })
  it('reaches >= 95% recall on every rule', () => {
    for (const r of report.rows)
      expect(r.recall, `${r.rule} missed ${r.missed.join(', ')}`).toBeGreaterThanOrEqual(0.95)
  })
  it('raises no error on the benign skills', () => {
    expect(report.benign.errors.map(e => `${e.code} ${e.file}:${e.line}`)).toEqual([])
  })
})
