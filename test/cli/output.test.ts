import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exists, makeTree, read, skill } from '../helpers'
import { cli } from './run-cli'

const project = (files: Record<string, any>): string => makeTree({ 'skills.config.json': '{ "ci": false }', ...files })
const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1)!
/** A skill with a note (it reads the environment, as declared) and a warning (no security checkpoint for it). */
const noted = skill('alpha', {
  frontmatter: 'name: alpha\ndescription: Does alpha. Use when alpha.\nversion: 1.0.0\ndomain: t\ncategory: f\n'
    + 'capabilities: [env]',
  files: { 'scripts/env.py': 'import os\nprint(os.environ["HOME"])\n' },
})

// The relative paths are given from somewhere else than the project, as `--cwd` is used.
let elsewhere: string
const started = process.cwd()
beforeEach(() => {
  elsewhere = makeTree({})
  process.chdir(elsewhere)
})
afterEach(() => process.chdir(started))

describe('check -o FILE', () => {
  it('names a directory given as the report or manifest path, writes nothing and exits 2', async () => {
    const root = project({ ...noted, 'out/keep.txt': 'x' })
    const checked = await cli(['check', '--cwd', root, '--no-color', '-o', 'out'])
    expect(checked.code).toBe(2)
    expect(checked.stderr).toBe(`[unplugin-skills] cannot write ${path.relative(elsewhere, path.join(root, 'out'))} `
      + '(it is a directory): give the path of a file\nRun `unplugin-skills check --help` for its options.\n')
    const built = await cli(['build', '--cwd', root, '--out', 'out'])
    expect(built.code).toBe(2)
    expect(built.stderr).toContain('(it is a directory): give the path of a file')
    expect(fs.readdirSync(path.join(root, 'out'))).toEqual(['keep.txt'])
  })

  it('prints the errors and the summary line of the report it writes: the same counts', async () => {
    const broken = skill('broken', { frontmatter: 'name: broken\ndescription: Use when: it rains' })
    const root = project({ ...noted, ...broken })
    const full = await cli(['check', '--cwd', root, '--no-color'])
    const written = await cli(['check', '--cwd', root, '--no-color', '-o', 'report.txt'])
    expect(written.code).toBe(full.code)
    expect(written.code).toBe(1)
    const report = read(root, 'report.txt')
    expect(report).toBe(full.stdout)
    expect(lastLine(written.stdout)).toBe(lastLine(report))
    expect(lastLine(report)).toMatch(/^✖ \d+ errors?, \d+ warnings, 1 note in 2 skills$/)
    expect(written.stdout).toContain('error frontmatter/yaml skills/broken/SKILL.md:3:22')
    expect(written.stdout).not.toContain('warning ')
    expect(written.stderr).toBe(`[unplugin-skills] failed: report written to ${path.relative(elsewhere, root)}`
      + `${path.sep}report.txt\n`)
  })

  it('a clean tree: the console summary counts the notes and warnings the file holds', async () => {
    const root = project(noted)
    const written = await cli(['check', '--cwd', root, '--no-color', '-o', 'report.txt'])
    expect(written.code).toBe(0)
    expect(written.stdout).toBe('⚠ 0 errors, 2 warnings, 1 note in 1 skill\n')
    expect(lastLine(read(root, 'report.txt'))).toBe('⚠ 0 errors, 2 warnings, 1 note in 1 skill')
  })
})

describe('relative output paths', () => {
  it('check -o and build --out both resolve against --cwd (the project root), -r and --lock-file alike', async () => {
    const root = project({ ...skill('alpha') })
    const lock = await cli(['lock', '--cwd', root, '--lock-file', 'locks/skills.lock'])
    expect(lock.code).toBe(0)
    expect(exists(root, 'locks/skills.lock')).toBe(true)
    const args = ['--cwd', root, '--lock-file', 'locks/skills.lock', '-r', 'skills']
    expect((await cli(['check', ...args, '-o', 'out/report.txt'])).code).toBe(0)
    expect((await cli(['check', ...args, '-f', 'json', '-o', 'out/report.json'])).code).toBe(0)
    expect((await cli(['build', ...args, '--out', 'out/skills.json'])).code).toBe(0)
    expect(fs.readdirSync(path.join(root, 'out')).sort()).toEqual(['report.json', 'report.txt', 'skills.json'])
    expect(fs.readdirSync(elsewhere)).toEqual([])
    // Absolute paths are taken as they are.
    const absolute = path.join(elsewhere, 'abs.txt')
    expect((await cli(['check', ...args, '-o', absolute])).code).toBe(0)
    expect(fs.existsSync(absolute)).toBe(true)
  })

  it('--help says so', async () => {
    for (const command of ['check', 'lock', 'build']) {
      expect((await cli([command, '--help'])).stdout).toContain(
        'Relative paths (-r, -c, --lock-file, -o, --out) resolve against the project root (--cwd),\n'
        + 'not the current directory',
      )
    }
  })
})
