#!/usr/bin/env node
// Validates the labelled discovery corpus in test/fixtures/discovery:
// skill layout and frontmatter, size bounds, local links, benign content,
// query labels, and the "overlap: none" claim (recomputed with a crude stemmer).
// Usage: node scripts/check-discovery-corpus.mjs [corpusDir] [--baseline]
// --baseline also prints MRR/top-1/top-3 of a plain BM25 ranker, as a floor for the real engine.
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import matter from 'gray-matter'

const here = path.dirname(fileURLToPath(import.meta.url))
const dirArg = process.argv.slice(2).find(a => !a.startsWith('--'))
const root = path.resolve(dirArg ?? path.join(here, '..', 'test', 'fixtures', 'discovery'))
const skillsDir = path.join(root, 'skills')
const errors = []
const fail = (where, msg) => errors.push(`${where}: ${msg}`)
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

// --- text normalisation shared by the overlap check ---------------------------
const STOP = new Set(
  `a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have having he her here
hers him his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other
our ours ourselves out over own same she should so some such than that the their theirs them then there these they
this those through to too under until up very was we were what when where which while who whom why will with would you
your yours yourself yourselves let lets us get got make one way want need something anything thing things also still
keep must may might shall without within
im its were dont cant isnt ive weve youre theyre thats whats don doesn didn isn won aren wasn ll ve re`
    .split(/\s+/)
    .filter(Boolean),
)
const SUFFIXES = ['ing', 'ion', 'ed', 'ly', 'er', 'es', 's', 'e']
function stem(word) {
  let w = word
  // A few passes so migrations/migrating/migrate all land on "migrat".
  for (let pass = 0; pass < 3; pass++) {
    const suf = SUFFIXES.find(s => w.endsWith(s) && w.length - s.length >= 3)
    if (!suf)
      break
    w = w.slice(0, -suf.length)
  }
  return w
}
function contentStems(text) {
  const out = new Set()
  for (const tok of String(text)
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? []) {
    if (tok.length < 2 || STOP.has(tok))
      continue
    const s = stem(tok)
    if (!STOP.has(s))
      out.add(s) // "wants" -> "want" is still a stop word
  }
  return out
}

