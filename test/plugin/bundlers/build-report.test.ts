import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { builders } from './builds'
import { lockApp, makeApp, OPTIONS, removeDir } from './helpers'

/** The fixture app with two warnings in one skill: two empty scripts (fs/empty-file). */
function appWithWarnings(label: string): string {
  const dir = makeApp(label)
  fs.mkdirSync(path.join(dir, 'skills/pdf-tools/scripts'))
  fs.writeFileSync(path.join(dir, 'skills/pdf-tools/scripts/a.py'), '')
  fs.writeFileSync(path.join(dir, 'skills/pdf-tools/scripts/b.py'), '')
  return dir
}

/**
 * A warning's text without the host's colours (Vite colours its logger's lines where `CI` is set, as picocolors
 * does) and its own prefix (Rollup's and Vite's `[plugin unplugin-skills] `).
 */
function text(warning: string): string {
  // eslint-disable-next-line no-control-regex -- the escape sequences are what it removes
  return warning.replace(/\x1B\[[0-9;]*m/g, '').replace(/^\[plugin unplugin-skills\] /, '')
}

describe.each(['vite', 'rollup'] as const)('%s: what a green build prints', (bundler) => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach(removeDir))

  it('lists the warnings of skills the lock does not cover, one per skill and rule', async () => {
    const dir = appWithWarnings(`${bundler}-report`)
    dirs.push(dir)
    const { warnings } = await builders[bundler](dir, { ...OPTIONS, lock: false })
    expect(warnings).toHaveLength(1)
    const lines = text(warnings[0]!).split('\n')
    expect(lines.slice(0, 2)).toEqual([
      'warning fs/empty-file skills/pdf-tools/scripts/a.py scripts/a.py is empty',
      '  ... 1 more fs/empty-file: skills/pdf-tools/scripts/b.py',
    ])
    expect(lines.at(-1)).toBe('⚠ 0 errors, 2 warnings, 0 notes in 2 skills')
  })

  it('counts them in one line when the skills match the lock, as on every build after the first', async () => {
    const dir = appWithWarnings(`${bundler}-report-locked`)
    dirs.push(dir)
    await lockApp(dir)
    const { warnings } = await builders[bundler](dir, OPTIONS)
    expect(warnings.map(text)).toEqual([
      '2 warnings in 1 skill that match .manifest.lock: `npx unplugin-skills check` lists them',
    ])
  })
})
