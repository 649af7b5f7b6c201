import { Buffer } from 'node:buffer'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { discover } from '../../src/audit/discover'
import { audit, SkillsEngine } from '../../src/audit/engine'
import { resolveOptions } from '../../src/core/options'
import { makeTree, skill, writeTree } from '../helpers'

const names = (r: Awaited<ReturnType<typeof audit>>): string[] => r.manifest.skills.map(s => s.name)
function moveTo(prefix: string, files: Record<string, unknown>): Record<string, any> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k.replace(/^skills\//, prefix), v]))
}

describe('discovery', () => {
  it('finds nested skills, skips node_modules and .git, and sorts bytewise', async () => {
    const root = makeTree({
      ...skill('zeta'),
      ...moveTo('skills/team/', skill('alpha')),
      ...moveTo('skills/zeta/nested/', skill('inner')),
      ...moveTo('skills/node_modules/', skill('hidden')),
      ...moveTo('skills/.git/', skill('git-hidden')),
    })
    const r = await audit({ root, lock: false })
    expect(names(r)).toEqual(['alpha', 'inner', 'zeta'])
    // The nested skill's files belong to it, not to its parent.
    expect(r.manifest.skills.find(s => s.name === 'zeta')!.files.map(f => f.path)).toEqual([
      'SKILL.md',
      'examples/basic.md',
      'references/guide.md',
    ])
    expect(r.manifest.skills.find(s => s.name === 'inner')!.path).toBe('skills/zeta/nested/inner')
  })

  it('keeps a nested skill out of its parent even below discovery\'s depth bound', async () => {
    const deep = 'skills/outer/a/b/c/d/e/f/g/h/inner/'
    const root = makeTree({
      ...skill('outer'),
      [`${deep}SKILL.md`]: '---\nname: inner\n---\n',
      [`${deep}notes.md`]: 'x\n',
    })
    const r = await audit({ root, lock: false })
    expect(names(r)).toEqual(['outer'])
    expect(r.manifest.skills[0].files.map(f => f.path)).toEqual([
      'SKILL.md',
      'examples/basic.md',
      'references/guide.md',
    ])
  })

  it('resolves file:// roots and pkg:// roots from node_modules', async () => {
    const root = makeTree({
      ...moveTo('elsewhere/', skill('local-one')),
      'node_modules/@acme/skill-pack/package.json': '{"name":"@acme/skill-pack","version":"1.0.0","exports":{}}',
      ...moveTo('node_modules/@acme/skill-pack/skills/', skill('packed')),
    })
    const r = await audit({
      root,
      lock: false,
      roots: [pathToFileURL(path.join(root, 'elsewhere')).href, 'pkg://@acme/skill-pack/skills'],
    })
    expect(r.diagnostics.filter(d => d.severity === 'error')).toEqual([])
    expect(r.manifest.skills.map(s => [s.name, s.source, s.path])).toEqual([
      ['local-one', 'elsewhere/local-one', 'elsewhere/local-one'],
      ['packed', 'pkg://@acme/skill-pack/skills/packed', 'node_modules/@acme/skill-pack/skills/packed'],
    ])
  })

  it('reports roots that cannot be resolved', async () => {
    const root = makeTree(skill('a'))
    const r = await audit({
      root,
      lock: false,
      roots: ['skills', 'missing', 'pkg://not-installed', 'github://acme/skills/path@v1', 'pkg://../escape'],
    })
    expect(r.diagnostics.filter(d => d.code.startsWith('root/')).map(d => [d.code, d.message])).toEqual([
      ['root/invalid-uri', 'root pkg://../escape is not a valid pkg:// URI'],
      ['root/no-resolver', 'no resolver for the github:// scheme (root github://acme/skills/path@v1)'],
      ['root/not-found', 'package not-installed (from pkg://not-installed) is not installed'],
      ['root/not-found', 'skills root missing does not exist (missing)'],
    ])
    expect(r.diagnostics.find(d => d.code === 'root/no-resolver')!.hint).toContain('resolvers')
    expect(names(r)).toEqual(['a'])
  })

  it('uses a resolver for other schemes', async () => {
    const root = makeTree(moveTo('vendor/acme/', skill('vendored')))
    const r = await audit({
      root,
      lock: false,
      roots: ['github://acme/skills@v1'],
      resolvers: { github: uri => path.join(root, 'vendor', uri.slice('github://'.length).split('/')[0]) },
    })
    expect(r.manifest.skills.map(s => [s.name, s.source])).toEqual([['vendored', 'github://acme/skills@v1#vendored']])
  })
})

