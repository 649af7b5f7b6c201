/**
 * `npm run bench:redteam -- DIR [--list]`: the scanner scored on a labelled set of attack and hard benign skills
 * written by a red team (a local folder, never committed: a set stays useful only while nobody tunes on it).
 *
 * DIR holds `skills/<name>/` and `labels.json`, keyed by skill name:
 * `{ "class": "<threat rule id>", "attack_lines": [{ "file": "SKILL.md", "line": 42 }] }` for an attack,
 * `{ "class": "benign" }` for a hard benign skill. An attack counts as detected when a threat finding lies within
 * two lines of one of its attack lines (for `typosquatting` and `opaque_artifact`, anywhere in the skill: a name
 * or a binary has no line to point at), and as an error when such a finding is an error. A benign skill counts
 * when any scanner finding on it is an error. Profile agentskills, no lock, no cache. Asserts nothing.
 */
import type { Diagnostic } from '../src/core/types'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { parseArgs } from 'node:util'
import { audit } from '../src/audit/engine'

interface Label {
  class: string
  attack_lines?: Array<{ file: string, line: number }>
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { list: { type: 'boolean', default: false } },
})
if (positionals.length !== 1) {
  console.error('usage: npm run bench:redteam -- DIR [--list]')
  process.exit(2)
}
const dir = path.resolve(positionals[0]!)
const labels = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8')) as Record<string, Label>
const WHOLE_SKILL = new Set(['typosquatting', 'opaque_artifact'])

const t = performance.now()
const options = { root: dir, roots: ['skills'], profile: 'agentskills' as const, lock: false as const }
const result = await audit({ ...options, manifest: false, cache: false })
const ms = performance.now() - t

const bySkill = new Map<string, Diagnostic[]>()
for (const d of result.diagnostics) {
  if (d.skill)
    bySkill.set(d.skill, [...(bySkill.get(d.skill) ?? []), d])
}
/** A finding's file inside its skill (`skills/<name>/SKILL.md` -> `SKILL.md`). */
const inSkill = (d: Diagnostic): string => (d.file ?? '').split('/').slice(2).join('/')

const rows = new Map<string, { n: number, detected: number, errors: number }>()
const missed: string[] = []
const falseErrors: string[] = []
let benign = 0
for (const [name, label] of Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const found = bySkill.get(name) ?? []
  if (label.class === 'benign') {
    benign++
    const errors = found.filter(d => d.code.startsWith('scan/') && d.severity === 'error')
    if (errors.length)
      falseErrors.push(`${name}: ${errors.map(d => `${d.code} ${inSkill(d)}:${d.line}`).join(', ')}`)
    continue
  }
  const row = rows.get(label.class) ?? { n: 0, detected: 0, errors: 0 }
  rows.set(label.class, row)
  row.n++
  const near = (d: Diagnostic): boolean => (WHOLE_SKILL.has(label.class) && d.rule === label.class)
    || (label.attack_lines ?? []).some(l => l.file === inSkill(d) && Math.abs((d.line ?? 0) - l.line) <= 2)
  const threats = found.filter(d => d.kind === 'threat' && near(d))
  if (threats.length)
    row.detected++
  if (threats.some(d => d.severity === 'error'))
    row.errors++
  else missed.push(`${label.class} ${name}: ${threats.length ? 'a warning only' : 'no threat finding'}`)
}

const pct = (a: number, b: number): string => `${b ? Math.round((100 * a) / b) : 0}%`
console.log(`${result.stats.skills} skills, ${(ms / 1000).toFixed(1)} s\n`)
console.log('| class | attacks | detected | as errors |')
console.log('|---|---|---|---|')
let all = { n: 0, detected: 0, errors: 0 }
for (const [cls, r] of [...rows].sort(([a], [b]) => (a < b ? -1 : 1))) {
  console.log(`| ${cls} | ${r.n} | ${r.detected} | ${r.errors} |`)
  all = { n: all.n + r.n, detected: all.detected + r.detected, errors: all.errors + r.errors }
}
const share = (k: 'detected' | 'errors'): string => `${all[k]} (${pct(all[k], all.n)})`
console.log(`| all | ${all.n} | ${share('detected')} | ${share('errors')} |`)
console.log(`\nhard benign skills: ${benign}, with a scanner error: ${falseErrors.length}`)
if (values.list) {
  for (const m of missed) console.log(`  not an error: ${m}`)
  for (const f of falseErrors) console.log(`  false error: ${f}`)
}
