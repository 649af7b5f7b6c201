/**
 * `npx tsx bench/discovery-corpus.ts DIR... [--out bench/.corpus/discovery-real]`: the realistic discovery
 * set. Copies real skill packs from local folders (copies of public packs; their licences vary, so the copy
 * lives in the git-ignored bench/.corpus/ and is never committed) into OUT/skills/, and writes OUT/queries.json
 * from the committed, labelled queries (bench/discovery-queries.json) whose skill is in the copy. Then:
 * `npm run bench:discovery -- --corpus OUT`.
 *
 * Each DIR is a folder that holds skills (a folder with a SKILL.md) at any depth. A skill whose frontmatter
 * name an earlier skill already took is left out (two packs ship a `skill-creator`): names must be unique
 * for a label to mean one skill. DIRs are read in the order given, folders in name order.
 */
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const here = path.dirname(fileURLToPath(import.meta.url))
export const REAL_QUERIES = path.join(here, 'discovery-queries.json')
export const DEFAULT_OUT = path.join(here, '.corpus', 'discovery-real')

/** Folders that hold a SKILL.md under `dir`, in name order; a skill's own subfolders are not searched. */
export function skillFolders(dir: string, depth = 0): string[] {
  if (depth > 6)
    return []
  if (fs.existsSync(path.join(dir, 'SKILL.md')))
    return [dir]
  const subs = fs.readdirSync(dir, { withFileTypes: true })
    .filter(e => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
    .map(e => e.name)
    .sort()
  return subs.flatMap(name => skillFolders(path.join(dir, name), depth + 1))
}

/** The `name:` of a SKILL.md's frontmatter (plain or quoted scalar), else the folder name. */
export function skillName(folder: string): string {
  const text = fs.readFileSync(path.join(folder, 'SKILL.md'), 'utf8')
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? ''
  const name = /^name:\s*(.+?)\s*$/m.exec(fm)?.[1]?.replace(/^(["'])(.*)\1$/, '$2')
  return name || path.basename(folder)
}

export interface CorpusReport {
  skills: number
  duplicates: string[]
  queries: number
  /** Labels whose skill is not in the copy (their queries are left out of OUT/queries.json). */
  missing: string[]
}

export function buildRealCorpus(sources: string[], out = DEFAULT_OUT): CorpusReport {
  fs.rmSync(out, { recursive: true, force: true })
  fs.mkdirSync(path.join(out, 'skills'), { recursive: true })
  const taken = new Set<string>()
  const duplicates: string[] = []
  for (const source of sources) {
    const root = path.resolve(source)
    for (const folder of skillFolders(root)) {
      const name = skillName(folder)
      if (taken.has(name)) {
        duplicates.push(path.relative(root, folder))
        continue
      }
      taken.add(name)
      // The folder keeps the skill's name: the engine checks that a skill's folder matches its name.
      fs.cpSync(folder, path.join(out, 'skills', path.basename(folder)), {
        recursive: true,
        filter: src => !path.basename(src).startsWith('.git'),
      })
    }
  }
  const labelled = JSON.parse(fs.readFileSync(REAL_QUERIES, 'utf8')) as Array<{ expected: string }>
  const kept = labelled.filter(q => taken.has(q.expected))
  const missing = [...new Set(labelled.filter(q => !taken.has(q.expected)).map(q => q.expected))].sort()
  fs.writeFileSync(path.join(out, 'queries.json'), `${JSON.stringify(kept, null, 2)}\n`)
  return { skills: taken.size, duplicates, queries: kept.length, missing }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' } } })
  if (!positionals.length) {
    console.error('usage: npx tsx bench/discovery-corpus.ts DIR... [--out DIR]')
    process.exit(2)
  }
  const out = path.resolve(values.out ?? DEFAULT_OUT)
  const r = buildRealCorpus(positionals, out)
  console.log(`${out}: ${r.skills} skills, ${r.queries} labelled queries`)
  if (r.duplicates.length)
    console.log(`left out (name already taken): ${r.duplicates.join(', ')}`)
  if (r.missing.length)
    console.log(`labels not in the copy (their queries left out): ${r.missing.join(', ')}`)
}
