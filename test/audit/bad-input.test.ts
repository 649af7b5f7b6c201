import type { AuditResult } from '../../src/audit/engine'
import type { FileEntry } from '../../src/audit/read'
import type { Diagnostic } from '../../src/core/types'
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { audit } from '../../src/audit/engine'
import { readEntry } from '../../src/audit/read'
import { makeTree, skill } from '../helpers'

function run(root: string, extra: Parameters<typeof audit>[0] = {}): Promise<AuditResult> {
  return audit({ root, lock: false, ...extra })
}
const find = (r: AuditResult, code: string): Diagnostic | undefined => r.diagnostics.find(d => d.code === code)
const errors = (r: AuditResult): Diagnostic[] => r.diagnostics.filter(d => d.severity === 'error')

describe('frontmatter', () => {
  it('reports a missing frontmatter block at SKILL.md:1:1', async () => {
    const root = makeTree(skill('plain', { frontmatter: '' }))
    fs.writeFileSync(path.join(root, 'skills/plain/SKILL.md'), '# Just markdown\n')
    const r = await run(root)
    expect(r.ok).toBe(false)
    expect(find(r, 'frontmatter/missing')).toMatchObject({
      file: 'skills/plain/SKILL.md',
      line: 1,
      column: 1,
      skill: 'plain',
      severity: 'error',
    })
  })

  it('reports an unterminated block', async () => {
    const root = makeTree({
      'skills/open/SKILL.md': '---\nname: open\ndescription: never closed\n',
      'skills/open/references/a.md': '# a\n',
      'skills/open/examples/a.md': '# a\n',
    })
    const r = await run(root)
    expect(find(r, 'frontmatter/unterminated')).toMatchObject({ file: 'skills/open/SKILL.md', line: 1 })
  })

  it('positions a YAML error in SKILL.md and suggests quoting', async () => {
    const root = makeTree(
      skill('colon', {
        frontmatter: 'name: colon\ndescription: Use when: things happen\nversion: 1.0.0\ndomain: a\ncategory: b',
      }),
    )
    const r = await run(root)
    const d = find(r, 'frontmatter/yaml')!
    expect(d).toMatchObject({
      file: 'skills/colon/SKILL.md',
      line: 3,
      column: 22,
      message: 'YAML syntax error: bad indentation of a mapping entry',
    })
    expect(d.hint).toMatch(/quoted/)
  })

  it('never executes ---js / ---javascript / ---coffee frontmatter', async () => {
    const g = globalThis as { __skillsPwned?: number }
    delete g.__skillsPwned
    const root = makeTree({
      ...skill('js-fm'),
      ...skill('javascript-fm'),
      ...skill('coffee-fm'),
    })
    fs.writeFileSync(
      path.join(root, 'skills/js-fm/SKILL.md'),
      '---js\n{ name: (globalThis.__skillsPwned = 1, "js-fm") }\n---\nbody\n',
    )
    fs.writeFileSync(
      path.join(root, 'skills/javascript-fm/SKILL.md'),
      '---javascript\nglobalThis.__skillsPwned = 2; module.exports = {}\n---\nbody\n',
    )
    fs.writeFileSync(
      path.join(root, 'skills/coffee-fm/SKILL.md'),
      '---coffee\nglobalThis.__skillsPwned = 3\n---\nbody\n',
    )
    const r = await run(root)
    expect(g.__skillsPwned).toBeUndefined()
    const executable = r.diagnostics.filter(d => d.code === 'frontmatter/executable')
    expect(executable.map(d => [d.file, d.line, d.column])).toEqual([
      ['skills/coffee-fm/SKILL.md', 1, 4],
      ['skills/javascript-fm/SKILL.md', 1, 4],
      ['skills/js-fm/SKILL.md', 1, 4],
    ])
  })

  it('bounds YAML alias expansion (billion laughs) and returns', async () => {
    const bomb = [
      'name: bomb',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n')
    const root = makeTree(skill('bomb', { frontmatter: bomb }))
    const r = await run(root)
    expect(find(r, 'frontmatter/alias-limit')).toMatchObject({ file: 'skills/bomb/SKILL.md', severity: 'error' })
  })

  it('bounds nesting depth before parsing', async () => {
    const root = makeTree(skill('deep', { frontmatter: `name: deep\nx: ${'['.repeat(10_000)}${']'.repeat(10_000)}` }))
    const r = await run(root)
    expect(find(r, 'frontmatter/too-deep')).toMatchObject({ file: 'skills/deep/SKILL.md', line: 2 })
  })

  it('reports duplicate keys', async () => {
    const root = makeTree(
      skill('dupkey', {
        frontmatter: 'name: dupkey\ndescription: a\ndescription: b\nversion: 1.0.0\ndomain: a\ncategory: b',
      }),
    )
    const r = await run(root)
    expect(find(r, 'frontmatter/duplicate-key')).toMatchObject({ line: 4, column: 1 })
  })

  it('accepts a UTF-8 BOM and CRLF line endings', async () => {
    const root = makeTree(skill('crlf'))
    const file = path.join(root, 'skills/crlf/SKILL.md')
    fs.writeFileSync(file, `\uFEFF${fs.readFileSync(file, 'utf8').replace(/\n/g, '\r\n')}`)
    const r = await run(root)
    expect(errors(r)).toEqual([])
    const entry = r.manifest.skills[0]
    expect(entry.name).toBe('crlf')
    expect(entry.frontmatter.version).toBe('1.0.0')
    expect(entry.body.startsWith('# crlf\n')).toBe(true)
  })

  it('accepts `---` inside a quoted value', async () => {
    const root = makeTree(
      skill('dashes', { frontmatter: 'name: dashes\ndescription: "a --- b"\nversion: 1.0.0\ndomain: a\ncategory: b' }),
    )
    const r = await run(root)
    expect(errors(r)).toEqual([])
    expect(r.manifest.skills[0].description).toBe('a --- b')
  })
})

describe('files', () => {
  it('reports invalid UTF-8 in a text file with its position', async () => {
    const root = makeTree(
      skill('badutf', {
        files: {
          'references/bad.md': Buffer.concat([
            Buffer.from('# ok\nline two \xC3'),
            Buffer.from([0xC3, 0x28]),
            Buffer.from(' end\n'),
          ]),
        },
      }),
    )
    const r = await run(root)
    expect(find(r, 'fs/invalid-utf8')).toMatchObject({
      file: 'skills/badutf/references/bad.md',
      line: 2,
      severity: 'error',
    })
  })

  it('hashes binary files without decoding them, and warns on empty files', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0xFF, 0xFE])
    const root = makeTree(skill('bin', { files: { 'resources/logo.png': png, 'resources/empty.txt': '' } }))
    const r = await run(root)
    expect(errors(r)).toEqual([])
    expect(find(r, 'fs/empty-file')).toMatchObject({ file: 'skills/bin/resources/empty.txt', severity: 'warning' })
    const logo = r.manifest.skills[0].tree.resources.find(f => f.path === 'resources/logo.png')
    expect(logo).toEqual({
      path: 'resources/logo.png',
      size: 14,
      sha256: createHash('sha256').update(png).digest('hex'),
    })
  })

  it('treats an empty SKILL.md as missing frontmatter', async () => {
    const root = makeTree(skill('empty'))
    fs.writeFileSync(path.join(root, 'skills/empty/SKILL.md'), '')
    const r = await run(root)
    expect(find(r, 'frontmatter/missing')).toMatchObject({ file: 'skills/empty/SKILL.md' })
  })

  it('never reads the target of a symlink that leaves the skill', async () => {
    // The target is a FIFO: reading it would block forever, so a passing test proves it was never opened.
    const root = makeTree({
      ...skill('escape', { files: { 'references/secret.md': { symlink: '../../../outside' } } }),
      outside: { fifo: true },
    })
    const r = await run(root)
    expect(find(r, 'fs/symlink-escape')).toMatchObject({
      file: 'skills/escape/references/secret.md',
      severity: 'error',
      skill: 'escape',
    })
    expect(r.manifest.skills[0].files.map(f => f.path)).not.toContain('references/secret.md')
  })

  it('reports symlink loops and dangling links', async () => {
    const root = makeTree({
      ...skill('loop', {
        files: { 'a.md': { symlink: 'b.md' }, 'b.md': { symlink: 'a.md' }, 'gone.md': { symlink: 'nowhere.md' } },
      }),
    })
    const r = await run(root)
    expect(find(r, 'fs/symlink-loop')).toMatchObject({ file: 'skills/loop/a.md' })
    expect(r.diagnostics.filter(d => d.code === 'fs/symlink-loop')).toHaveLength(2)
    expect(find(r, 'fs/symlink-dangling')).toMatchObject({ file: 'skills/loop/gone.md' })
  })

  it('follows a symlink that stays inside the skill', async () => {
    const root = makeTree(skill('inner', { files: { 'references/alias.md': { symlink: 'guide.md' } } }))
    const r = await run(root)
    expect(errors(r)).toEqual([])
    const files = r.manifest.skills[0].files
    expect(files.find(f => f.path === 'references/alias.md')!.sha256).toBe(
      files.find(f => f.path === 'references/guide.md')!.sha256,
    )
  })

  it('does not read FIFOs or other special files', async () => {
    const root = makeTree(skill('fifo', { files: { 'scripts/pipe': { fifo: true } } }))
    const r = await run(root)
    expect(find(r, 'fs/special-file')).toMatchObject({ file: 'skills/fifo/scripts/pipe', severity: 'error' })
  })

  it('rejects file names that would make the file list ambiguous', async () => {
    const root = makeTree(
      skill('names', { files: { 'references/two\nlines.md': 'x\n', 'references/back\\slash.md': 'y\n' } }),
    )
    const r = await run(root)
    expect(r.diagnostics.filter(d => d.code === 'fs/bad-filename').map(d => d.message)).toEqual([
      'file name "references/back\\\\slash.md" contains a control character or a backslash',
      'file name "references/two\\nlines.md" contains a control character or a backslash',
    ])
  })
})

