/**
 * `npm run bench:real -- DIR... [--profile agentskills|enterprise] [--list]`: the full check on real skill
 * packs (copies of public packs in a local folder, never committed). Each DIR is a pack, or a folder of packs
 * (every subfolder that holds a SKILL.md somewhere is a pack). Prints per pack the skills with scanner errors
 * and warnings, per rule and kind, and the time. `--list` also prints every scanner error. Asserts nothing.
 */
import type { Diagnostic, Severity } from '../src/core/types'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { parseArgs } from 'node:util'
import { audit } from '../src/audit/engine'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { profile: { type: 'string', default: 'agentskills' }, list: { type: 'boolean', default: false } },
})
if (!positionals.length) {
  console.error('usage: npm run bench:real -- DIR... [--profile agentskills|enterprise] [--list]')
  process.exit(2)
}
const profile = values.profile === 'enterprise' ? 'enterprise' : 'agentskills'

function holdsSkill(dir: string, depth = 0): boolean {
  if (depth > 8)
    return false
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  }
  catch {
    return false
  }
  if (entries.some(e => e.isFile() && e.name === 'SKILL.md'))
    return true
  return entries.some(e => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules'
    && holdsSkill(path.join(dir, e.name), depth + 1))
}

const packs: string[] = []
for (const arg of positionals) {
  const dir = path.resolve(arg)
  const subs = fs.readdirSync(dir, { withFileTypes: true })
    .filter(e => e.isDirectory() && !e.name.startsWith('.'))
    .map(e => path.join(dir, e.name))
    .sort()
  // A folder whose subfolders are skills is one pack; a folder of folders of skills is several.
  if (subs.some(s => fs.existsSync(path.join(s, 'SKILL.md'))) || fs.existsSync(path.join(dir, 'SKILL.md')))
    packs.push(dir)
  else packs.push(...subs.filter(s => holdsSkill(s)))
}

interface Row { pack: string, skills: number, errors: number, warnings: number, ms: number }
const rows: Row[] = []
/** `rule kind severity` → skills. */
const byRule = new Map<string, Set<string>>()
const listed: Diagnostic[] = []

for (const pack of packs) {
  const name = path.basename(pack)
  const t = performance.now()
  const result = await audit({ root: pack, roots: ['.'], profile, lock: false, manifest: false, cache: false })
  const ms = performance.now() - t
  const withSeverity = (severity: Severity): Set<string> => new Set(result.diagnostics
    .filter(d => d.code.startsWith('scan/') && d.severity === severity && d.skill)
    .map(d => d.skill!))
  rows.push({
    pack: name,
    skills: result.stats.skills,
    errors: withSeverity('error').size,
    warnings: withSeverity('warning').size,
    ms,
  })
  for (const d of result.diagnostics) {
    if (!d.code.startsWith('scan/') || d.severity === 'info')
      continue
    const key = `${d.rule ?? d.code}\t${d.kind ?? '-'}\t${d.severity}`
    if (!byRule.has(key))
      byRule.set(key, new Set())
    byRule.get(key)!.add(`${name}/${d.skill}`)
    if (d.severity === 'error')
      listed.push({ ...d, file: `${name}/${d.file}` })
  }
}

const pct = (n: number, of: number): string => `${of ? ((n / of) * 100).toFixed(1) : '0.0'}%`
console.log(`real packs, profile ${profile}: skills with scanner findings (errors | warnings) and time`)
const head = ['skills'.padStart(6), 'errors'.padStart(13), 'warnings'.padStart(13), 'ms'.padStart(7)]
console.log(`${'pack'.padEnd(28)} ${head.join(' ')}`)
const total: Row = { pack: 'all', skills: 0, errors: 0, warnings: 0, ms: 0 }
for (const r of [...rows, total]) {
  if (r !== total) {
    total.skills += r.skills
    total.errors += r.errors
    total.warnings += r.warnings
    total.ms += r.ms
  }
  const e = `${r.errors} ${pct(r.errors, r.skills).padStart(6)}`
  const w = `${r.warnings} ${pct(r.warnings, r.skills).padStart(6)}`
  const cells = [String(r.skills).padStart(6), e.padStart(13), w.padStart(13), r.ms.toFixed(0).padStart(7)]
  console.log(`${r.pack.padEnd(28)} ${cells.join(' ')}`)
}
console.log('\nper rule: skills with a finding of that rule, kind and severity')
for (const [key, skills] of [...byRule].sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1))) {
  const [rule, kind, severity] = key.split('\t')
  console.log(`  ${rule!.padEnd(26)} ${kind!.padEnd(10)} ${severity!.padEnd(7)} ${String(skills.size).padStart(4)}`)
}
if (values.list) {
  console.log('\nscanner errors:')
  for (const d of listed)
    console.log(`  ${d.rule} ${d.file}:${d.line}:${d.column} ${d.message}${d.excerpt ? ` | ${d.excerpt}` : ''}`)
}
