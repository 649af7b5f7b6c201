import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { builders } from './builds'
import { makeApp, OPTIONS, removeDir } from './helpers'

const dirs: string[] = []
afterEach(() => vi.restoreAllMocks())
afterAll(() => dirs.forEach(removeDir))

const LOCK = '.manifest.lock'

// The lock rule for builds: a missing lock is created only by a build whose audit passes, with one notice
// naming the file and the skill count; a failing build writes no lock.
describe('a build and a missing .manifest.lock', () => {
  for (const bundler of ['vite', 'rollup'] as const) {
    it(`${bundler}: a failing build writes no lock; the next, passing build creates it with one notice`, async () => {
      const dir = makeApp(`lock-rule-${bundler}`)
      dirs.push(dir)
      const broken = path.join(dir, 'skills/broken')
      fs.mkdirSync(broken)
      fs.writeFileSync(path.join(broken, 'SKILL.md'), '---\nname: broken\n---\nNo description.\n')
      const info = vi.spyOn(console, 'info').mockImplementation(() => {})
      const options = { ...OPTIONS, ci: false }

      await expect(builders[bundler](dir, options)).rejects.toThrow(/schema\/required/)
      expect(fs.existsSync(path.join(dir, LOCK))).toBe(false)
      expect(info).not.toHaveBeenCalled()

      fs.rmSync(broken, { recursive: true })
      await builders[bundler](dir, options)
      expect(info.mock.calls).toEqual([['[unplugin-skills] created .manifest.lock with 2 skill(s); commit it']])
      const lock = JSON.parse(fs.readFileSync(path.join(dir, LOCK), 'utf8'))
      expect(lock.skills.map((s: { name: string }) => s.name)).toEqual(['pdf-tools', 'release-notes'])

      // The lock now exists: a rebuild verifies it and says nothing about it.
      info.mockClear()
      await builders[bundler](dir, options)
      expect(info).not.toHaveBeenCalled()
    })
  }
})
