// The plugin runs inside Vitest (vitest.config.ts), so this file imports the virtual module like app code does.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import manifest, { getSkill, loadManifest, skills } from 'virtual:skills-manifest'
import * as alias from '~skills-manifest'
import { engineModule } from './bundlers/helpers'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SKILL_MD = path.join(ROOT, 'test/fixtures/vitest-skills/hello-world/SKILL.md')
const BODY = '# Hello world\n\n1. Ask for the user\'s name if you don\'t know it.\n2. Answer `Hello, <name>!`.'

describe('virtual:skills-manifest inside Vitest', () => {
  it('exports the manifest summaries', () => {
    expect(manifest.manifestVersion).toBe(1)
    expect(manifest.profile).toBe('agentskills')
    expect(skills).toBe(manifest.skills)
    expect(skills.map(s => [s.name, s.description, s.path, s.source, s.version, s.body])).toEqual([
      ['hello-world', 'Greets the user by name. Use when someone asks for a friendly greeting.', 'test/fixtures/vitest-skills/hello-world', 'test/fixtures/vitest-skills/hello-world', null, ''],
    ])
    const bytes = fs.readFileSync(SKILL_MD)
    expect(skills[0].files).toEqual([{ path: 'SKILL.md', size: bytes.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }])
    expect(skills[0].digest).toMatch(/^[0-9a-f]{64}$/)
  })

  it('loads a skill body lazily through getSkill(name).load()', async () => {
    const handle = getSkill('hello-world')!
    expect(handle.name).toBe('hello-world')
    expect(handle.body).toBe('')
    const full = await handle.load()
    expect(full.body.trim()).toBe(BODY)
    expect(full.frontmatter).toMatchObject({ name: 'hello-world', license: 'MIT' })
    expect(getSkill('nmae' as never)).toBe(undefined)
  })

  it('equals what the engine computes, once loaded', async () => {
    // The built engine: vitest.config.ts runs the built plugin.
    const { SkillsEngine } = await engineModule()
    const engine = new SkillsEngine({ root: ROOT, roots: ['test/fixtures/vitest-skills'], lock: false, manifest: false, profile: 'agentskills' })
    const audit = await engine.audit()
    const full = await loadManifest()
    expect(full.index).toBeDefined()
    expect(full).toEqual((await audit.complete()).manifest)
  })

  it('serves the same module under ~skills-manifest', () => {
    expect(alias.default).toBe(manifest)
    expect(alias.getSkill).toBe(getSkill)
  })
})