describe('determinism', () => {
  it('gives byte-identical lock and manifest whatever the creation order and mtimes', async () => {
    const files = {
      ...skill('b-skill'),
      ...skill('a-skill'),
      ...skill('c', {
        files: {
          'references/Zeta.md': 'z\n',
          'references/alpha.md': 'a\n',
          'references/é.md': 'e\n',
          'references/😀.md': 'x\n',
          'references/ﬀ.md': 'y\n',
        },
      }),
    }
    const one = makeTree(files)
    const two = makeTree({})
    writeTree(two, Object.fromEntries(Object.entries(files).reverse()))
    const later = new Date(Date.now() + 3_600_000)
    for (const f of fs.readdirSync(two, { recursive: true }) as string[]) fs.utimesSync(path.join(two, f), later, later)
    const [r1, r2] = [await audit({ root: one, ci: false }), await audit({ root: two, ci: false })]
    const [m1, m2] = [(await r1.complete()).json, (await r2.complete()).json]
    expect(m2).toBe(m1)
    expect(fs.readFileSync(path.join(two, '.manifest.lock'), 'utf8')).toBe(
      fs.readFileSync(path.join(one, '.manifest.lock'), 'utf8'),
    )
    // Bytewise (LC_ALL=C) order: uppercase before lowercase, BMP (U+FB00) before astral (U+1F600).
    expect(r1.manifest.skills.find(s => s.name === 'c')!.tree.references.map(f => f.path)).toEqual([
      'references/Zeta.md',
      'references/alpha.md',
      'references/guide.md',
      'references/é.md',
      'references/ﬀ.md',
      'references/😀.md',
    ])
    expect(m1).not.toMatch(/20\d\d-\d\d-\d\dT/)
  })

  it('computes the digest the README recipe reproduces with sha256sum', async () => {
    const root = makeTree(
      skill('recipe', {
        files: { 'resources/bin.dat': Buffer.from([0, 1, 2, 255]), 'references/sp ace.md': 'space\n' },
      }),
    )
    const r = await audit({ root, lock: false })
    const dir = path.join(root, 'skills/recipe')
    const shell = execFileSync(
      'sh',
      ['-c', `(find . -type f | sed 's|^\\./||' | LC_ALL=C sort | xargs -d '\\n' sha256sum) | sha256sum`],
      { cwd: dir, encoding: 'utf8' },
    )
    expect(r.manifest.skills[0].digest).toBe(shell.split(' ')[0])
    expect(r.manifest.skills[0].integrity).toEqual({ algorithm: 'sha-256', value: shell.split(' ')[0] })
  })
})

describe('cache', () => {
  it('re-reads only the skills whose files changed', async () => {
    const root = makeTree({ ...skill('one'), ...skill('two'), ...skill('three') })
    const engine = new SkillsEngine({ root, lock: false })
    expect((await engine.audit()).stats.reused).toBe(0)
    expect((await engine.audit()).stats.reused).toBe(3)
    const guide = path.join(root, 'skills/two/references/guide.md')
    fs.appendFileSync(guide, 'more\n')
    const partial = await engine.audit({ changed: [guide] })
    expect(partial.stats.reused).toBe(2)
    expect(
      partial.manifest.skills.find(s => s.name === 'two')!.files.find(f => f.path === 'references/guide.md')!.size,
    ).toBe(fs.statSync(guide).size)
    // A new skill folder appears: found through the changed path, the others are reused.
    writeTree(root, skill('four'))
    const grown = await engine.audit({ changed: [path.join(root, 'skills/four/SKILL.md')] })
    expect(names(grown)).toEqual(['four', 'one', 'three', 'two'])
    expect(grown.stats.reused).toBe(3)
    fs.rmSync(path.join(root, 'skills/one'), { recursive: true })
    const shrunk = await engine.audit({ changed: [path.join(root, 'skills/one/SKILL.md')] })
    expect(names(shrunk)).toEqual(['four', 'three', 'two'])
  })
})

