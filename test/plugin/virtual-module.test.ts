// The plugin runs inside Vitest (vitest.config.ts), so this file imports the virtual module like app code does.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import manifest, { findSkills, getSkill, loadManifest, skills } from 'virtual:skills-manifest'
import { describe, expect, it } from 'vitest'
import * as alias from '~skills-manifest'
import { engineModule } from './bundlers/helpers'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SKILL_MD = path.join(ROOT, 'test/fixtures/vitest-skills/hello-world/SKILL.md')
const BODY = '# Hello world\n\n1. Ask for the user\'s name if you don\'t know it.\n2. Answer `Hello, <name>!`.'

describe('virtual:skills-manifest inside Vitest', () => {
  it('exports the manifest summaries: what an agent lists and registers at startup', () => {
    expect(manifest.manifestVersion).toBe(1)
    expect(manifest.profile).toBe('agentskills')
    expect(skills).toBe(manifest.skills)
    expect(skills).toEqual([
      {
        name: 'hello-world',
        description: 'Greets the user by name. Use when someone asks for a friendly greeting.',
        version: null,
        source: 'test/fixtures/vitest-skills/hello-world',
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        capabilities: { declared: [], detected: [] },
        workload: 'read',
        requiresApproval: false,
        counts: { files: 1, scenarios: 0, findings: {} },
      },
    ])
    expect('index' in manifest).toBe(false)
  })

  it('loads a skill body lazily through getSkill(name).load()', async () => {
    const handle = getSkill('hello-world')!
    expect(handle.name).toBe('hello-world')
    expect('body' in handle).toBe(false)
    const full = await handle.load()
    expect(full.body.trim()).toBe(BODY)
    const bytes = fs.readFileSync(SKILL_MD)
    expect(full.files).toEqual([
      { path: 'SKILL.md', size: bytes.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ])
    expect(full.digest).toBe(handle.digest)
    expect(full.frontmatter).toMatchObject({ name: 'hello-world', license: 'MIT' })
    expect(getSkill('nmae' as never)).toBe(undefined)
  })

  it('equals what the engine computes, once loaded', async () => {
    // The built engine: vitest.config.ts runs the built plugin.
    const { SkillsEngine } = await engineModule()
    const engine = new SkillsEngine({
      root: ROOT,
      roots: ['test/fixtures/vitest-skills'],
      lock: false,
      manifest: false,
      profile: 'agentskills',
    })
    const audit = await engine.audit()
    const full = await loadManifest()
    expect(full.index).toBeDefined()
    expect(full).toEqual((await audit.complete()).manifest)
  })

  it('answers findSkills from the index parts it loads, as the runtime does over the complete manifest', async () => {
    const { findSkills: find } = await import('../../src/runtime/find')
    const full = await loadManifest()
    for (const query of ['say hello to someone by name', 'greeting', 'zzz']) {
      const expected = find({ ...manifest, index: full.index } as never, query)
      expect(await findSkills(query)).toEqual(expected)
    }
    // Frontmatter chunks carry their text; body chunks only their place (bodies are not in the entry module).
    const [top] = await findSkills('a friendly greeting that asks for their name')
    expect(top.name).toBe('hello-world')
    expect(top.chunks.map(c => [c.kind, c.source, c.text])).toEqual([
      [
        'summary',
        'frontmatter',
        'hello-world\nGreets the user by name. Use when someone asks for a friendly greeting.',
      ],
      ['instructions', 'SKILL.md', null],
    ])
  })

  it('serves the same module under ~skills-manifest', () => {
    expect(alias.default).toBe(manifest)
    expect(alias.getSkill).toBe(getSkill)
  })
})
