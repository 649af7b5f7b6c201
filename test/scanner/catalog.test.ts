import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CATALOG_FILE, catalogText } from '../../scripts/generate-rule-catalog'
import { META_RULES, ruleMeta, RULES } from '../../src/scanner/catalog'
import { RULE_MODULES } from '../../src/scanner/rules/index'

describe('rule catalog', () => {
  it('is what the rule modules own (run `npx tsx scripts/generate-rule-catalog.ts` after changing one)', () => {
    expect(fs.readFileSync(CATALOG_FILE, 'utf8')).toBe(catalogText())
    expect(RULES).toEqual(RULE_MODULES.map(m => m.meta))
  })

  it('answers for built-in and meta rules, by id, and for nothing else', () => {
    expect(ruleMeta('exfiltration')).toEqual(RULE_MODULES.find(m => m.meta.id === 'exfiltration')!.meta)
    expect(ruleMeta('exfiltration')!.kind).toBe('threat')
    expect(ruleMeta('parse-fallback')).toBe(META_RULES.find(r => r.id === 'parse-fallback'))
    expect(ruleMeta('no-such-rule')).toBeUndefined()
    expect(ruleMeta('constructor')).toBeUndefined()
    expect(new Set([...RULES, ...META_RULES].map(r => r.id)).size).toBe(RULES.length + META_RULES.length)
  })
})
