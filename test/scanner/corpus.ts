import type { Diagnostic, SkillSource } from '../../src/core/types'
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compareBytewise } from '../../src/core/diagnostics'
import { parseFrontmatter } from '../../src/core/frontmatter'
import { scanSkill } from '../../src/scanner/index'
import { makeSkill } from './make-skill'

export const CORPUS = fileURLToPath(new URL('../fixtures/scanner', import.meta.url))

function walk(dir: string, base = dir): string[] {
  const out: string[] = []
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory())
      out.push(...walk(p, base))
    else out.push(path.relative(base, p).split(path.sep).join('/'))
  }
  return out.sort(compareBytewise)
}

function isBinary(b: Buffer): boolean {
  return b.subarray(0, 8000).includes(0)
    || b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
}

/** Reads a fixture skill folder into a SkillSource (frontmatter parsed by the engine's parser). */
export function loadSkill(dir: string): SkillSource {
  const files: Record<string, string | Uint8Array> = {}
  for (const rel of walk(dir)) {
    const buf = fs.readFileSync(path.join(dir, rel))
    files[rel] = isBinary(buf) ? new Uint8Array(buf) : buf.toString('utf8').replace(/^\uFEFF/, '')
  }
  const md = typeof files['SKILL.md'] === 'string' ? files['SKILL.md'] : ''
  return makeSkill(files, parseFrontmatter(md).data ?? {}, path.basename(dir))
}

export interface CorpusReport {
  rows: Array<{ rule: string, samples: number, detected: number, recall: number, missed: string[] }>
  benign: { skills: number, errors: Diagnostic[], warnings: number, infos: number }
  bytes: number
}

/** Recall per rule on `malicious/<rule>/<sample>` and errors on `benign/<skill>`. */
export function evaluateCorpus(root = CORPUS): CorpusReport {
  // The agentskills profile: an undeclared capability is a warning there (an error in enterprise).
  const options = { maxTextSize: 1024 * 1024, profile: 'agentskills' as const }
  const rows: CorpusReport['rows'] = []
  let bytes = 0
  for (const rule of fs.readdirSync(path.join(root, 'malicious')).sort(compareBytewise)) {
    const samples = fs.readdirSync(path.join(root, 'malicious', rule)).sort(compareBytewise)
    const missed: string[] = []
    for (const s of samples) {
      const skill = loadSkill(path.join(root, 'malicious', rule, s))
      bytes += skill.files.reduce((n, f) => n + f.size, 0)
      const found = scanSkill(skill, options).diagnostics.some(d => d.rule === rule && d.severity !== 'info')
      if (!found)
        missed.push(s)
    }
    rows.push({
      rule,
      samples: samples.length,
      detected: samples.length - missed.length,
      recall: (samples.length - missed.length) / samples.length,
      missed,
    })
  }
  const benign = { skills: 0, errors: [] as Diagnostic[], warnings: 0, infos: 0 }
  for (const s of fs.readdirSync(path.join(root, 'benign')).sort(compareBytewise)) {
    const skill = loadSkill(path.join(root, 'benign', s))
    bytes += skill.files.reduce((n, f) => n + f.size, 0)
    benign.skills++
    for (const d of scanSkill(skill, options).diagnostics) {
      if (d.severity === 'error')
        benign.errors.push(d)
      else if (d.severity === 'warning')
        benign.warnings++
      else benign.infos++
    }
  }
  return { rows, benign, bytes }
}

export function formatReport(r: CorpusReport): string {
  const lines = ['rule               samples  detected  recall', '-----------------  -------  --------  ------']
  for (const row of r.rows) {
    const recall = `${(row.recall * 100).toFixed(1).padStart(5)}%`
    const missed = row.missed.length ? `  missed: ${row.missed.join(', ')}` : ''
    const counts = `${String(row.samples).padStart(7)}  ${String(row.detected).padStart(8)}`
    lines.push(`${row.rule.padEnd(17)}  ${counts}  ${recall}${missed}`)
  }
  const total = r.rows.reduce((n, x) => n + x.samples, 0)
  const hit = r.rows.reduce((n, x) => n + x.detected, 0)
  const recall = `${((hit / total) * 100).toFixed(1).padStart(5)}%`
  lines.push(`${'all'.padEnd(17)}  ${String(total).padStart(7)}  ${String(hit).padStart(8)}  ${recall}`)
  const { benign } = r
  lines.push(
    `benign skills: ${benign.skills}, errors: ${benign.errors.length}, warnings: ${benign.warnings}, `
    + `info: ${benign.infos}`,
  )
  for (const e of r.benign.errors)
    lines.push(`  FP ${e.code} ${e.file}:${e.line}:${e.column} ${e.message} | ${e.excerpt ?? ''}`)
  return lines.join('\n')
}
