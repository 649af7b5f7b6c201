import type { ManifestSkill } from '../../src/core/types'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { computeSkillDigest } from '../../src/runtime/digest'
import { buildDiscoveryIndex } from '../../src/search'
import { sampleSkills, tempDir } from '../search/helpers'

const runtimeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'runtime')
const MINE = [
  'codec',
  'compose',
  'digest',
  'discovery-index',
  'find',
  'hash-embed',
  'register',
  'stem',
  'text',
  'verify',
]

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap(e =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : /\.[cm]?ts$/.test(e.name) ? [path.join(dir, e.name)] : [],
    )
}

describe('runtime entry', () => {
  it('imports no node: module and no package other than @noble/hashes', () => {
    for (const file of sources(runtimeDir)) {
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(
        /^\s*(import|export)\s(?:type\s)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]/gm,
      )) {
        const spec = m[2] ?? m[3]
        const typeOnly = /^\s*(import|export)\s+type\s/.test(m[0])
        expect(spec.startsWith('node:'), `${file}: ${spec}`).toBe(false)
        if (!spec.startsWith('.') && !typeOnly)
          expect(spec, `${file}`).toMatch(/^@noble\/hashes\//)
        // Outside src/runtime: type-only imports (the data contracts) and the digest recipe, which imports nothing.
        if (spec.startsWith('..') && !typeOnly && spec !== '../core/digest')
          throw new Error(`${file} imports ${spec} at runtime`)
      }
    }
  })

  describe('bundled for the browser and run without Node globals', () => {
    const t = tempDir('skills-runtime-')
    let skills: ManifestSkill[]
    let code: string
    beforeAll(async () => {
      skills = await sampleSkills(t.dir)
      const entry = MINE.map(m => `export * from ${JSON.stringify(path.join(runtimeDir, m))}`).join('\n')
      const result = await build({
        stdin: { contents: entry, resolveDir: runtimeDir, loader: 'ts' },
        bundle: true,
        write: false,
        format: 'iife',
        globalName: 'runtime',
        platform: 'browser',
        target: 'es2022',
        logLevel: 'silent',
      })
      code = result.outputFiles[0].text
    })
    afterAll(() => t.cleanup())

    it('searches, digests and verifies inside a bare V8 context', async () => {
      const manifest = { skills, index: await buildDiscoveryIndex(skills) }
      // Only web-standard globals that browsers and edge workers have too.
      const sandbox: Record<string, unknown> = { input: JSON.parse(JSON.stringify(manifest)), TextEncoder, TextDecoder }
      vm.runInNewContext(
        `${code}
        result = {
          names: runtime.findSkills(input, 'roll out a container image to kubernetes', { k: 2 }).map(m => m.name),
          digest: runtime.computeSkillDigest(input.skills[0].files),
          verify: runtime.verifySkill(input.skills[0], { 'SKILL.md': 'tampered' }, { partial: true }).modified,
          hasProcess: typeof process, hasBuffer: typeof Buffer, hasRequire: typeof require,
        }`,
        sandbox,
      )
      expect(sandbox.result).toEqual({
        names: ['k8s-rollout'],
        digest: computeSkillDigest(skills[0].files),
        verify: ['SKILL.md'],
        hasProcess: 'undefined',
        hasBuffer: 'undefined',
        hasRequire: 'undefined',
      })
      expect(code).not.toMatch(/require\(|from\s*"node:/)
    })
  })
})
