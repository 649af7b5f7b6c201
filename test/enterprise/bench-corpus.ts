import { execFileSync } from 'node:child_process'
import path from 'node:path'
/**
 * Runs checkEnterprise over every skill (folder with SKILL.md) under the given roots and prints the
 * diagnostic counts and the time taken (engine scanner not involved: every skill gets the same
 * detected capabilities, network + fs:write). Not a test: `npx tsx test/enterprise/bench-corpus.ts <root>...`
 */
import process from 'node:process'
import { parseFrontmatter } from '../../src/core/frontmatter'
import { checkEnterprise } from '../../src/enterprise'
import { loadSkill, options, scanWith } from './helpers'

const roots = process.argv.slice(2)
if (roots.length === 0)
  throw new Error('usage: tsx test/enterprise/bench-corpus.ts <root>...')
const dirs = roots
  .flatMap(root =>
    execFileSync('find', [root, '-name', 'SKILL.md', '-not', '-path', '*/node_modules/*'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(p => path.dirname(p)),
  )
  .sort()
const skills = dirs.map((dir) => {
  const skill = loadSkill(dir, path.relative(process.cwd(), dir))
  const parsed = parseFrontmatter(skill.skillMd.text ?? '')
  return {
    ...skill,
    name: String(parsed.data?.name ?? skill.name),
    frontmatter: parsed.data ?? {},
    body: parsed.body,
    bodyLine: parsed.bodyLine,
    locate: parsed.locate,
  }
})
const names = new Set(skills.map(s => s.name))
const files = skills.reduce((n, s) => n + s.files.length, 0)
const chars = skills.reduce((n, s) => n + s.files.reduce((m, f) => m + (f.text?.length ?? 0), 0), 0)

for (const profile of ['enterprise', 'agentskills'] as const) {
  const opts = options({ profile, app: { domain: 'example.com', name: 'bench' } })
  const counts: Record<string, number> = {}
  const times: number[] = []
  for (let round = 0; round < 3; round++) {
    const start = performance.now()
    for (const skill of skills) {
      const result = checkEnterprise(skill, {
        options: opts,
        scan: scanWith(['network', 'fs:write']),
        skillNames: names,
      })
      if (round === 0) {
        for (const d of result.diagnostics)
          counts[`${d.code} ${d.severity}`] = (counts[`${d.code} ${d.severity}`] ?? 0) + 1
      }
    }
    times.push(Math.round(performance.now() - start))
  }
  const text = `${(chars / 1e6).toFixed(1)} M chars of text`
  const rounds = `3 rounds: ${times.join(', ')} ms`
  process.stdout.write(`${profile}: ${skills.length} skills, ${files} files, ${text}; ${rounds}\n`)
  process.stdout.write(`${JSON.stringify(counts)}\n`)
}
