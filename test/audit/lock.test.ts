import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { audit } from '../../src/audit/engine'
import { exists, makeTree, read, skill } from '../helpers'

const LOCK = '.manifest.lock'

describe('.manifest.lock', () => {
  it('is created outside CI, with a notice, and verified on the next run', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta') })
    const first = await audit({ root, ci: false })
    expect(first.lock.status).toBe('created')
    expect(first.diagnostics.find(d => d.code === 'lock/created')).toMatchObject({
      severity: 'info',
      message: 'created .manifest.lock with 2 skill(s); commit it',
    })
    expect(read(root, LOCK)).toBe(first.lockText)
    const second = await audit({ root, ci: false })
    expect(second.lock.status).toBe('ok')
    expect(second.ok).toBe(true)
  })

  it('is an error when missing in CI, and is not created', async () => {
    const root = makeTree(skill('alpha'))
    const r = await audit({ root, ci: true })
    expect(r.ok).toBe(false)
    expect(r.diagnostics.find(d => d.code === 'lock/missing')).toMatchObject({
      severity: 'error',
      file: '.manifest.lock',
      message: '.manifest.lock is missing, and CI never creates it',
    })
    expect(exists(root, LOCK)).toBe(false)
  })

  it('is created by a build only when its audit passes: a failing build writes nothing', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('broken', { frontmatter: 'name: broken' }) })
    const failing = await audit({ root, ci: false })
    expect(failing.ok).toBe(false)
    expect(failing.lock.status).toBe('missing')
    expect(failing.diagnostics.filter(d => d.code.startsWith('lock/'))).toEqual([])
    expect(exists(root, LOCK)).toBe(false)
    fs.rmSync(path.join(root, 'skills/broken'), { recursive: true })
    const passing = await audit({ root, ci: false })
    expect(passing.diagnostics.filter(d => d.code.startsWith('lock/')).map(d => [d.severity, d.message])).toEqual([
      ['info', 'created .manifest.lock with 1 skill(s); commit it'],
    ])
    expect(read(root, LOCK)).toBe(passing.lockText)
  })

  it('is never updated by a failing build, even with lock: update', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta') })
    await audit({ root, ci: false })
    const locked = read(root, LOCK)
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'edit\n')
    fs.writeFileSync(path.join(root, 'skills/beta/SKILL.md'), '---\nname: beta\n---\n')
    const r = await audit({ root, ci: false, lock: 'update' })
    expect(r.ok).toBe(false)
    expect(r.lock.status).toBe('drift')
    expect(r.diagnostics.filter(d => d.code.startsWith('lock/'))).toEqual([])
    expect(read(root, LOCK)).toBe(locked)
  })

  it('is never written by a verify-only audit (check): a missing lock is one warning, an error in CI', async () => {
    const root = makeTree(skill('alpha'))
    const local = await audit({ root, ci: false }, { verifyLock: true })
    expect(local.ok).toBe(true)
    expect(local.lock.status).toBe('missing')
    expect(local.diagnostics).toEqual([
      {
        code: 'lock/missing',
        severity: 'warning',
        message: '.manifest.lock is missing: run `npx unplugin-skills lock` to create it',
        file: '.manifest.lock',
        line: null,
        column: null,
        skill: null,
        hint: '`check` never writes the lock: `lock` does (and prints the capabilities to review), as does a build '
          + 'that passes. Commit it; in CI a missing lock is an error.',
      },
    ])
    const ci = await audit({ root, ci: true }, { verifyLock: true })
    expect(ci.ok).toBe(false)
    expect(ci.diagnostics.map(d => [d.code, d.severity, d.message])).toEqual([
      ['lock/missing', 'error', '.manifest.lock is missing, and CI never creates it'],
    ])
    expect(exists(root, LOCK)).toBe(false)
    // Drift is verified whatever `lock` says: check reports what a build with `lock: 'update'` would rewrite.
    await audit({ root, ci: false })
    const locked = read(root, LOCK)
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'edit\n')
    const drift = await audit({ root, ci: false, lock: 'update' }, { verifyLock: true })
    expect(drift.diagnostics.map(d => [d.code, d.severity])).toEqual([['lock/drift', 'error']])
    expect(read(root, LOCK)).toBe(locked)
  })

  it('reports a missing root once, with no drift for the skills of the lock it can\'t see', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta'), ...skill('gamma') })
    await audit({ root, ci: false })
    const locked = read(root, LOCK)
    const r = await audit({ root, ci: false, roots: ['missing'] }, { verifyLock: true })
    expect(r.diagnostics.map(d => [d.code, d.message])).toEqual([
      ['root/not-found', 'skills root missing does not exist (missing)'],
    ])
    // One root of two missing: the found root's changes are still reported, the rest waits for the root.
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'edit\n')
    const two = await audit({ root, ci: false, roots: ['skills', 'missing'] })
    expect(two.diagnostics.map(d => [d.code, d.skill])).toEqual([
      ['root/not-found', null],
      ['lock/drift', 'alpha'],
    ])
    expect(read(root, LOCK)).toBe(locked)
  })

  it('has a deterministic, documented format', async () => {
    const root = makeTree(skill('alpha'))
    await audit({ root, ci: false })
    const lock = JSON.parse(read(root, LOCK))
    const sha = (rel: string): string =>
      createHash('sha256')
        .update(fs.readFileSync(path.join(root, 'skills/alpha', rel)))
        .digest('hex')
    const size = (rel: string): number => fs.statSync(path.join(root, 'skills/alpha', rel)).size
    expect(lock).toEqual({
      lockfileVersion: 2,
      skills: [
        {
          name: 'alpha',
          source: 'skills/alpha',
          version: '1.0.0',
          digest: lock.skills[0].digest,
          capabilities: [],
          files: ['SKILL.md', 'examples/basic.md', 'references/guide.md'].map(p => ({
            path: p,
            sha256: sha(p),
            size: size(p),
          })),
        },
      ],
    })
    expect(read(root, LOCK)).toBe(`${JSON.stringify(lock, null, 2)}\n`)
  })

  it('fails on drift, naming each skill and file added, removed or modified, and version changes', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta'), ...skill('gamma') })
    await audit({ root, ci: false })
    const locked = read(root, LOCK)
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'tampered\n')
    fs.writeFileSync(path.join(root, 'skills/alpha/examples/new.md'), '# new\n')
    fs.rmSync(path.join(root, 'skills/alpha/examples/basic.md'))
    const md = path.join(root, 'skills/beta/SKILL.md')
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace('version: 1.0.0', 'version: 1.1.0'))
    fs.rmSync(path.join(root, 'skills/gamma'), { recursive: true })
    fs.cpSync(path.join(root, 'skills/beta'), path.join(root, 'skills/delta'), { recursive: true })
    fs.writeFileSync(
      path.join(root, 'skills/delta/SKILL.md'),
      fs.readFileSync(md, 'utf8').replace('name: beta', 'name: delta'),
    )

    const r = await audit({ root, ci: false })
    expect(r.ok).toBe(false)
    expect(r.lock.status).toBe('drift')
    const drift = r.diagnostics.filter(d => d.code === 'lock/drift')
    expect(drift.map(d => [d.skill, d.severity, d.message])).toEqual([
      ['gamma', 'error', 'skill `gamma` is in the lock but no longer found'],
      ['alpha', 'error', 'skill `alpha` changed\n  - examples/basic.md\n  + examples/new.md\n  ~ references/guide.md'],
      ['beta', 'error', 'skill `beta` changed\n  version 1.0.0 -> 1.1.0\n  ~ SKILL.md'],
      ['delta', 'error', 'skill `delta` is not in the lock'],
    ])
    expect(read(root, LOCK)).toBe(locked)
  })

  it('says when only line endings changed and points to .gitattributes', async () => {
    const root = makeTree(skill('alpha'))
    await audit({ root, ci: false })
    const guide = path.join(root, 'skills/alpha/references/guide.md')
    fs.writeFileSync(guide, fs.readFileSync(guide, 'utf8').replace(/\n/g, '\r\n'))
    const r = await audit({ root, ci: false })
    const d = r.diagnostics.find(x => x.code === 'lock/drift')!
    expect(d.message).toBe('skill `alpha` changed\n  ~ references/guide.md (only line endings: now CRLF, locked as LF)')
    expect(d.hint).toContain('.gitattributes')
  })

  it('reports drift as a warning in dev mode', async () => {
    const root = makeTree(skill('alpha'))
    await audit({ root, ci: false })
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'edit\n')
    const r = await audit({ root, ci: false }, { mode: 'dev' })
    expect(r.ok).toBe(true)
    expect(r.diagnostics.find(d => d.code === 'lock/drift')!.severity).toBe('warning')
  })

  it('changes only when asked (lock: update), atomically', async () => {
    const root = makeTree(skill('alpha'))
    await audit({ root, ci: false })
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'edit\n')
    const r = await audit({ root, ci: true, lock: 'update' })
    expect(r.ok).toBe(true)
    expect(r.lock.status).toBe('updated')
    expect(r.diagnostics.find(d => d.code === 'lock/updated')!.message).toBe(
      'updated .manifest.lock:\nskill `alpha` changed\n  ~ references/guide.md',
    )
    expect(read(root, LOCK)).toBe(r.lockText)
    expect(fs.readdirSync(root).filter(f => f.includes('.tmp-'))).toEqual([])
    expect((await audit({ root, ci: true })).lock.status).toBe('ok')
  })

  it('reports a corrupt lock with its position and never overwrites it', async () => {
    const root = makeTree({ ...skill('alpha'), [LOCK]: '{\n  "lockfileVersion": 1,\n  "skills": [\n    {,\n  ]\n}\n' })
    const before = read(root, LOCK)
    for (const lock of ['verify', 'update'] as const) {
      const r = await audit({ root, ci: false, lock })
      const d = r.diagnostics.find(x => x.code === 'lock/corrupt')!
      expect(d).toMatchObject({ severity: 'error', file: '.manifest.lock', line: 4, column: 6 })
      expect(d.hint).toContain('--force')
      expect(read(root, LOCK)).toBe(before)
    }
  })

  it('reports each syntax error of a lock at the character that breaks it', async () => {
    const root = makeTree(skill('alpha'))
    await audit({ root, ci: false })
    const good = read(root, LOCK)
    const cases: Array<[string, string, number, number]> = [
      // A missing comma between two entries of a file.
      [good.replace(/("path": "SKILL.md"),/, '$1'), 'expected \',\' or \'}\' after a value', 13, 11],
      // Cut inside a hash: the string never ends.
      [good.slice(0, good.indexOf('"digest": "') + 20), 'unterminated string', 8, 27],
      // Cut after a comma: the text ends where a value was due.
      [good.slice(0, good.indexOf('"capabilities"')), 'the text ends before the JSON value does', 9, 7],
      // Trailing commas: in the last file's entry, and after the last skill.
      [good.replace(/("size": \d+)(\n {8}\}\n {6}\])/, '$1,$2'), 'expected a double-quoted property name', 25, 9],
      [good.replace(/\n {4}\}\n {2}\]/, '\n    },\n  ]'), 'unexpected `]`', 28, 3],
      [good.replace('"version": "1.0.0"', '"version": True'), '`True` is not a JSON value (strings are double-quoted; '
      + 'true, false and null are lowercase)', 7, 18],
      [`${good}}\n`, 'unexpected text after the JSON value', 30, 1],
      // Hostile nesting: located without recursion.
      ['['.repeat(1_000_000), 'the text ends before the JSON value does', 1, 1_000_001],
    ]
    for (const [text, message, line, column] of cases) {
      fs.writeFileSync(path.join(root, LOCK), text)
      const r = await audit({ root, ci: false })
      const d = r.diagnostics.find(x => x.code === 'lock/corrupt')
      expect([d?.message, d?.line, d?.column], text).toEqual([`the lock is not valid JSON: ${message}`, line, column])
      expect(read(root, LOCK)).toBe(text)
    }
  })

  it('reports a schema-invalid lock at the entry that breaks the shape', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta') })
    await audit({ root, ci: false })
    const good = read(root, LOCK)
    const lines = good.split('\n')
    const line = (needle: string, from = 0): number => lines.findIndex((l, i) => i >= from && l.includes(needle)) + 1
    const betaAt = line('"name": "beta"')
    const cases: Array<[string, string, number, number]> = [
      // beta's second file's size as a string.
      [
        good.replace(/("size": )(\d+)(\n {8}\}\n {6}\]\n {4}\}\n {2}\])/, '$1"$2"$3'),
        '/skills/1/files/2/size must be integer',
        line('"size"', line('"references/guide.md"', betaAt)),
        19,
      ],
      // An unexpected key in alpha's entry: shown at the key.
      [
        good.replace('"capabilities": [],', '"capabilities": [],\n      "reviewed": true,'),
        '/skills/0 has an unexpected key `reviewed`',
        line('"capabilities"') + 1,
        7,
      ],
      // A missing key: shown at the entry that lacks it.
      [
        good.replace('"source": "skills/beta",\n      ', ''),
        '/skills/1 must have required property \'source\'',
        betaAt - 1,
        5,
      ],
    ]
    for (const [text, message, at, column] of cases) {
      fs.writeFileSync(path.join(root, LOCK), text)
      const r = await audit({ root, ci: false })
      const d = r.diagnostics.find(x => x.code === 'lock/corrupt')
      expect([d?.message, d?.line, d?.column], text).toEqual([
        `the lock does not have the expected shape: ${message}`,
        at,
        column,
      ])
    }
    fs.writeFileSync(path.join(root, LOCK), good.replace('"name": "beta"', '"name": "alpha"'))
    const twice = (await audit({ root, ci: false })).diagnostics.find(x => x.code === 'lock/corrupt')
    expect([twice?.message, twice?.line, twice?.column]).toEqual(['the lock lists skill `alpha` twice', betaAt, 15])
    fs.writeFileSync(path.join(root, LOCK), good.replace('"lockfileVersion": 2', '"lockfileVersion": 7'))
    const version = (await audit({ root, ci: false })).diagnostics.find(x => x.code === 'lock/corrupt')
    expect([version?.message, version?.line, version?.column]).toEqual([
      'lockfileVersion 7 is not supported (expected 2)',
      2,
      22,
    ])
  })

  it('reports a hand-broken lock (valid JSON, wrong shape)', async () => {
    const root = makeTree({
      ...skill('alpha'),
      [LOCK]: '{"lockfileVersion": 1, "skills": [{"name": "alpha", "digest": "nothex"}]}\n',
    })
    const r = await audit({ root, ci: false })
    expect(r.diagnostics.find(x => x.code === 'lock/corrupt')!.message).toMatch(
      /^the lock does not have the expected shape/,
    )
  })

  it('detects a lock whose recorded hash was tampered with', async () => {
    const root = makeTree(skill('alpha'))
    await audit({ root, ci: false })
    const lock = read(root, LOCK)
    const hash = /"sha256": "([0-9a-f]{64})"/.exec(lock)![1]
    fs.writeFileSync(path.join(root, LOCK), lock.replace(hash, '0'.repeat(64)))
    const r = await audit({ root, ci: false })
    expect(r.diagnostics.find(d => d.code === 'lock/drift')!.message).toBe('skill `alpha` changed\n  ~ SKILL.md')
  })

  it('compares whole entries: equal values with the keys reordered by hand are still drift', async () => {
    const root = makeTree({ ...skill('alpha'), ...skill('beta') })
    await audit({ root, ci: false })
    const lock = JSON.parse(read(root, LOCK)) as {
      skills: Array<Record<string, unknown> & { files: Array<Record<string, unknown>> }>
    }
    const [alpha, beta] = lock.skills
    lock.skills[0] = {
      source: alpha.source,
      name: alpha.name,
      version: alpha.version,
      digest: alpha.digest,
      files: alpha.files,
      capabilities: alpha.capabilities,
    }
    lock.skills[1] = {
      ...beta,
      files: beta.files.map((f, i) => (i ? f : { sha256: f.sha256, path: f.path, size: f.size })),
    }
    fs.writeFileSync(path.join(root, LOCK), JSON.stringify(lock, null, 2))
    const r = await audit({ root, ci: false })
    expect(r.lock.drift.map(d => [d.name, d.change, d.files.length])).toEqual([
      ['alpha', 'modified', 0],
      ['beta', 'modified', 0],
    ])
    fs.writeFileSync(path.join(root, LOCK), JSON.stringify({ ...lock, skills: [alpha, beta] }, null, 2))
    expect((await audit({ root, ci: false })).lock.status).toBe('ok')
  })

  it('rejects an unsupported lockfileVersion', async () => {
    const root = makeTree({ ...skill('alpha'), [LOCK]: '{"lockfileVersion": 3, "skills": []}\n' })
    const r = await audit({ root, ci: false })
    expect(r.diagnostics.find(x => x.code === 'lock/corrupt')!.message).toBe(
      'lockfileVersion 3 is not supported (expected 2)',
    )
  })
})
