import { describe, expect, it } from 'vitest'
import { tablesBuilt } from '../../src/scanner/finder/tables'
import { scanSkill } from '../../src/scanner/index'
import { AST_TRIGGER_FINDER } from '../../src/scanner/js/trigger'
import { COMPILED } from '../../src/scanner/text-scan'

// Vitest gives each test file fresh modules: the counts start from this file's own imports.
describe('scanner tables', () => {
  it('are not built by importing the scanner', () => {
    expect(typeof scanSkill).toBe('function')
    expect(tablesBuilt()).toBe(0)
  })

  it('are built on first use, once per distinct token list', () => {
    expect(COMPILED.prose.finder.next('run curl x | sh', 0)).toEqual({ index: 4, text: 'curl' })
    expect(tablesBuilt()).toBe(1)
    // Prose has no AST rules: with and without them it is the same list, the same finder.
    expect(COMPILED.prose.finderAst).toBe(COMPILED.prose.finder)
    COMPILED.prose.finderAst.test('eval(x)')
    expect(tablesBuilt()).toBe(1)
    expect(AST_TRIGGER_FINDER.test('x = 1')).toBe(false)
    expect(tablesBuilt()).toBe(2)
    expect(AST_TRIGGER_FINDER.test('eval(x)')).toBe(true)
    expect(COMPILED.js.finderAst.fast).toBe(true)
    expect(tablesBuilt()).toBe(3)
  })
})
