import type { AstContext } from '../../src/scanner/js/ast-rule'
import type { Node } from '../../src/scanner/js/walk'
import type { RuleModule } from '../../src/scanner/types'
import { describe, expect, it } from 'vitest'
import { scanJs } from '../../src/scanner/js/scan-js'
import { AST_TRIGGER, AST_TRIGGER_TOKENS, astRuleSet } from '../../src/scanner/js/trigger'
import { RULE_MODULES } from '../../src/scanner/rules/index'

/**
 * A rule the engine has never heard of: SQL that drops a table, however the string is built. Its visitor folds the
 * first argument of every call through the constant folder; its state (the calls seen) lives per program.
 */
function dropTableRule(log: string[] = []): RuleModule {
  return {
    meta: {
      id: 'drop_table',
      kind: 'threat',
      severity: 'warning',
      cwe: 'CWE-89',
      description: 'Drops a database table.',
      hint: 'Do not.',
    },
    patterns: [],
    ast: {
      triggers: [String.raw`\bDROP\b`],
      create: (context: AstContext) => {
        let calls = 0
        log.push('create')
        return {
          CallExpression: (node: Node, parent: Node | null) => {
            calls++
            const sql = context.evaluate(node.arguments?.[0])
            if (sql?.k === 'str' && /^DROP TABLE\b/.test(sql.v))
              context.report(node, `drops a table (call ${calls} of the program, in a ${parent?.type})`)
          },
        }
      },
    },
  }
}

function run(text: string, modules: readonly RuleModule[]): string[] {
  const r = scanJs(text, 'js', { rules: astRuleSet(modules) })
  if (!r.ok)
    throw new Error(r.reason)
  return r.findings.map(f => `${f.rule} ${text.slice(f.start, f.end)}: ${f.message}`)
}

describe('an AST rule module', () => {
  it('plugs into the engine with its visitors and triggers, next to the built-in rules', () => {
    const log: string[] = []
    const text = 'const verb = "DROP"\nquery(verb + " TABLE users")\neval(s)\nquery("SELECT 1")\n'
    expect(run(text, [...RULE_MODULES, dropTableRule(log)])).toEqual([
      'drop_table query(verb + " TABLE users"): drops a table (call 1 of the program, in a ExpressionStatement)',
      'dynamic_eval eval(s): eval() runs a string as code',
    ])
    expect(log).toEqual(['create'])
    // Alone, it is the only rule that runs.
    expect(run(text, [dropTableRule()])).toEqual([
      'drop_table query(verb + " TABLE users"): drops a table (call 1 of the program, in a ExpressionStatement)',
    ])
  })

  it('has its triggers decide whether a text is parsed', () => {
    // Without `DROP` in the text, its visitor cannot fire: the text is not even parsed (a syntax error passes).
    expect(scanJs('query(("x"', 'js', { rules: astRuleSet([dropTableRule()]) })).toEqual({ ok: true, findings: [] })
    expect(scanJs('query(("DROP"', 'js', { rules: astRuleSet([dropTableRule()]) })).toMatchObject({ ok: false })
    // The built-in rules' trigger knows nothing of it.
    expect(AST_TRIGGER.test('DROP')).toBe(false)
    expect(astRuleSet([...RULE_MODULES, dropTableRule()]).trigger.test('DROP')).toBe(true)
  })

  it('gets a fresh state per program, and a set without AST rules parses nothing', () => {
    const set = astRuleSet([dropTableRule()])
    for (let i = 0; i < 2; i++) {
      const r = scanJs('f()\nquery("DROP TABLE t")\n', 'js', { rules: set })
      expect(r.ok && r.findings.map(f => f.message))
        .toEqual(['drops a table (call 2 of the program, in a ExpressionStatement)'])
    }
    expect(scanJs('eval(', 'js', { rules: astRuleSet([]) })).toEqual({ ok: true, findings: [] })
  })

  it('shares trigger alternatives with other rules once, in the rules\' order', () => {
    const modules = RULE_MODULES.filter(m => m.ast)
    expect(modules.map(m => m.meta.id)).toEqual([
      'dynamic_eval',
      'child_process',
      'network_access',
      'fs_write',
      'obfuscation',
      'exfiltration',
      'remote_exec',
    ])
    expect(new Set(AST_TRIGGER_TOKENS).size).toBe(AST_TRIGGER_TOKENS.length)
    // Every rule's own alternatives are in the union.
    for (const m of modules) {
      for (const t of m.ast!.triggers) expect(AST_TRIGGER_TOKENS).toContain(t)
    }
  })
})

describe('the built-in rules\' AST parts', () => {
  it('cover every line pattern that says the AST covers it', () => {
    // Such a pattern runs only when a file cannot be parsed: its rule must read the parsed file instead.
    for (const m of RULE_MODULES) {
      for (const p of m.patterns.filter(p => p.astCovered)) {
        expect(m.ast, `${m.meta.id}: ${p.message}`).toBeDefined()
        expect(p.langs).toContain('js')
      }
    }
  })
})
