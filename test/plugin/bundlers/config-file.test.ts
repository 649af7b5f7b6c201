import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builders } from './builds'
import { engineAudit, makeApp, removeDir, runOutput } from './helpers'

const dirs: string[] = []
afterAll(() => dirs.forEach(removeDir))
function app(label: string, files: Record<string, string> = {}): string {
  const dir = makeApp(label)
  dirs.push(dir)
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text)
  return dir
}

// The plugin reads the project's skills.config.* (the file the CLI reads), inline options over it.
describe('one config for the plugin and the CLI', () => {
  it('reads skills.config.ts with defineConfig, and inline options win', async () => {
    const dir = app('config-ts', {
      'skills.config.ts': [
        'import { defineConfig } from \'unplugin-skills\'',
        'const profile: \'agentskills\' = \'agentskills\'',
        'export default defineConfig({ profile, lock: false, manifest: \'from-config.json\' })',
        '',
      ].join('\n'),
    })
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true })
    fs.symlinkSync(path.resolve('.'), path.join(dir, 'node_modules/unplugin-skills'))
    const built = await builders.rollup(dir, { manifest: 'inline.json' })
    expect(fs.existsSync(path.join(built.outDir, 'inline.json'))).toBe(true)
    expect(fs.existsSync(path.join(built.outDir, 'from-config.json'))).toBe(false)
    expect((await runOutput(built.entry)).skills.map(s => s.name)).toEqual(['pdf-tools', 'release-notes'])
    expect(fs.readFileSync(path.join(built.outDir, 'inline.json'), 'utf8'))
      .toBe((await engineAudit(dir, { profile: 'agentskills', lock: false })).json)
  })

  for (const bundler of ['vite', 'rollup', 'webpack'] as const) {
    it(`${bundler}: an invalid option fails the build with its report and no stack trace`, async () => {
      const dir = app(`bad-option-${bundler}`, {
        'skills.config.json': JSON.stringify({ profile: 'agentskils', scanner: { rules: { fs_write: 'warn' } } }),
      })
      const error = await builders[bundler](dir, { lock: false }).then(() => null, (e: Error) => e)
      expect(error).not.toBeNull()
      const text = String((error as Error).message ?? error)
      expect(text).toContain('[unplugin-skills] invalid options (skills.config.json and plugin options):')
      expect(text).toContain('profile: "agentskils" is not allowed; expected "enterprise" or "agentskills" '
        + '(did you mean "agentskills"?)')
      expect(text).toContain('scanner.rules.fs_write: "warn" is not allowed')
      expect(text).not.toMatch(/\n\s+at /)
    })
  }
})
