import type { ManifestSkill } from '../../src/core/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findSkills } from '../../src/runtime/find'
import { buildDiscoveryIndex, DEFAULT_TUNING } from '../../src/search'
import { DEFAULT_TEXT_BUDGET } from '../../src/search/chunk'
import { skillMd, tempDir, writeSkill } from './helpers'

// A large skill's appendix past the text budget must not win queries its purpose has nothing to do with.
const t = tempDir()
let skills: ManifestSkill[]
beforeAll(async () => {
  const filler = `${'Run the scanner over every package and read its report carefully. '.repeat(200)}\n`
  skills = await Promise.all([
    writeSkill(t.dir, 'audit-deps', {
      'SKILL.md': skillMd(
        { name: 'audit-deps', description: 'Audit package dependencies for known advisories.' },
        filler,
      ),
      // Past the budget: an appendix that happens to talk about invoices at length.
      'references/appendix.md': `# Appendix\n\n${'An invoice total and its VAT lines, reconciled. '.repeat(60)}\n`,
    }),
    writeSkill(t.dir, 'invoice-totals', {
      'SKILL.md': skillMd(
        { name: 'invoice-totals', description: 'Check that an invoice adds up.' },
        '# Steps\n1. Sum the line items.\n2. Compare with the stated amount.\n',
      ),
    }),
  ])
})
afterAll(() => t.cleanup())

describe('the per-skill text budget', () => {
  it('is the shipped default, and leaves a large skill\'s appendix out of its score', async () => {
    expect(DEFAULT_TUNING.textBudget).toBe(DEFAULT_TEXT_BUDGET)
    expect(skills[0].body.length).toBeGreaterThan(DEFAULT_TEXT_BUDGET)
    const query = 'reconcile the VAT lines of an invoice'
    const opts = { k: 2, chunks: 0, semanticWeight: 0 }
    const budgeted = await buildDiscoveryIndex(skills, { synonyms: new Map() })
    expect(findSkills(budgeted, query, opts).map(m => m.name)).toEqual(['invoice-totals'])
    // Indexed whole, the appendix's repetitions outweigh the small skill that is about invoices.
    const whole = await buildDiscoveryIndex(skills, { synonyms: new Map(), tuning: { textBudget: Infinity } })
    expect(findSkills(whole, query, opts).map(m => m.name)).toEqual(['audit-deps', 'invoice-totals'])
  })
})
