/**
 * `npx tsx bench/scanner-wild.ts`: the scanner on code and docs it was not written for, every
 * .js/.mjs/.cjs/.md/.py/.sh file under 512 KB in this repository's node_modules (pinned by
 * package-lock.json), each scanned as a file of a skill of its own. Real bundles trigger the AST
 * analysis nearly always, where the synthetic corpus's scripts never do. Prints the throughput against
 * reading the same files, and the slowest files. Asserts nothing.
 */
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { resolveOptions } from '../src/core/options'
import { scanSkill } from '../src/scanner/index'
import { makeSkill } from '../test/scanner/make-skill'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../node_modules')
const WANTED = /\.(?:js|mjs|cjs|md|py|sh)$/
const files: string[] = []
function walk(dir: string): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name)
    if (e.isDirectory())
      walk(p)
    else if (e.isFile() && WANTED.test(e.name) && fs.statSync(p).size < 512 * 1024)
      files.push(p)
  }
}
walk(root)

const texts = files.map(p => fs.readFileSync(p, 'utf8'))
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0)
const options = resolveOptions({}).scanner
// One skill per file, built before the clock starts (makeSkill hashes its files).
const skills = files.map((p, i) => {
  const ext = path.extname(p).slice(1)
  return makeSkill({ [ext === 'md' ? 'references/file.md' : `scripts/file.${ext}`]: texts[i]! }, {}, 'wild')
})

let t = performance.now()
for (const p of files) createHash('sha256').update(fs.readFileSync(p)).digest('hex')
const floor = performance.now() - t
const times: Array<[number, string]> = []
t = performance.now()
skills.forEach((skill, i) => {
  const start = performance.now()
  scanSkill(skill, options)
  times.push([performance.now() - start, path.relative(root, files[i]!)])
})
const scan = performance.now() - t

console.log(`scanner in the wild: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB from node_modules`)
console.log(`  read + SHA-256:  ${floor.toFixed(0)} ms`)
console.log(
  `  scan:            ${scan.toFixed(0)} ms (${(bytes / 1e6 / (scan / 1000)).toFixed(1)} MB/s), `
  + `${(scan / floor).toFixed(0)}x the read`,
)
console.log('  slowest files:')
for (const [ms, p] of times.sort((a, b) => b[0] - a[0]).slice(0, 5))
  console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${p}`)
