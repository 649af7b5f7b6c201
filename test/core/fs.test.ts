import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic, writeIfChanged } from '../../src/core/fs'

const FS_MODULE = fileURLToPath(new URL('../../src/core/fs.ts', import.meta.url))
let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-fs-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('creates a file and its folders, leaving no temp file behind', () => {
    const file = path.join(dir, 'a/b/report.json')
    writeFileAtomic(file, '{"ok":true}\n')
    expect(fs.readFileSync(file, 'utf8')).toBe('{"ok":true}\n')
    expect(fs.readdirSync(path.dirname(file))).toEqual(['report.json'])
  })

  it('keeps the permissions of a file it replaces', () => {
    const file = path.join(dir, 'secret-report.txt')
    fs.writeFileSync(file, 'old')
    fs.chmodSync(file, 0o600)
    writeFileAtomic(file, 'new')
    expect(fs.readFileSync(file, 'utf8')).toBe('new')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  })

  it('writes the file a symlink points to, and the link stays a link', () => {
    const real = path.join(dir, 'real.txt')
    const link = path.join(dir, 'link.txt')
    fs.writeFileSync(real, 'old')
    fs.symlinkSync(real, link)
    writeFileAtomic(link, 'new')
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true)
    expect(fs.readFileSync(real, 'utf8')).toBe('new')
    expect(fs.readdirSync(dir).sort()).toEqual(['link.txt', 'real.txt'])
  })

  it('writes into a FIFO in place instead of replacing it with a file (as `-o /dev/null` must)', () => {
    const fifo = path.join(dir, 'pipe')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    // In a child with a time limit: reading a FIFO before writing it would block this process for good. A reader
    // on the other end, as a shell's `cat pipe` would be.
    const script = [
      `import { spawn } from 'node:child_process'`,
      `import { writeIfChanged } from ${JSON.stringify(FS_MODULE)}`,
      `const reader = spawn('cat', [${JSON.stringify(fifo)}], { stdio: ['ignore', 'inherit', 'inherit'] })`,
      `const changed = writeIfChanged(${JSON.stringify(fifo)}, 'through the pipe\\n')`,
      `reader.on('close', () => console.log(String(changed)))`,
    ].join('\n')
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.error).toBeUndefined()
    expect(run.stdout).toBe('through the pipe\ntrue\n')
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true)
  })

  it('refuses a directory and leaves it as it was', () => {
    const target = path.join(dir, 'out')
    fs.mkdirSync(target)
    expect(() => writeFileAtomic(target, 'x')).toThrow(/EISDIR/)
    expect(fs.statSync(target).isDirectory()).toBe(true)
    expect(fs.readdirSync(dir)).toEqual(['out'])
  })
})

describe('writeIfChanged', () => {
  it('leaves a file with the same content (and its mtime) alone', () => {
    const file = path.join(dir, 'same.txt')
    fs.writeFileSync(file, 'x')
    const past = new Date('2020-01-01T00:00:00Z')
    fs.utimesSync(file, past, past)
    expect(writeIfChanged(file, 'x')).toBe(false)
    expect(fs.statSync(file).mtime.getTime()).toBe(past.getTime())
    expect(writeIfChanged(file, 'y')).toBe(true)
    expect(fs.readFileSync(file, 'utf8')).toBe('y')
  })
})
