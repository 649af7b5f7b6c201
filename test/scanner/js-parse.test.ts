import type { JsFlavor } from '../../src/scanner/types'
import { describe, expect, it } from 'vitest'
import { scanJs } from '../../src/scanner/js/scan-js'

function rules(text: string, flavor: JsFlavor): string[] {
  const r = scanJs(text, flavor)
  return r.ok ? r.findings.map(f => `${f.rule} ${text.slice(f.start, f.end)}`) : [`fallback: ${r.reason}`]
}

describe('the JavaScript parsers', () => {
  it('reads modules and sloppy scripts (acorn), JSX in .js and TypeScript (oxc) with the same analysis', () => {
    expect(rules('import x from "y"\nglobalThis["ev" + "al"](x)\n', 'js')).toEqual([
      'dynamic_eval globalThis["ev" + "al"](x)',
    ])
    // `with` and legacy octals: a script, not a module.
    expect(rules('with (o) { n = 017 }\nglobalThis["ev" + "al"](n)\n', 'js')).toEqual([
      'dynamic_eval globalThis["ev" + "al"](n)',
    ])
    expect(rules('const App = () => <button onClick={() => globalThis["ev" + "al"](x)} />\n', 'js')).toEqual([
      'dynamic_eval globalThis["ev" + "al"](x)',
    ])
    expect(rules('const F: FunctionConstructor = Function\nnew F("return 1")\n', 'ts')).toEqual([
      'dynamic_eval new F("return 1")',
    ])
    expect(rules('const F = Function\nnew F(\n', 'js')).toEqual(['fallback: syntax error'])
  })
})