describe('names', () => {
  it('reports a name that breaks the rules, and one that differs from its folder', async () => {
    const root = makeTree({
      ...skill('Bad--Name', { frontmatter: 'name: Bad--Name\ndescription: x\nversion: 1.0.0\ndomain: a\ncategory: b' }),
      ...skill('folder', { frontmatter: 'name: other-name\ndescription: x\nversion: 1.0.0\ndomain: a\ncategory: b' }),
    })
    const r = await run(root)
    const pattern = r.diagnostics.find(d => d.code === 'schema/pattern' && d.skill === 'Bad--Name')!
    expect(pattern).toMatchObject({ file: 'skills/Bad--Name/SKILL.md', line: 2, column: 1 })
    expect(pattern.message).toBe(
      '`name` must be 1-64 characters of a-z, 0-9 and -, '
      + 'with no leading, trailing or double hyphen (the enterprise profile)',
    )
    expect(find(r, 'skill/name-mismatch')).toMatchObject({
      file: 'skills/folder/SKILL.md',
      line: 2,
      message: 'name `other-name` differs from its folder `folder`',
    })
  })

  it('reports duplicate names across roots', async () => {
    const root = makeTree({
      ...skill('twin'),
      ...Object.fromEntries(Object.entries(skill('twin')).map(([k, v]) => [k.replace(/^skills\//, 'more/'), v])),
    })
    const r = await run(root, { roots: ['skills', 'more'] })
    const d = find(r, 'skill/duplicate-name')!
    expect(d.message).toBe('skill name `twin` is used by 2 skills: more/twin, skills/twin')
    expect(d.file).toBe('skills/twin/SKILL.md')
  })
})

describe('one pass', () => {
  it('collects every problem of every skill, never stopping at the first', async () => {
    const root = makeTree({
      ...skill('ok'),
      ...skill('no-version', { frontmatter: 'name: no-version\ndescription: x\ndomain: a\ncategory: b' }),
      'skills/no-fm/SKILL.md': 'hello\n',
      ...skill('bad-yaml', { frontmatter: 'name: bad-yaml\ndescription: [unclosed' }),
    })
    const r = await run(root)
    expect(r.stats.skills).toBe(4)
    const byCode = errors(r).map(d => `${d.skill}:${d.code}`)
    expect(byCode).toEqual(
      expect.arrayContaining([
        'no-version:schema/required',
        'no-fm:frontmatter/missing',
        'bad-yaml:frontmatter/yaml',
        'no-fm:structure/references',
      ]),
    )
    const missing = find(r, 'schema/required')!
    expect(missing.message).toBe('missing required field `version` (the enterprise profile)')
    expect(missing.hint).toBe(
      'Add `version: 1.0.0`, or set `profile: \'agentskills\'` '
      + 'to validate against the agentskills.io baseline instead.',
    )
  })
})

describe('enterprise required fields', () => {
  it('reports every missing field in one run, each with its own hint', async () => {
    const root = makeTree(skill('bare', { frontmatter: 'name: bare\ndescription: Does bare things.' }))
    const r = await run(root, { cache: false })
    expect(r.diagnostics.filter(d => d.code === 'schema/required').map(d => [d.message, d.line, d.hint])).toEqual([
      [
        'missing required field `category` (the enterprise profile)',
        1,
        'Add `category:` to the frontmatter, or set `profile: \'agentskills\'` to validate against the agentskills.io '
        + 'baseline instead.',
      ],
      [
        'missing required field `domain` (the enterprise profile)',
        1,
        'Add `domain:` to the frontmatter, or set `profile: \'agentskills\'` to validate against the agentskills.io '
        + 'baseline instead.',
      ],
      [
        'missing required field `version` (the enterprise profile)',
        1,
        'Add `version: 1.0.0`, or set `profile: \'agentskills\'` to validate against the agentskills.io baseline '
        + 'instead.',
      ],
    ])
  })
})

describe('a file swapped for a symlink between the walk and the read', () => {
  it('is not followed: its target outside the skill is never read', () => {
    const root = makeTree({ 'skill/notes.md': '# Notes\n', 'outside/secret.txt': 'TOP SECRET\n' })
    const file = path.join(root, 'skill/notes.md')
    // What the walk listed: a regular file (no resolved symlink path).
    const entry: FileEntry = { path: 'notes.md', absPath: file, size: 8, mtimeMs: 0 }
    fs.rmSync(file)
    fs.symlinkSync(path.join(root, 'outside/secret.txt'), file)
    const diagnostics: Diagnostic[] = []
    expect(readEntry(entry, 'skills/skill', 'skill', diagnostics)).toBeNull()
    expect(diagnostics.map(d => [d.code, d.message])).toEqual([
      ['fs/unreadable', 'skills/skill/notes.md could not be read (ELOOP)'],
    ])
  })
})

describe('reading a file whole', () => {
  it('reads every byte of files around the read buffer\'s size, in one read each', () => {
    const sizes = [1, 1000, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 700_000, 3]
    const root = makeTree(
      Object.fromEntries(sizes.map(n => [`skill/f${n}.txt`, 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n)])),
    )
    for (const n of sizes) {
      const file = path.join(root, `skill/f${n}.txt`)
      const entry: FileEntry = { path: `f${n}.txt`, absPath: file, size: -1, mtimeMs: -1 }
      const diagnostics: Diagnostic[] = []
      const reads = vi.spyOn(fs, 'readSync')
      const read = readEntry(entry, 'skills/skill', 'skill', diagnostics)!
      // The read that would return 0 at the end is skipped.
      expect(reads).toHaveBeenCalledTimes(1)
      reads.mockRestore()
      expect(diagnostics).toEqual([])
      expect([read.size, entry.size, read.text!.length]).toEqual([n, n, n])
      expect(read.sha256).toBe(createHash('sha256').update(fs.readFileSync(file)).digest('hex'))
    }
  })
})
