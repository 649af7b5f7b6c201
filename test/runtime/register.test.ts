import type { ManifestSkill } from '../../src/core/types'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import addFormats from 'ajv-formats'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../../src/audit/engine'
import { checkSkillLoad, createSkillLoader, SkillLoadRefusedError } from '../../src/runtime/compose'
import { toSkillRegister } from '../../src/runtime/register'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const playground = path.join(repo, 'playground')

/** The ACS schemas: the repo's copy when there is one, else the shared spec folder beside the repo. */
function schema(name: string): Record<string, unknown> {
  const candidates = [
    path.join(repo, 'schemas', name),
    path.join(repo, '..', 'shared', 'spec', name),
    path.join('/work/shared/spec', name),
  ]
  const file = candidates.find(f => fs.existsSync(f))
  if (!file)
    throw new Error(`${name} not found in ${candidates.join(', ')}`)
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

let skills: ManifestSkill[]
let validate: ReturnType<Ajv2020['compile']>

beforeAll(async () => {
  skills = (
    await audit({
      root: playground,
      roots: ['skills'],
      lock: false,
      manifest: false,
      app: { domain: 'example.com', name: 'playground' },
    })
  ).manifest.skills
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  addFormats.default ? addFormats.default(ajv) : (addFormats as unknown as (a: Ajv2020) => void)(ajv)
  // The register schema references `../provenance.json` relative to its own $id.
  const provenance = schema('acs-provenance.schema.json')
  const register = schema('acs-skill-register.schema.json')
  ajv.addSchema({ ...provenance, $id: new URL('../provenance.json', register.$id as string).href })
  validate = ajv.compile(register)
})

describe('toSkillRegister', () => {
  it('produces a schema-valid steps/skillRegister payload for every playground skill', () => {
    expect(skills.length).toBeGreaterThanOrEqual(6)
    for (const skill of skills) {
      const payload = toSkillRegister(skill)
      expect(validate(payload), `${skill.name}: ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(payload.definition.digest).toEqual({ algorithm: 'sha-256', value: skill.digest })
      expect(payload.definition.body).toBe(skill.body)
      expect(payload.skill.name).toBe(skill.name)
      expect(payload.declared_capabilities).toEqual(skill.capabilities.declared)
    }
  })

  it('also validates with a urn: ref when the skill has no canonical URI, and with options', () => {
    const skill: ManifestSkill = { ...skills[0], uri: undefined, urn: undefined, version: null, name: 'weird name/ü' }
    const payload = toSkillRegister(skill, { body: false, origin: 'user_input', provider: 'acme', skillId: 'sk-1' })
    expect(payload.definition.ref).toBe('urn:unplugin-skills:skill:weird%20name%2F%C3%BC:0.0.0')
    expect(payload.definition.body).toBeUndefined()
    expect(payload.skill).toEqual({ name: 'weird name/ü', provider: 'acme' })
    expect(payload.registration_provenance.origin).toBe('user_input')
    expect(payload.skill_id).toBe('sk-1')
    expect(validate(payload), JSON.stringify(validate.errors)).toBe(true)
  })

  it('carries composed_skills and allowed-tools into composition', () => {
    const composer = skills.find(s => Array.isArray((s.frontmatter as Record<string, unknown>).composed_skills))
    expect(composer, 'a playground skill declares composed_skills').toBeDefined()
    const payload = toSkillRegister(composer!)
    expect(payload.composition.composed_skills).toEqual(
      (composer!.frontmatter as Record<string, unknown>).composed_skills,
    )
    const tools = toSkillRegister({
      ...composer!,
      frontmatter: { ...composer!.frontmatter, 'allowed-tools': 'Read Bash(git log:*) Write' },
    }).composition.tools
    expect(tools).toEqual(['Read', 'Bash(git log:*)', 'Write'])
    expect(toSkillRegister(composer!)).toEqual(payload)
  })
})

describe('composition guard', () => {
  const manifest = () => ({
    skills: [
      {
        ...skills[0],
        name: 'a',
        uri: 'castor://skills/x/y/a/1.0.0',
        frontmatter: { composed_skills: ['b', 'castor://skills/x/y/c/1.0.0'] },
      },
      { ...skills[0], name: 'b', uri: undefined, frontmatter: {} },
      {
        ...skills[0],
        name: 'c',
        uri: 'castor://skills/x/y/c/1.0.0',
        frontmatter: { metadata: { composed_skills: 'a' } },
      },
    ] as ManifestSkill[],
  })

  it('allows declared loads (by name or URI) and refuses the rest', () => {
    const m = manifest()
    expect(checkSkillLoad(m, 'b', 'a')).toMatchObject({ allowed: true, code: 'ok' })
    expect(checkSkillLoad(m, 'c', 'a')).toMatchObject({ allowed: true, code: 'ok' })
    expect(checkSkillLoad(m, 'a', 'b')).toMatchObject({ allowed: false, code: 'not-composed', skill: null })
    expect(checkSkillLoad(m, 'a', 'c')).toMatchObject({ allowed: true })
    expect(checkSkillLoad(m, 'b', 'c')).toMatchObject({ allowed: false, code: 'not-composed' })
    expect(checkSkillLoad(m, 'b')).toMatchObject({ allowed: true })
    expect(checkSkillLoad(m, 'nope', 'a')).toMatchObject({ allowed: false, code: 'unknown-skill' })
    expect(checkSkillLoad(m, 'b', 'ghost')).toMatchObject({ allowed: false, code: 'unknown-parent' })
    expect(checkSkillLoad({ skills: null as never }, 'b')).toMatchObject({ allowed: false })
  })

  it('a loader throws SkillLoadRefusedError on a refused load', () => {
    const loader = createSkillLoader(manifest())
    expect(loader.load('b', 'a').name).toBe('b')
    expect(() => loader.load('a', 'b')).toThrow(SkillLoadRefusedError)
    expect(() => loader.load('a', 'b')).toThrow('"b" does not declare "a" in composed_skills')
  })
})