describe('profiles', () => {
  it('agentskills: real-world deviations are warnings, rule breaks are errors', async () => {
    const long = Array.from({ length: 520 }, (_, i) => `line ${i}`).join('\n')
    const root = makeTree({
      'skills/nested-meta/SKILL.md': '---\nname: nested-meta\ndescription: d\nmetadata: {"owner": {"team": "x"}}\n'
        + `allowed-tools:\n  - Read\n  - Bash\n---\n${long}\n`,
      'skills/empty-compat/SKILL.md': '---\nname: empty-compat\ndescription: d\ncompatibility: ""\n---\nbody\n',
    })
    const r = await audit({ root, lock: false, profile: 'agentskills' })
    const codes = r.diagnostics.filter(d => d.severity !== 'info').map(d => [d.skill, d.code, d.severity])
    expect(codes).toEqual(
      expect.arrayContaining([
        ['empty-compat', 'schema/minLength', 'error'],
        ['nested-meta', 'schema/recommended', 'warning'],
        ['nested-meta', 'structure/body-too-long', 'warning'],
      ]),
    )
    expect(r.diagnostics.filter(d => d.skill === 'nested-meta' && d.severity === 'error')).toEqual([])
    expect(r.diagnostics.filter(d => d.code === 'schema/recommended').map(d => d.message)).toEqual([
      '`metadata/owner` must be a map of string keys to string values (the agentskills.io recommendations)',
      '`allowed-tools` must be a space-separated string such as `Bash(git:*) Read` '
      + '(the agentskills.io recommendations)',
    ])
  })

  it('preserves unrecognised keys under metadata', async () => {
    const root = makeTree(
      skill('extra', {
        frontmatter:
          'name: extra\ndescription: d\nversion: 2.0.0\ndomain: a\ncategory: b\nhomepage: https://example.com\nauthor: Ada\nmetadata:\n  owner: team-x',
      }),
    )
    const r = await audit({ root, lock: false })
    expect(r.manifest.skills[0].frontmatter).toEqual({
      category: 'b',
      description: 'd',
      domain: 'a',
      metadata: { author: 'Ada', homepage: 'https://example.com', owner: 'team-x' },
      name: 'extra',
      version: '2.0.0',
    })
  })

  it('validates against a user schema too', async () => {
    const root = makeTree({
      ...skill('custom'),
      'schema.json': JSON.stringify({ type: 'object', required: ['owner'] }),
    })
    const r = await audit({ root, lock: false, schema: 'schema.json' })
    expect(r.diagnostics.find(d => d.code === 'schema/custom')).toMatchObject({
      message: 'missing required field `owner` (your custom schema)',
      file: 'skills/custom/SKILL.md',
    })
  })
})

describe('discovery bounds', () => {
  const mkdirs = (base: string, count: number, inner: string[] = []): void => {
    for (let i = 0; i < count; i++) {
      const dir = path.join(base, `d${String(i).padStart(5, '0')}`)
      fs.mkdirSync(dir, { recursive: true })
      for (const sub of inner) fs.mkdirSync(path.join(dir, sub))
      if (inner.length)
        fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: d${String(i).padStart(5, '0')}\n---\n`)
    }
  }

  it('counts only the folders it searches outside skills against its 20,000 bound', async () => {
    // 3,400 skills with 6 folders each: 23,800 folders under the root, 1 outside the skills.
    const root = makeTree({})
    mkdirs(path.join(root, 'skills'), 3400, ['references', 'examples', 'scenarios', 'scripts', 'resources', 'assets'])
    const found = await discover(resolveOptions({ root, lock: false }))
    expect(found.diagnostics).toEqual([])
    expect(found.skills.length).toBe(3400)
  })

  it('stops, with an error, past 20,000 folders outside skills', async () => {
    const root = makeTree({ ...skill('alpha') })
    mkdirs(path.join(root, 'skills', 'vendor'), 20_000)
    const found = await discover(resolveOptions({ root, lock: false }))
    expect(found.diagnostics.map(d => [d.code, d.severity])).toEqual([['root/too-large', 'error']])
    expect(found.skills.length).toBe(1)
  })
})
