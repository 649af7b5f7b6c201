import type { ViteDevServer } from 'vite'
import type { Logged } from './server'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineModule, lockApp, makeApp, OPTIONS, removeDir } from '../bundlers/helpers'
import { MAIN, startServer, until } from './server'

const DRIFT_NOTE = 'a warning in dev, an error in a build (review, then run `npx unplugin-skills lock`)'
const KNOWN = '1 warning in 1 skill that match .manifest.lock: `npx unplugin-skills check` lists them'

/**
 * What a developer reads in the dev server's log while editing skills one after another: each report is the
 * state of every skill (not only the one just edited), errors first, with a table and a summary that count
 * everything, printed by the server's logger as written.
 */
describe('vite dev server: the report after each edit', () => {
  let dir: string
  let server: ViteDevServer
  let get: (url: string) => Promise<{ status: number, text: string }>
  const logged: Logged[] = []
  const ours = (): Logged[] => logged.filter(l => l.message.startsWith('[unplugin-skills]'))

  /** Edits a file, then requests the entry module until a new report is printed; returns it. */
  async function edit(rel: string, change: (text: string) => string): Promise<Logged> {
    const before = ours().length
    const file = path.join(dir, rel)
    fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')))
    await until(async () => {
      await get(MAIN)
      return ours().length > before
    }, `a report after editing ${rel}`)
    const reports = ours().slice(before)
    expect(reports).toHaveLength(1)
    return reports[0]!
  }

  /** What `unplugin-skills check` reports at the same moment. */
  async function check(): Promise<string[]> {
    const { SkillsEngine } = await engineModule()
    const audit = await new SkillsEngine({ ...OPTIONS, root: dir, cache: false }).audit({ verifyLock: true })
    return audit.diagnostics.map(d => `${d.severity} ${d.code} ${d.file}`)
  }

  beforeAll(async () => {
    dir = makeApp('dev-report')
    // A warning the lock was written with: reviewed, so counted in one line while the skill matches the lock.
    fs.mkdirSync(path.join(dir, 'skills/pdf-tools/scripts'))
    fs.writeFileSync(path.join(dir, 'skills/pdf-tools/scripts/a.py'), '')
    await lockApp(dir)
    ;({ server, get } = await startServer(dir, logged))
  })
  afterAll(async () => {
    await server?.close()
    removeDir(dir)
  })

  it('opens with the warnings the lock vouches for, in one line', async () => {
    expect((await get(MAIN)).status).toBe(200)
    expect(ours()).toEqual([{ level: 'warn', message: `[unplugin-skills] ${KNOWN}` }])
  })

  it('after one edit: that skill\'s drift, with its files, and the state of every skill', async () => {
    const report = await edit('skills/release-notes/SKILL.md', t => t.replace('grouped by user impact', 'by audience'))
    expect(report.level).toBe('warn')
    expect(report.message.split('\n')).toEqual([
      '[unplugin-skills] skills audit after a change to release-notes:',
      '',
      'warning lock/drift skills/release-notes/SKILL.md skill `release-notes` changed',
      '    ~ SKILL.md',
      '',
      'skill          errors  warnings  capabilities',
      'release-notes       0         1  -',
      '',
      '⚠ 0 errors, 2 warnings, 0 notes in 2 skills',
      KNOWN,
      `1 skill differs from .manifest.lock: ${DRIFT_NOTE}`,
    ])
  })

  it('after a second edit elsewhere: both skills, every problem counted, as `check` finds them', async () => {
    const report = await edit('skills/pdf-tools/references/layout.md', t => `${t}Rotated pages come last.\n`)
    expect(report.level).toBe('warn')
    expect(report.message.split('\n')).toEqual([
      '[unplugin-skills] skills audit after a change to pdf-tools:',
      '',
      'warning lock/drift skills/pdf-tools/references/layout.md skill `pdf-tools` changed',
      '    ~ references/layout.md',
      'warning fs/empty-file skills/pdf-tools/scripts/a.py scripts/a.py is empty',
      'warning lock/drift skills/release-notes/SKILL.md skill `release-notes` changed',
      '    ~ SKILL.md',
      '',
      'skill          errors  warnings  capabilities',
      'pdf-tools           0         2  -',
      'release-notes       0         1  -',
      '',
      '⚠ 0 errors, 3 warnings, 0 notes in 2 skills',
      `2 skills differ from .manifest.lock: ${DRIFT_NOTE}`,
    ])
    // The same problems as the CLI's; only drift's severity differs (a build's error, a warning in dev).
    expect(await check()).toEqual([
      'error lock/drift skills/pdf-tools/references/layout.md',
      'warning fs/empty-file skills/pdf-tools/scripts/a.py',
      'error lock/drift skills/release-notes/SKILL.md',
    ])
  })

  it('an error comes first, at the logger\'s error level, without a second level word', async () => {
    const report = await edit('skills/release-notes/SKILL.md', t => t.replace('name: release-notes', 'name: notes'))
    expect(report.level).toBe('error')
    expect(report.message.split('\n').slice(0, 4)).toEqual([
      '[unplugin-skills] skills audit after a change to notes:',
      '',
      'error skill/name-mismatch skills/release-notes/SKILL.md:2:1',
      '  name `notes` differs from its folder `release-notes`',
    ])
    // The locked `release-notes` is gone and `notes` is new: two drifts, each with its skill's row.
    expect(report.message.split('\n').slice(-13)).toEqual([
      'warning lock/drift .manifest.lock skill `release-notes` is in the lock but no longer found',
      'warning lock/drift skills/pdf-tools/references/layout.md skill `pdf-tools` changed',
      '    ~ references/layout.md',
      'warning fs/empty-file skills/pdf-tools/scripts/a.py scripts/a.py is empty',
      'warning lock/drift skills/release-notes/SKILL.md skill `notes` is not in the lock',
      '',
      'skill          errors  warnings  capabilities',
      'notes               1         1  -',
      'pdf-tools           0         2  -',
      'release-notes       0         1  -',
      '',
      '✖ 1 error, 4 warnings, 0 notes in 2 skills',
      `3 skills differ from .manifest.lock: ${DRIFT_NOTE}`,
    ])
  })

  it('after the fix: the state again, the error gone', async () => {
    const report = await edit('skills/release-notes/SKILL.md', t => t.replace('name: notes', 'name: release-notes'))
    expect(report.message.split('\n').slice(-3)).toEqual([
      '',
      '⚠ 0 errors, 3 warnings, 0 notes in 2 skills',
      `2 skills differ from .manifest.lock: ${DRIFT_NOTE}`,
    ])
  })

  it('never prints a level word before a diagnostic\'s own, nor the host\'s `Plugin:` line', () => {
    expect(ours()).toHaveLength(5)
    for (const { message } of ours()) {
      expect(message).not.toMatch(/^warning: /)
      expect(message).not.toContain('Plugin: unplugin-skills')
    }
  })
})
