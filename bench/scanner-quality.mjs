// Scanner figures: quality on the labelled corpus, and throughput on a generated 1,000-skill corpus
// compared with reading + SHA-256-hashing the same files.
// Run: node --import tsx bench/scanner-quality.mjs [skills=1000]
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { scanSkill } from '../src/scanner/index.ts'
import { evaluateCorpus, formatReport } from '../test/scanner/corpus.ts'
import { makeSkill } from '../test/scanner/make-skill.ts'

console.log(formatReport(evaluateCorpus()))

const SKILLS = Number(process.argv[2] ?? 1000)
let seed = 12345
const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
const pick = a => a[Math.floor(rand() * a.length)]
const WORDS = [
  'the skill reads documents and extracts tables use this when you need to fetch the latest data system key',
  'token config update run tests build deploy review report summary agent user file format output input with',
  'without never always check',
].join(' ').split(' ')
function prose(n) {
  let s = '# Guide\n\n'
  while (s.length < n) {
    s += `${Array.from({ length: 12 }, () => pick(WORDS)).join(' ')}.\n`
    if (rand() < 0.05)
      s += '\n```bash\nnpm run build && git fetch origin\n```\n\n'
  }
  return s
}
const RENDER = [
  'function render(items, opts = {}) {',
  '  const out = []',
  '  for (const item of items) {',
  // eslint-disable-next-line no-template-curly-in-string -- JavaScript source text: the template literal is its own
  '    if (item.kind === \'a\' && opts.verbose) out.push(`- ${item.name}: ${item.value.toFixed(2)}`)',
  '    else out.push(String(item.value))',
  '  }',
  '  return out.join(\'\\n\')',
  '}',
  '',
].join('\n')
const JS = [
  'const fs = require(\'node:fs\')\nconst path = require(\'node:path\')\n',
  RENDER,
  'const data = JSON.parse(fs.readFileSync(path.join(__dirname, \'data.json\'), \'utf8\'))\n',
  'module.exports = { render }\n',
]
const PY = [
  'import json\nimport sys\n\n',
  'def load(path):\n    with open(path) as f:\n        return json.load(f)\n\n',
  'def main(argv):\n    rows = load(argv[1])\n    print(len(rows))\n\n',
]
function code(parts, n, extra) {
  let s = parts[0]
  while (s.length < n) s += parts[1 + Math.floor(rand() * (parts.length - 1))]
  return s + extra
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanner-bench-'))
try {
  const size = () => 1024 + Math.floor(rand() * 63 * 1024)
  for (let i = 0; i < SKILLS; i++) {
    const d = path.join(dir, `skill-${i}`)
    for (const sub of ['references', 'examples', 'scripts', 'scenarios'])
      fs.mkdirSync(path.join(d, sub), { recursive: true })
    fs.writeFileSync(path.join(d, 'SKILL.md'), `---\nname: skill-${i}\ndescription: demo\n---\n${prose(size())}`)
    for (let r = 0; r < 4; r++) fs.writeFileSync(path.join(d, 'references', `r${r}.md`), prose(size()))
    fs.writeFileSync(path.join(d, 'examples', 'e.md'), prose(size()))
    fs.writeFileSync(path.join(d, 'scenarios', 's.md'), prose(size()))
    fs.writeFileSync(
      path.join(d, 'examples', 'cfg.json'),
      JSON.stringify({ items: Array.from({ length: 40 }, (_, k) => ({ k, v: pick(WORDS) })) }),
    )
    // ~2 scripts per skill; one in ten uses a sensitive API (so the parser runs on it).
    fs.writeFileSync(
      path.join(d, 'scripts', 'a.js'),
      code(JS, size(), i % 10 === 0 ? 'fetch(\'https://api.example.com\')\n' : ''),
    )
    fs.writeFileSync(path.join(d, 'scripts', 'b.py'), code(PY, size(), ''))
  }
  const list = fs.readdirSync(dir).sort()
  const read = () =>
    list.map((s) => {
      const d = path.join(dir, s)
      const files = {}
      for (const sub of ['', 'references', 'examples', 'scripts', 'scenarios']) {
        for (const f of fs.readdirSync(path.join(d, sub))) {
          const p = path.join(d, sub, f)
          if (fs.statSync(p).isDirectory())
            continue
          const bytes = fs.readFileSync(p)
          createHash('sha256').update(bytes).digest('hex')
          files[sub ? `${sub}/${f}` : f] = bytes
        }
      }
      return files
    })
  read() // warm the page cache
  let t = performance.now()
  const raw = read()
  const readMs = performance.now() - t
  const skills = raw.map((files, i) =>
    makeSkill(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.toString('utf8')])), {}, `skill-${i}`),
  )
  const bytes = raw.reduce((n, f) => n + Object.values(f).reduce((m, b) => m + b.length, 0), 0)
  t = performance.now()
  let findings = 0
  for (const s of skills) findings += scanSkill(s, { maxTextSize: 1 << 20 }).diagnostics.length
  const scanMs = performance.now() - t
  const files = raw.reduce((n, f) => n + Object.keys(f).length, 0)
  console.log(`\ncorpus: ${SKILLS} skills, ${files} files, ${(bytes / 1e6).toFixed(1)} MB`)
  console.log(`read + sha256: ${readMs.toFixed(0)} ms (${(bytes / 1e3 / readMs).toFixed(0)} MB/s)`)
  console.log(
    `scanSkill:     ${scanMs.toFixed(0)} ms (${(bytes / 1e3 / scanMs).toFixed(0)} MB/s), ${findings} diagnostics, `
    + `scan/read = ${(scanMs / readMs).toFixed(2)}x`,
  )
}
finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