// --- skills --------------------------------------------------------------------
const NAME_RE = /^[a-z0-9](?:[a-z0-9]|-(?!-))*[a-z0-9]$|^[a-z0-9]$/
const SEMVER_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/
const DANGER = [
  [/\beval\s*\(/, 'eval('],
  [/new\s+Function\s*\(/, 'new Function('],
  [/curl[^\n|]*\|\s*(?:ba|z)?sh\b/, 'curl | sh'],
  [/wget[^\n|]*\|\s*(?:ba|z)?sh\b/, 'wget | sh'],
  [/AKIA[0-9A-Z]{16}/, 'AWS access key'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'private key'],
  [/\bghp_[A-Za-z0-9]{20,}/, 'GitHub token'],
  [/\bxox[bap]-\d+/, 'Slack token'],
  [/rm\s+-rf\s+\/(?:\s|$)/, 'rm -rf /'],
]
const HTTP_CALL = /\bfetch\s*\(|requests\.(?:get|post|put)|axios\.|http\.request|urllib|HttpClient/
const lineCount = s => s.split('\n').filter(l => l.trim()).length
const domains = new Map()
const skillIndex = new Map()
const fullTexts = new Map()

if (!fs.existsSync(skillsDir)) {
  console.error(`no skills folder at ${skillsDir}`)
  process.exit(1)
}
const names = fs
  .readdirSync(skillsDir, { withFileTypes: true })
  .filter(d => d.isDirectory())
  .map(d => d.name)
  .sort(cmp)
for (const name of names) {
  const dir = path.join(skillsDir, name)
  const where = `skills/${name}`
  const skillMd = path.join(dir, 'SKILL.md')
  if (!fs.existsSync(skillMd)) {
    fail(where, 'missing SKILL.md')
    continue
  }
  let parsed
  try {
    parsed = matter(fs.readFileSync(skillMd, 'utf8'))
  }
  catch (e) {
    fail(where, `frontmatter does not parse: ${e.message}`)
    continue
  }
  const fm = parsed.data
  if (fm.name !== name)
    fail(where, `name "${fm.name}" differs from folder`)
  if (!NAME_RE.test(name) || name.length > 64)
    fail(where, 'folder name is not a-z0-9- (1-64)')
  if (typeof fm.description !== 'string' || !fm.description.trim() || fm.description.length > 1024)
    fail(where, 'description must be 1-1024 chars')
  if (typeof fm.version !== 'string' || !SEMVER_RE.test(fm.version))
    fail(where, `version "${fm.version}" is not semver`)
  if (typeof fm.domain !== 'string' || !/^[a-z]+$/.test(fm.domain))
    fail(where, 'domain must be one lowercase word')
  if (typeof fm.category !== 'string' || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(fm.category))
    fail(where, 'category must be a word or kebab-case')
  for (const key of ['tags', 'triggers']) {
    if (!Array.isArray(fm[key]) || !fm[key].length || !fm[key].every(t => typeof t === 'string' && t.trim()))
      fail(where, `${key} must be a non-empty list of strings`)
  }
  if (typeof fm.license !== 'string' || !fm.license.trim())
    fail(where, 'license missing')
  const bodyLines = lineCount(parsed.content)
  if (bodyLines < 15 || bodyLines > 60)
    fail(where, `SKILL.md body has ${bodyLines} non-blank lines (want 15-60)`)
  const texts = [['SKILL.md', parsed.content]]
  for (const [sub, ext, min, max] of [
    ['references', /\.md$/, 20, 80],
    ['examples', /./, 10, 40],
  ]) {
    const subDir = path.join(dir, sub)
    const entries = fs.existsSync(subDir)
      ? fs
          .readdirSync(subDir)
          .filter(f => ext.test(f))
          .sort(cmp)
      : []
    if (!entries.length) {
      fail(where, `${sub}/ is empty or missing`)
      continue
    }
    for (const f of entries) {
      // Hidden or extension-less files are easy for a discovery walk to skip; keep examples explicit.
      if (sub === 'examples' && !/^[^.].*\.[A-Za-z0-9]+$/.test(f))
        fail(`${where}/${sub}/${f}`, 'example file needs a visible name with an extension')
      const body = fs.readFileSync(path.join(subDir, f), 'utf8')
      const n = lineCount(body)
      if (n < min || n > max)
        fail(`${where}/${sub}/${f}`, `${n} non-blank lines (want ${min}-${max})`)
      texts.push([`${sub}/${f}`, body])
    }
  }
  for (const [rel, body] of texts) {
    for (const [re, label] of DANGER) {
      if (re.test(body))
        fail(`${where}/${rel}`, `suspicious content: ${label}`)
    }
    if (rel.startsWith('examples/') && HTTP_CALL.test(body) && !/429/.test(body))
      fail(`${where}/${rel}`, 'makes HTTP calls without 429 handling')
    if (!rel.endsWith('.md'))
      continue
    for (const m of body.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0]
      if (!target || /^[a-z]+:/i.test(target)) {
        if (/^file:/i.test(target))
          fail(`${where}/${rel}`, `file: link ${target}`)
        continue
      }
      const abs = path.resolve(path.dirname(path.join(dir, rel)), target)
      if (!abs.startsWith(dir + path.sep) || !fs.existsSync(abs))
        fail(`${where}/${rel}`, `broken link ${m[1]}`)
    }
  }
  domains.set(fm.domain, (domains.get(fm.domain) ?? 0) + 1)
  fullTexts.set(name, texts.map(t => t[1]).join('\n'))
  skillIndex.set(
    name,
    contentStems([name.replace(/-/g, ' '), fm.description, ...(fm.tags ?? []), ...(fm.triggers ?? [])].join(' ')),
  )
}

// --- queries -------------------------------------------------------------------
const queriesPath = path.join(root, 'queries.json')
let queries = []
try {
  queries = JSON.parse(fs.readFileSync(queriesPath, 'utf8'))
}
catch (e) {
  fail('queries.json', `unreadable: ${e.message}`)
}
if (!Array.isArray(queries)) {
  fail('queries.json', 'must be an array')
  queries = []
}
const counts = { none: 0, partial: 0 }
const perSkill = new Map()
const seen = new Set()
const wronglyNone = []
const partialWithoutOverlap = []
queries.forEach((q, i) => {
  const where = `queries[${i}]`
  if (!q || typeof q.query !== 'string' || !q.query.trim())
    return fail(where, 'query must be a non-empty string')
  if (seen.has(q.query.toLowerCase()))
    fail(where, `duplicate query "${q.query}"`)
  seen.add(q.query.toLowerCase())
  if (!skillIndex.has(q.expected))
    return fail(where, `expected skill "${q.expected}" does not exist`)
  if (q.overlap !== 'none' && q.overlap !== 'partial')
    return fail(where, `overlap must be none|partial, got ${q.overlap}`)
  counts[q.overlap]++
  perSkill.set(q.expected, (perSkill.get(q.expected) ?? 0) + 1)
  const skillStems = skillIndex.get(q.expected)
  const shared = [...contentStems(q.query)].filter(s => skillStems.has(s)).sort(cmp)
  if (q.overlap === 'none' && shared.length)
    wronglyNone.push(`  ${where} (${q.expected}) shares [${shared.join(', ')}]: "${q.query}"`)
  if (q.overlap === 'partial' && !shared.length)
    partialWithoutOverlap.push(`  ${where} (${q.expected}): "${q.query}"`)
})
for (const name of skillIndex.keys()) {
  if (!perSkill.has(name))
    fail(`skills/${name}`, 'no query expects this skill')
}
if (wronglyNone.length) {
  fail(
    'queries.json',
    `${wronglyNone.length} "none" queries share content words with their skill:\n${wronglyNone.join('\n')}`,
  )
}
const MIN = { skills: 110, queries: 170, none: 70 }
if (skillIndex.size < MIN.skills)
  fail('corpus', `${skillIndex.size} skills, want >= ${MIN.skills}`)
if (queries.length < MIN.queries)
  fail('corpus', `${queries.length} queries, want >= ${MIN.queries}`)
if (counts.none < MIN.none)
  fail('corpus', `${counts.none} "none" queries, want >= ${MIN.none}`)

console.log(`corpus: ${root}`)
console.log(
  `skills: ${skillIndex.size}  queries: ${queries.length}  none: ${counts.none}  partial: ${counts.partial} `
  + `(of which ${partialWithoutOverlap.length} have no measurable overlap)`,
)
console.log(
  `domains (${domains.size}): ${[...domains]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([d, n]) => `${d}=${n}`)
    .join(' ')}`,
)
const maxPer = Math.max(0, ...perSkill.values())
console.log(
  `queries per skill: min ${Math.min(...[...skillIndex.keys()].map(n => perSkill.get(n) ?? 0))}, max ${maxPer}`,
)
if (process.argv.includes('--baseline'))
  printBaseline()
if (partialWithoutOverlap.length) {
  console.log(
    'note: "partial" queries the stemmer sees no overlap in (overlap may be a synonym or abbreviation):\n'
    + `${partialWithoutOverlap.join('\n')}`,
  )
}
if (errors.length) {
  console.error(`\nFAIL: ${errors.length} problem(s)`)
  for (const e of errors) console.error(`- ${e}`)
  process.exit(1)
}
console.log('OK')

// --- optional lexical baseline (--baseline): BM25 over the same stems, for reference only ---
function tokens(text) {
  const out = []
  for (const tok of String(text)
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? []) {
    if (tok.length < 2 || STOP.has(tok))
      continue
    const s = stem(tok)
    if (!STOP.has(s))
      out.push(s)
  }
  return out
}
function bm25Ranker(docs, k1 = 1.2, b = 0.75) {
  const names = [...docs.keys()].sort(cmp)
  const tf = names.map((n) => {
    const m = new Map()
    for (const t of tokens(docs.get(n))) m.set(t, (m.get(t) ?? 0) + 1)
    return m
  })
  const len = tf.map(m => [...m.values()].reduce((a, c) => a + c, 0))
  const avg = len.reduce((a, c) => a + c, 0) / names.length
  const df = new Map()
  for (const m of tf) {
    for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  }
  return (query) => {
    const q = [...new Set(tokens(query))]
    const scored = names.map((n, i) => {
      let score = 0
      for (const t of q) {
        const f = tf[i].get(t)
        if (!f)
          continue
        const idf = Math.log(1 + (names.length - df.get(t) + 0.5) / (df.get(t) + 0.5))
        score += (idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * len[i]) / avg))
      }
      return [n, score]
    })
    // Ties (notably all-zero scores) rank by name, so a miss is a miss.
    return scored.sort((x, y) => y[1] - x[1] || cmp(x[0], y[0])).map(x => x[0])
  }
}
function printBaseline() {
  const meta = new Map()
  for (const [name] of skillIndex) {
    const fm = matter(fs.readFileSync(path.join(skillsDir, name, 'SKILL.md'), 'utf8')).data
    meta.set(name, [name.replace(/-/g, ' '), fm.description, ...(fm.tags ?? []), ...(fm.triggers ?? [])].join(' '))
  }
  for (const [label, docs] of [
    ['metadata', meta],
    ['all files', fullTexts],
  ]) {
    const rank = bm25Ranker(docs)
    for (const cls of ['none', 'partial', 'all']) {
      const qs = queries.filter(q => skillIndex.has(q?.expected) && (cls === 'all' || q.overlap === cls))
      let rr = 0
      let top1 = 0
      let top3 = 0
      for (const q of qs) {
        const pos = rank(q.query).indexOf(q.expected) + 1
        rr += 1 / pos
        if (pos === 1)
          top1++
        if (pos <= 3)
          top3++
      }
      const pct = x => ((100 * x) / qs.length).toFixed(1)
      console.log(
        `baseline BM25 ${label.padEnd(9)} ${cls.padEnd(7)} n=${qs.length} MRR=${(rr / qs.length).toFixed(3)} `
        + `top1=${pct(top1)}% top3=${pct(top3)}%`,
      )
    }
  }
}
