import type { RunResult } from '../bundlers/helpers'
import type { Watching } from './watchers'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineAudit, makeApp, OPTIONS, removeDir, runOutput } from '../bundlers/helpers'
import { watchers, writeSkill } from './watchers'

/**
 * Waits until a build that finished after this call satisfies `check` (run in Node). Bounded: a watcher
 * that never rebuilds fails the test instead of hanging it.
 */
async function settle(
  watching: Watching,
  check: (result: RunResult | null, errors: string[]) => boolean,
  what: string,
  timeout = 30_000,
): Promise<RunResult | null> {
  const deadline = Date.now() + timeout
  let seen = -1
  while (Date.now() < deadline) {
    if (watching.builds !== seen && watching.builds > 0) {
      seen = watching.builds
      const failed = watching.errors.length > 0 && fs.existsSync(watching.entry) === false
      const result = failed ? null : await runOutput(watching.entry).catch(() => null)
      if (check(result, watching.errors))
        return result
    }
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  const errors = watching.errors.join('\n---\n').slice(0, 2000)
  throw new Error(`timed out waiting for ${what} (${watching.builds} builds, errors: ${errors})`)
}

const names = (result: RunResult | null): string[] => result?.skills.map(s => s.name) ?? []

/** The output of the first build that finishes after `count` builds: a stale rebuild can't hide behind a later one. */
async function buildAfter(watching: Watching, count: number, what: string, timeout = 30_000): Promise<RunResult> {
  const deadline = Date.now() + timeout
  while (watching.builds <= count) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what} (${watching.builds} builds)`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  return runOutput(watching.entry)
}

export function watchSuite(bundler: keyof typeof watchers): void {
  describe(`${bundler} watch mode`, () => {
    let dir: string
    let watching: Watching

    beforeAll(async () => {
      dir = makeApp(`watch-${bundler}`)
      watching = await watchers[bundler](dir, { ...OPTIONS, lock: false })
      await settle(watching, r => names(r).length === 2, 'the first build')
    })
    afterAll(async () => {
      await watching?.close()
      removeDir(dir)
    })

    it('rebuilds when a SKILL.md changes', async () => {
      const file = path.join(dir, 'skills/release-notes/SKILL.md')
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('grouped by user impact', 'grouped by audience'))
      const result = await settle(
        watching,
        r => !!r?.skills.some(s => s.description.includes('grouped by audience')),
        'the edited description',
      )
      expect(names(result)).toEqual(['pdf-tools', 'release-notes'])
    })

    it('rebuilds when a reference file changes', async () => {
      fs.appendFileSync(
        path.join(dir, 'skills/pdf-tools/references/layout.md'),
        'Rotated pages are read after rotation.\n',
      )
      const result = await settle(
        watching,
        r => String((r?.loaded['pdf-tools'] as any)?.tree.references[0].text).includes('Rotated pages'),
        'the edited reference',
      )
      expect(names(result)).toEqual(['pdf-tools', 'release-notes'])
      // The index parts (postings shards, chunk records) are content-addressed modules: the rebuilt
      // bundle must serve the new ones, equal to what a fresh engine builds from the edited tree.
      expect(result!.full.index).toEqual((await engineAudit(dir, { ...OPTIONS, lock: false })).manifest.index)
    })

    it('picks up a new skill folder', async () => {
      writeSkill(
        dir,
        'meeting-notes',
        'Summarise a meeting into decisions and owners. Use after a call.',
        '# Meeting notes\n\nList decisions first.\n',
      )
      const result = await settle(watching, r => names(r).includes('meeting-notes'), 'the new skill folder')
      expect(names(result)).toEqual(['meeting-notes', 'pdf-tools', 'release-notes'])
      expect((result!.loaded['meeting-notes'] as { body: string }).body).toContain('List decisions first.')
    })

    it('reports an invalid skill without stopping, and recovers when it is fixed', async () => {
      const errorsBefore = watching.errors.length
      writeSkill(dir, 'broken', 'Fails on purpose. Use never.')
      fs.writeFileSync(
        path.join(dir, 'skills/broken/SKILL.md'),
        fs.readFileSync(path.join(dir, 'skills/broken/SKILL.md'), 'utf8').replace('name: broken', 'name: brokn'),
      )
      await settle(
        watching,
        (_r, errors) => errors.slice(errorsBefore).some(e => e.includes('skill/name-mismatch')),
        'the audit error',
      )
      expect(watching.errors.slice(errorsBefore).join('\n')).toContain('skills/broken/SKILL.md:2:')
      fs.writeFileSync(
        path.join(dir, 'skills/broken/SKILL.md'),
        fs.readFileSync(path.join(dir, 'skills/broken/SKILL.md'), 'utf8').replace('name: brokn', 'name: broken'),
      )
      const result = await settle(watching, r => names(r).includes('broken'), 'the fixed skill')
      expect(names(result)).toEqual(['broken', 'meeting-notes', 'pdf-tools', 'release-notes'])
    })

    it('drops a skill folder removed with `rm -rf` on the first rebuild', async () => {
      const before = watching.builds
      fs.rmSync(path.join(dir, 'skills/broken'), { recursive: true, force: true })
      const result = await buildAfter(watching, before, 'the rebuild after the removal')
      expect(names(result)).toEqual(['meeting-notes', 'pdf-tools', 'release-notes'])
    })
  })
}
