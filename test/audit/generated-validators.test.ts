import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { GENERATED_DIR, validatorSources } from '../../scripts/generate-validators'
import { lockfile } from '../../src/generated/lock-validator.js'
import { options } from '../../src/generated/options-validator.js'
import { agentskills, enterprise, recommended, scenario } from '../../src/generated/validators.js'

const schemas = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas')
const schema = (name: string): object => JSON.parse(fs.readFileSync(path.join(schemas, `${name}.schema.json`), 'utf8'))

describe('generated validators', () => {
  it('are what the schemas generate (run `npx tsx scripts/generate-validators.ts` after changing one)', () => {
    const sources = validatorSources()
    expect(Object.keys(sources).sort()).toEqual(fs.readdirSync(GENERATED_DIR).sort())
    for (const [file, code] of Object.entries(sources))
      expect(fs.readFileSync(path.join(GENERATED_DIR, file), 'utf8'), file).toBe(code)
  })

  it('answer as ajv compiling the schemas does, errors included', () => {
    const all = new Ajv({ allErrors: true, strict: false })
    const first = new Ajv({ allErrors: false, strict: false })
    const pairs = [
      [agentskills, all.compile(schema('agentskills'))],
      [enterprise, all.compile(schema('enterprise'))],
      [recommended, all.compile(schema('recommended'))],
      [scenario, all.compile(schema('scenario'))],
      [options, new Ajv({ allErrors: true, strict: false, verbose: true }).compile(schema('options'))],
      [lockfile, first.compile(schema('lockfile'))],
    ] as const
    const samples: unknown[] = [
      {},
      null,
      [],
      'text',
      { name: 'pdf-tools', description: 'Reads PDFs. Use when a PDF is attached.' },
      {
        'name': 'Bad--Name-',
        'description': '',
        'version': '1.0',
        'tags': ['a', 'a'],
        'metadata': { nested: { x: 1 } },
        'allowed-tools': ['Read'],
      },
      {
        name: 'x'.repeat(65),
        description: 'd'.repeat(1025),
        domain: 'Data',
        category: 'db',
        version: '1.2.3',
        workload: 'delete',
        capabilities: ['network', 'network', 'teleport'],
      },
      { prompt: 'Summarise', expected_skills: ['pdf-tools'], threshold: 2 },
      { lockfileVersion: 1, skills: [{ name: 'a', files: 'none' }] },
    ]
    let failures = 0
    for (const [generated, compiled] of pairs) {
      for (const data of samples) {
        const ok = generated(data)
        expect(ok).toBe(compiled(data))
        expect(generated.errors ?? null).toEqual(compiled.errors ?? null)
        if (!ok)
          failures++
      }
    }
    expect(failures).toBeGreaterThan(30)
  })
})
