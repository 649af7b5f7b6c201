import { describe, expect, it } from 'vitest'
import { dynamicEval } from '../../../src/scanner/rules/dynamic-eval'
import { astHits, hitsOf } from '../helpers'

describe('dynamic_eval', () => {
  it('has the registry id, severity and CWE', () => {
    expect(dynamicEval.meta).toMatchObject({ id: 'dynamic_eval', severity: 'error', cwe: 'CWE-95' })
  })
  it('finds eval, Function and vm through aliases and string building', () => {
    expect(
      hitsOf('dynamic_eval', {
        'scripts/a.js': [
          'const F = Function; new F(\'return 1\')',
          'globalThis[\'ev\' + \'al\'](\'1\')',
          '[].constructor.constructor(\'return this\')()',
          'const k = [\'l\',\'a\',\'v\',\'e\'].reverse().join(\'\'); window[k](\'x\')',
          'require(\'vm\').runInNewContext(\'1\')',
          'setTimeout(\'tick()\', 10)',
          '(0, eval)(src)',
        ].join(';\n'),
      }),
    ).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map(l => expect.stringMatching(new RegExp(`^error dynamic_eval scripts/a\\.js:${l}:`))),
    )
  })
  it('ignores comments, strings, RegExp#exec and a function named evaluate', () => {
    expect(
      hitsOf('dynamic_eval', {
        'scripts/a.js':
          '// eval(x)\nconst s = \'eval(x)\'\nconst re = /a/; re.exec(\'a\')\nfunction evaluate(x) { return x }\n'
          + 'evaluate(1)\nsetTimeout(() => 1, 5)\n',
        'scripts/b.py': '# eval(x)\nmodel.eval()\nprint(\'exec(x)\')\n',
      }),
    ).toEqual([])
  })
  it('reads Python and fenced blocks', () => {
    expect(
      hitsOf('dynamic_eval', {
        'scripts/r.py': 'src = input()\nexec(compile(src, \'x\', \'exec\'))\n',
        'SKILL.md': '# x\n\n```js\nnew Function("a", "return a")\n```\n',
      }),
    ).toEqual(['error dynamic_eval SKILL.md:4:1', 'error dynamic_eval scripts/r.py:2:1'])
  })
})

describe('dynamic_eval: its AST visitor', () => {
  it('names what evaluates: Reflect, vm.Script, string timers (not function timers)', () => {
    const text = 'Reflect.apply(eval, null, [s])\nnew (require(\'vm\').Script)(s)\nsetImmediate(\'tick()\')\n'
      + 'setTimeout(tick, 5)\nReflect.apply(log, null, [s])\n'
    expect(astHits('dynamic_eval', text)).toEqual([
      'Reflect.apply(eval, null, [s]): Reflect.apply invokes eval/Function',
      'new (require(\'vm\').Script)(s): vm.Script runs a string as code',
      'setImmediate(\'tick()\'): setImmediate with a string evaluates it as code',
    ])
  })
})
