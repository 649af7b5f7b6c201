import type { ManifestSkill, SkillsManifest } from '../../src/core/types'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { summarizeManifest } from '../../src/audit/manifest'
import { mainModule } from '../../src/plugin/codegen'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-entry-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/**
 * The generated entry module, written to a file and imported as an app would (its lazy imports are never called
 * here).
 */
async function importEntry(manifest: SkillsManifest, name: string): Promise<{ default: unknown, skills: unknown[] }> {
  const file = path.join(dir, `${name}.mjs`)
  fs.writeFileSync(file, mainModule(manifest))
  return import(pathToFileURL(file).href)
}

function skill(name: string, extra: Partial<ManifestSkill> = {}): ManifestSkill {
  return {
    name,
    description: `Does ${name}.`,
    version: '1.0.0',
    source: `skills/${name}`,
    path: `skills/${name}`,
    digest: 'a'.repeat(64),
    integrity: { algorithm: 'sha-256', value: 'a'.repeat(64) },
    files: [{ path: 'SKILL.md', size: 10, sha256: 'b'.repeat(64) }],
    scenarios: [],
    findings: [],
    capabilities: { declared: [], detected: [] },
    workload: 'read',
    requiresApproval: false,
    ...extra,
  } as unknown as ManifestSkill
}

function manifestOf(skills: ManifestSkill[]): SkillsManifest {
  return {
    manifestVersion: 1,
    generator: 'test',
    lockDigest: 'c'.repeat(64),
    profile: 'enterprise',
    skills,
  } as unknown as SkillsManifest
}

describe('entry module', () => {
  it('rebuilds every summary exactly: plain ones from columns, the others shipped whole', async () => {
    const manifest = manifestOf([
      skill('plain'),
      skill('no-version', { version: null } as Partial<ManifestSkill>),
      skill('writer', {
        workload: 'write',
        requiresApproval: true,
        capabilities: { declared: ['fs:write'], detected: ['fs:write'] },
      } as Partial<ManifestSkill>),
      skill('flagged', {
        findings: [{ code: 'scan/secrets', severity: 'warning', message: 'm', file: 'SKILL.md', line: 1, column: 1 }],
      } as Partial<ManifestSkill>),
      skill('with-uri', {
        uri: 'castor://skills/a/b/with-uri/1.0.0',
        urn: 'urn:castor:skill:a:b:with-uri:1.0.0',
      } as Partial<ManifestSkill>),
      skill('quote\'s "and" \\ \u2028 line', {
        description: 'Line one\nline two \u2029 \'quoted\'',
      } as Partial<ManifestSkill>),
      skill('elsewhere', { source: 'vendor/pack/elsewhere-v2' } as Partial<ManifestSkill>),
      skill('nested', { source: 'skills/team/nested' } as Partial<ManifestSkill>),
    ])
    const entry = await importEntry(manifest, 'mixed')
    const expected = summarizeManifest(manifest)
    expect(entry.default).toEqual(expected)
    // Same keys in the same order, not only equal values.
    expect(JSON.stringify(entry.default)).toBe(JSON.stringify(expected))
    expect(entry.skills).toBe((entry.default as { skills: unknown[] }).skills)
    // Plain summaries are separate objects (mutating one does not change another).
    const [a, b] = entry.skills as Array<{ capabilities: { declared: string[] } }>
    expect(a.capabilities).not.toBe(b.capabilities)
  })

  it('ships plain summaries as columns: no key repeated per skill', () => {
    const manifest = manifestOf(Array.from({ length: 50 }, (_, i) => skill(`s${i}`)))
    const code = mainModule(manifest)
    expect(code.match(/"description"/g)).toBe(null)
    // Sources are rebuilt from the common root and the name; with every summary plain and under that
    // root, the loop has neither a source column nor a special-case lookup to read.
    expect(code).not.toContain('skills/s1"')
    expect(code).toContain('source: R + N[i]')
    expect(code).not.toContain('special')
  })

  it('rebuilds plain summaries outside the common root without a special-case lookup', async () => {
    const manifest = manifestOf([skill('a'), skill('b', { source: 'vendor/b' } as Partial<ManifestSkill>), skill('c')])
    const code = mainModule(manifest)
    expect(code).not.toContain('special')
    expect(code).toContain('source: S[i] === 0 ? R + N[i] : S[i]')
    const entry = await importEntry(manifest, 'plain-elsewhere')
    expect(JSON.stringify(entry.default)).toBe(JSON.stringify(summarizeManifest(manifest)))
  })
})
