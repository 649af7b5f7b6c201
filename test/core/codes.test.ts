import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeCode } from '../../src/audit/sarif'
import { CODES } from '../../src/core/codes'
import { META_RULES, RULES } from '../../src/scanner'

const SRC = path.resolve(__dirname, '../../src')
const AREAS = 'config|frontmatter|schema|structure|fs|skill|root|lock|quality|link|scenario|hitl|uri|scan'
/** Not diagnostic codes, though they look like one. */
const NOT_CODES = new Set(['fs/promises'])

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = path.join(dir, e.name)
    if (e.isDirectory())
      return e.name === 'generated' ? [] : sources(abs)
    return e.name.endsWith('.ts') ? [abs] : []
  })
}

/** Every code written as a string literal in src/. */
function literalCodes(): Set<string> {
  const found = new Set<string>()
  const literal = new RegExp(`['"\`]((?:${AREAS})/[\\w.-]+)['"\`]`, 'g')
  for (const file of sources(SRC)) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(literal)) {
      if (!NOT_CODES.has(m[1]!))
        found.add(m[1]!)
    }
  }
  return found
}

const KEYWORDS = new Set([
  'type',
  'pattern',
  'minLength',
  'maxLength',
  'enum',
  'anyOf',
  'oneOf',
  'uniqueItems',
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'const',
  'format',
])

/** The validation keywords a package schema uses: each is a `schema/<keyword>` (or `scenario/<field>`) code. */
function keywordsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (KEYWORDS.has(key) && !(key === 'additionalProperties' && value === true))
        out.add(key)
      keywordsOf(value, out)
    }
  }
  return out
}
function schema(name: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../schemas/${name}.schema.json`), 'utf8'))
}

/** Codes built at run time: `schema/<keyword>` of the profiles' schemas, `scenario/<field>` of the scenario schema. */
function builtCodes(): Set<string> {
  const keywords = new Set([...keywordsOf(schema('enterprise')), ...keywordsOf(schema('agentskills'))])
  const fields = Object.keys(schema('scenario').properties)
  return new Set([...[...keywords].map(k => `schema/${k}`), ...fields.map(f => `scenario/${f.replace(/_/g, '-')}`)])
}

describe('diagnostic codes', () => {
  it('every code the engine can emit has a short and a full description', () => {
    const emitted = [...literalCodes(), ...builtCodes(), ...[...RULES, ...META_RULES].map(r => `scan/${r.id}`)]
    const missing = emitted.filter(code => !describeCode(code)?.short || !describeCode(code)?.full)
    expect(missing).toEqual([])
    for (const code of emitted) {
      const { short, full } = describeCode(code)!
      expect(short, code).not.toMatch(/unplugin-skills check|^Project rule/)
      expect(full.length, code).toBeGreaterThan(short.length / 2)
    }
  })

  it('the table names no code that nothing emits', () => {
    const emitted = new Set([...literalCodes(), ...builtCodes()])
    expect(Object.keys(CODES).filter(code => !emitted.has(code))).toEqual([])
  })
})
