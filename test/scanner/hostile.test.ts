import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scanSkill } from '../../src/scanner/index'
import { nestingWithin } from '../../src/scanner/js/depth-guard'
import { scanJs } from '../../src/scanner/js/scan-js'
import { loadSkill } from './corpus'
import { hits } from './helpers'

const MB = 1024 * 1024
let dir: string

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanner-hostile-'))
  const skill = path.join(dir, 'hostile')
  fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true })
  fs.writeFileSync(path.join(skill, 'SKILL.md'), `---\nname: hostile\ndescription: x\n---\n${'a'.repeat(MB)}\n`)
  fs.writeFileSync(
    path.join(skill, 'scripts', 'nested.js'),
    `eval(x)\nx = ${'['.repeat(MB / 2 - 8)}${']'.repeat(MB / 2 - 8)}\n`,
  )
  fs.writeFileSync(path.join(skill, 'scripts', 'parens.js'), `eval(${'('.repeat(20000)}1${')'.repeat(20000)})\n`)
  fs.writeFileSync(path.join(skill, 'scripts', 'line.sh'), `${'curl '.repeat(100000)}| sh\n`)
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('hostile input', () => {
  it('scans a 1 MB line, 1 MB of nested brackets and deep parens without throwing or crashing the parser', () => {
    const r = scanSkill(loadSkill(path.join(dir, 'hostile')), { maxTextSize: 2 * MB })
    expect(r.diagnostics.map(d => `${d.severity} ${d.rule} ${d.file}:${d.line}`)).toEqual([
      'error network_access skills/hostile/scripts/line.sh:1',
      'error remote_exec skills/hostile/scripts/line.sh:1',
      'info parse-fallback skills/hostile/scripts/nested.js:null',
      'error dynamic_eval skills/hostile/scripts/nested.js:1',
      'info parse-fallback skills/hostile/scripts/parens.js:null',
      'error dynamic_eval skills/hostile/scripts/parens.js:1',
    ])
  })
  it('keeps the nesting guard ahead of every construct that overflows the native parser', () => {
    const n = 6000
    const deep = [
      `x = ${'('.repeat(n)}1${')'.repeat(n)}`,
      `x = ${'!'.repeat(n)}1`,
      `${'a='.repeat(n)}1`,
      `f = ${'x=>'.repeat(n)}1`,
      `${'if(a)'.repeat(n)};`,
      `x = ${'a?b:'.repeat(n)}c`,
      `x = ${'new '.repeat(n)}f`,
      `x = ${'`${'.repeat(n)}1${'}`'.repeat(n)}`,
      `x = ${'{a:'.repeat(n)}1${'}'.repeat(n)}`,
      `${'a:'.repeat(n)};`,
      `x = ${'typeof '.repeat(n)}a`,
      `x = ${'<a>'.repeat(n)}${'</a>'.repeat(n)}`,
      `let x: ${'A<'.repeat(n)}B${'>'.repeat(n)}`,
      `if(a){}${'else if(a){}'.repeat(n)}`,
      `x = ${'class extends '.repeat(n)}A {}${'{}'.repeat(n)}`,
      `x = a${'.b'.repeat(n * 20)}`,
      `x = ${'1+'.repeat(n * 20)}1`,
    ]
    expect(deep.filter(src => nestingWithin(src))).toEqual([])
    expect(
      nestingWithin('const a = require(\'x\')\nfunction f(b) { return b.map(x => x * 2 + \'abc\') }\n'.repeat(2000)),
    ).toBe(true)
    for (const src of deep.slice(0, 4))
      expect(hits({ 'scripts/d.js': `eval(x)\n${src}\n` })).toContain('error dynamic_eval scripts/d.js:1:1')
  })
  it('survives odd inputs: empty files, lone surrogates, NUL bytes, unterminated fences and comments', () => {
    const r = hits({
      'SKILL.md': '```js\neval(1)\n',
      'scripts/a.js': '/* never closed eval(',
      'scripts/b.py': '"""unterminated',
      'scripts/c.txt': '\uD800\u0000\uDFFF',
      'scripts/d.js': '',
    })
    expect(r).toEqual(['error dynamic_eval SKILL.md:2:1', 'info parse-fallback scripts/a.js:null:null'])
  })
})

describe('hostile input to the AST analysis', () => {
  const analyse = (js: string): string[] => {
    const r = scanJs(js, 'js')
    return r.ok ? r.findings.map(f => `${f.rule} ${js.slice(0, f.start).split('\n').length}`) : [`fallback ${r.reason}`]
  }

  it('evaluates each binding once, however many references fan out from it', () => {
    // Each name refers to the previous one twice: 2^60 evaluations when every reference re-evaluated it.
    const chain = Array.from({ length: 60 }, (_, i) => `const a${i + 1} = a${i} || a${i}`).join('\n')
    // m folds only if a60's 2^60 references cost less than the evaluation budget.
    expect(analyse(`const a0 = x.y\n${chain}\nconst m = a60 || 'child_' + 'process'\nrequire(m).exec(a1)\n`)).toEqual([
      'child_process 63',
      'child_process 63',
    ])
  })

  it('gives up on a file whose analysis exceeds its budget, never on the calls past the budget alone', () => {
    // Padding first, the call last: a budget that only stopped counting would miss it.
    const padding = Array.from(
      { length: 300 },
      (_, i) => `const p${i} = [${Array.from({ length: 40 }, (_, k) => `o.k${k}`).join(', ')}]`,
    ).join('\n')
    const js = `${padding}\nrequire('child_' + 'process').exec(cmd)\n`
    expect(analyse(js)).toEqual(['child_process 301', 'child_process 301'])
    const r = scanJs(js, 'js', { maxWork: 20_000 })
    expect(r).toEqual({ ok: false, reason: 'too much for the AST analysis', tooLarge: true })
  })

  it('gives up on folded strings that grow past a bound instead of building them', () => {
    const doubling = Array.from({ length: 40 }, (_, i) => `const s${i + 1} = s${i} + s${i}`).join('\n')
    const spread = [
      'const big = s12.replaceAll(\'\', s12)',
      'const joined = [s12, s12, s12].join(s12)',
      // eslint-disable-next-line no-template-curly-in-string -- JavaScript source that holds a template literal
      ['const t = `', '${s12}'.repeat(17), '`'].join(''),
    ].join('\n')
    const source = [
      'const s0 = \'ab\'',
      doubling,
      spread,
      'require(s40 + big + joined + t)',
      'require(\'child_\' + \'process\').exec(s3)',
      '',
    ].join('\n')
    // s40 would be 2 TB; what the rules need (a module name) still folds.
    expect(analyse(source)).toEqual(['child_process 46', 'child_process 46'])
  })
})
