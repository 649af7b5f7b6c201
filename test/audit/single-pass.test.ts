/**
 * The engine reads each skill once and keeps only results: what used to be computed from texts kept
 * around (the lock text, watch lists, scenario names, code frames, line-ending hints) must come out the same.
 */
import type { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { audit, SkillsEngine } from '../../src/audit/engine'
import { formatReport } from '../../src/core/format'
import { makeTree, read, skill } from '../helpers'

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex')
function scenario(expected: string): string {
  return `---\nprompt: "Run it"\nexecutes: true\nexpected_skills:\n  - ${expected}\n`
    + 'threshold: 0.5\n---\nThe expected outcome.\n'
}

describe('one pass per skill', () => {
  it('digests the lock it writes, and builds the lock text only when asked', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta') })
    const r = await audit({ root, ci: false })
    expect(r.lock.status).toBe('created')
    expect(r.manifest.lockDigest).toBe(sha256(fs.readFileSync(path.join(root, '.manifest.lock'))))
    expect(r.lockText).toBe(read(root, '.manifest.lock'))
    const empty = await audit({ root: makeTree({ 'skills/.keep': '' }), lock: false })
    expect(empty.manifest.lockDigest).toBe(sha256(empty.lockText))
    expect(empty.lockText).toBe('{\n  "lockfileVersion": 2,\n  "skills": []\n}\n')
  })

  it('lists every file and folder for watchers, unreadable files included', async () => {
    const root = makeTree(skill('alpha', { files: { 'scripts/deep/run.sh': 'echo hi\n', 'secret.txt': 'x\n' } }))
    const dir = path.join(root, 'skills/alpha')
    if (process.getuid?.() !== 0)
      fs.chmodSync(path.join(dir, 'secret.txt'), 0)
    const r = await audit({ root, lock: false })
    expect([...r.watch.files].sort()).toEqual(
      [
        path.join(root, '.manifest.lock'),
        ...['SKILL.md', 'examples/basic.md', 'references/guide.md', 'scripts/deep/run.sh', 'secret.txt'].map(f =>
          path.join(dir, f),
        ),
      ].sort(),
    )
    for (const sub of ['', 'examples', 'references', 'scripts', 'scripts/deep'])
      expect(r.watch.dirs).toContain(path.join(dir, sub))
  })

  it('settles expected skills against the build\'s names on every audit, cached skills included', async () => {
    const root = makeTree({
      ...skill('alpha', { files: { 'scenarios/run.md': scenario('beta') } }),
      ...skill('beta'),
    })
    const engine = new SkillsEngine({ root, lock: false }, { content: true })
    const first = await engine.audit()
    expect(first.diagnostics.filter(d => d.code.startsWith('scenario/'))).toEqual([])
    expect(first.manifest.skills[0].scenarios.map(s => [s.file, s.expected_skills, s.reference])).toEqual([
      ['scenarios/run.md', ['beta'], 'The expected outcome.'],
    ])

    const betaMd = path.join(root, 'skills/beta/SKILL.md')
    fs.rmSync(path.dirname(betaMd), { recursive: true })
    const second = await engine.audit({ changed: [betaMd] })
    expect(second.stats.reused).toBe(1)
    const unknown = second.diagnostics.filter(d => d.code === 'scenario/unknown-skill')
    expect(unknown.map(d => [d.file, d.line, d.column, d.message])).toEqual([
      ['skills/alpha/scenarios/run.md', 5, 5, 'expected skill `beta` is not a skill of this build'],
    ])
    expect(second.manifest.skills.map(s => [s.name, s.scenarios.length])).toEqual([['alpha', 0]])
    // The code frame comes from the lines kept when the scenario was read.
    expect(formatReport(unknown, 1, { sources: second.sources })).toContain('> 5 |   - beta')
  })

  it('reuses cached skills across a rewritten lock unless their own locked entry changed', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta') })
    const engine = new SkillsEngine({ root, ci: false }, { content: false })
    expect((await engine.audit()).lock.status).toBe('created')
    expect((await engine.audit()).lock.status).toBe('ok')
    const lockFile = path.join(root, '.manifest.lock')
    const text = fs.readFileSync(lockFile, 'utf8')
    // The same entries in a new file (read again, new objects): both results still hold.
    fs.rmSync(lockFile)
    fs.writeFileSync(lockFile, text)
    const same = await engine.audit({ changed: [lockFile] })
    expect([same.stats.reused, same.lock.status]).toEqual([2, 'ok'])
    // beta's locked hash is tampered with: beta is compared again, alpha is not.
    const betaHash = /"name": "beta"[\s\S]*?"sha256": "([0-9a-f]{64})"/.exec(text)![1]
    fs.writeFileSync(lockFile, text.replace(betaHash, '0'.repeat(64)))
    const tampered = await engine.audit({ changed: [lockFile] })
    expect(tampered.stats.reused).toBe(1)
    expect(tampered.lock.drift.map(d => d.name)).toEqual(['beta'])
  })

  it('keeps no instruction texts without content, and all of them with it', async () => {
    const root = makeTree(skill('alpha', { files: { 'scenarios/run.md': scenario('alpha') } }))
    const check = (await new SkillsEngine({ root, lock: false }, { content: false }).audit()).manifest.skills[0]
    expect([check.body, check.scenarios[0].reference, check.tree.references[0].text]).toEqual(['', '', undefined])
    const build = (await new SkillsEngine({ root, lock: false }, { content: true }).audit()).manifest.skills[0]
    expect([build.body.startsWith('# alpha'), build.scenarios[0].reference, build.tree.references[0].text]).toEqual([
      true,
      'The expected outcome.',
      '# Guide\n\nHow to do alpha well.\n',
    ])
  })

  it('tells a line-ending-only change of a file with a BOM from a real one', async () => {
    const root = makeTree(skill('alpha', { files: { 'references/bom.md': '\uFEFF# Title\nline\n' } }))
    await audit({ root, ci: false })
    const file = path.join(root, 'skills/alpha/references/bom.md')
    fs.writeFileSync(file, '\uFEFF# Title\r\nline\r\n')
    expect((await audit({ root, ci: false })).diagnostics.find(d => d.code === 'lock/drift')!.message).toBe(
      'skill `alpha` changed\n  ~ references/bom.md (only line endings: now CRLF, locked as LF)',
    )
    fs.writeFileSync(file, '\uFEFF# Title\r\nline!\r\n')
    expect((await audit({ root, ci: false })).diagnostics.find(d => d.code === 'lock/drift')!.message).toBe(
      'skill `alpha` changed\n  ~ references/bom.md',
    )
  })
})
