import { Buffer } from 'node:buffer'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'

export type TreeEntry = string | Buffer | { symlink: string } | { fifo: true }
const made: string[] = []

afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A real directory tree in a fresh temp dir, removed after the test. Keys are posix paths. */
export function makeTree(entries: Record<string, TreeEntry>, prefix = 'skills-test-'): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(root)
  writeTree(root, entries)
  return root
}

export function writeTree(root: string, entries: Record<string, TreeEntry>): void {
  for (const [rel, entry] of Object.entries(entries)) {
    const file = path.join(root, ...rel.split('/'))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    if (typeof entry === 'string' || Buffer.isBuffer(entry))
      fs.writeFileSync(file, entry)
    else if ('symlink' in entry)
      fs.symlinkSync(entry.symlink, file)
    else execFifo(file)
  }
}

function execFifo(file: string): void {
  // Node has no mkfifo API; coreutils does.
  execFileSync('mkfifo', [file])
}

/** A valid enterprise-profile skill's files under `skills/<name>/`. */
export function skill(
  name: string,
  overrides: { frontmatter?: string, body?: string, files?: Record<string, TreeEntry> } = {},
): Record<string, TreeEntry> {
  const frontmatter = overrides.frontmatter ?? [
    `name: ${name}`,
    `description: Does ${name} things. Use when ${name} is needed.`,
    'version: 1.0.0',
    'domain: testing',
    'category: fixtures',
  ].join('\n')
  const body = overrides.body ?? `# ${name}\n\n1. Read [the guide](references/guide.md).\n2. Follow the example.\n`
  const files: Record<string, TreeEntry> = {
    'SKILL.md': `---\n${frontmatter}\n---\n${body}`,
    'references/guide.md': `# Guide\n\nHow to do ${name} well.\n`,
    'examples/basic.md': `# Example\n\nAn example of ${name}.\n`,
    ...overrides.files,
  }
  return Object.fromEntries(Object.entries(files).map(([rel, v]) => [`skills/${name}/${rel}`, v]))
}

export const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8')
export const exists = (root: string, rel: string): boolean => fs.existsSync(path.join(root, rel))
