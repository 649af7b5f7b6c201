import type { Diagnostic, ScanResult, SkillFile, SkillSource } from '../src/core/types'
import type { EnterpriseResult } from '../src/enterprise'
/**
 * `npx tsx bench/enterprise.ts [--rounds=7] [--no-scan]`: the cost of `checkEnterprise` on the
 * 1,000-skill synthetic corpus, against the read + SHA-256 floor measured in the same process and
 * the same rounds (the machine is shared: the ratio is the figure that means something).
 * Skill sources and scanner results are built before any timing. Prints, never asserts.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { SKILL_FILE } from '../src/audit/layout'
import { listSkill, readEntry } from '../src/audit/read'
import { compareBytewise } from '../src/core/diagnostics'
import { parseFrontmatter } from '../src/core/frontmatter'
import { resolveOptions } from '../src/core/options'
import { checkEnterprise } from '../src/enterprise'
import { scanSkill } from '../src/scanner'
import { generateCorpus } from './corpus'

/** The code before the prefilter/anchored-scan rewrite (commit a142af0), this bench, same corpus and machine. */
const BEFORE = { msPerSkill: 4.96, ratio: 9.53, note: 'floor 704 ms in that run; a142af0' }

const here = path.dirname(fileURLToPath(import.meta.url))
const arg = (name: string): string | undefined => process.argv.find(a => a.startsWith(`--${name}=`))?.split('=')[1]
const rounds = Number(arg('rounds') ?? 7)
const scan = !process.argv.includes('--no-scan')

const corpus = generateCorpus(path.join(here, '.corpus', 's1000'), { skills: 1000 })
const options = resolveOptions({ root: corpus.dir, ci: false }, {})
const skillsDir = path.join(corpus.dir, 'skills')

function load(name: string): SkillSource {
  const location = {
    dir: path.join(skillsDir, name),
    relDir: `skills/${name}`,
    source: `skills/${name}`,
    root: options.roots[0]!,
  }
  const sink: Diagnostic[] = []
  const files: SkillFile[] = []
  for (const entry of listSkill(location.dir, location.relDir, null).entries) {
    const file = readEntry(entry, location.relDir, name, sink)
    if (file)
      files.push(file)
  }
  const parsed = parseFrontmatter(files.find(f => f.path === SKILL_FILE)!.text!)
  const given = parsed.data?.name
  return {
    name: typeof given === 'string' ? given : name,
    dirName: name,
    dir: location.dir,
    relDir: location.relDir,
    source: location.source,
    files,
    skillMd: files.find(f => f.path === SKILL_FILE)!,
    frontmatter: parsed?.data ?? {},
    frontmatterOk: parsed?.data != null,
    body: parsed?.body ?? '',
    bodyLine: parsed?.bodyLine ?? 1,
    locate: key => parsed?.locate(key) ?? null,
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
function time(fn: () => void): number {
  const start = performance.now()
  fn()
  return performance.now() - start
}

const skills = fs.readdirSync(skillsDir).sort(compareBytewise).map(load)
const empty: ScanResult = { diagnostics: [], capabilities: { declared: [], detected: [] }, suppressions: [] }
const scans = skills.map(s => (scan ? scanSkill(s, { ...options.scanner, deny: options.deny }) : empty))
const skillNames = new Set(skills.map(s => s.name))
const textChars = skills.reduce((n, s) => n + s.files.reduce((m, f) => m + (f.text?.length ?? 0), 0), 0)

function floor(): void {
  for (const file of corpus.paths) createHash('sha256').update(fs.readFileSync(file)).digest('hex')
}
let results: EnterpriseResult[] = []
function enterprise(): void {
  results = skills.map((s, i) => checkEnterprise(s, { options, scan: scans[i], skillNames }))
}

floor()
enterprise() // warm-up: JIT, lazy regex compilation, page cache
const floors: number[] = []
const checks: number[] = []
const ratios: number[] = []
for (let i = 0; i < rounds; i++) {
  floors.push(time(floor))
  checks.push(time(enterprise))
  ratios.push(checks[i] / floors[i])
}

// What the check found, so runs before and after a change can be compared for equal output.
const counts: Record<string, number> = {}
for (const r of results) {
  for (const d of r.diagnostics) counts[`${d.code} ${d.severity}`] = (counts[`${d.code} ${d.severity}`] ?? 0) + 1
}
const digest = createHash('sha256').update(JSON.stringify(results)).digest('hex').slice(0, 16)

const f = median(floors)
const c = median(checks)
const line = (name: string, value: string): void => console.log(`  ${name.padEnd(48)} ${value}`)
console.log(
  `\n# checkEnterprise, ${skills.length} skills, ${corpus.files} files, `
  + `${(textChars / 1e6).toFixed(1)} M chars of text, ${rounds} rounds, `
  + `scanner ${scan ? 'results' : 'off (no capabilities)'}`,
)
line(
  'floor: read + SHA-256 every corpus file',
  `${f.toFixed(0)} ms (rounds: ${floors.map(n => n.toFixed(0)).join(', ')})`,
)
line('checkEnterprise over all skills', `${c.toFixed(0)} ms (rounds: ${checks.map(n => n.toFixed(0)).join(', ')})`)
line('per skill', `${(c / skills.length).toFixed(3)} ms (target <= 0.5 ms)`)
line('ratio to the floor (median of per-round ratios)', `${median(ratios).toFixed(2)}x`)
line(
  'before (recorded)',
  `${BEFORE.msPerSkill.toFixed(2)} ms per skill, ${BEFORE.ratio.toFixed(1)}x floor (${BEFORE.note})`,
)
line('findings', JSON.stringify(counts))
line('output digest (equal before/after = same findings)', digest)
