/**
 * Agent startup benchmark: time and retained heap to have every skill registered and searchable.
 *
 * (a) Pre-compiled, as an app ships it: the entry module of `virtual:skills-manifest` holds skill
 *     summaries (`summarizeSkill`: no bodies, no embedded texts) and the index module holds the
 *     discovery index, each evaluated as `JSON.parse` of a string (src/plugin/codegen.ts). Timed:
 *     read both module payloads, parse them, register skills by name, answer a first `findSkills`.
 * (b) Naive runtime loader: walk the folders, read and parse every SKILL.md with gray-matter, build a
 *     plain BM25 over name + description + body, answer a first query.
 *
 * Same process, alternating runs after a warm-up of each, medians. Memory: heap retained by what each
 * path keeps (gc before and after, the result held), with `--expose-gc`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import matter from 'gray-matter'
import { summarizeSkill } from '../src/manifest'
import { findSkills } from '../src/runtime/find'
import { tokenize } from '../src/runtime/text'
import type { SkillsManifest } from '../src/types'

export interface StartupBenchOptions {
  /** Root walked by the naive loader (skill folders found up to 4 levels down). */
  corpusDir: string
  /** skills_manifest.json of the same skills (its index is built here when it has none). */
  manifestPath: string
  /** Timed runs of each loader (after one warm-up each). @default 7 */
  runs?: number
  /** First query answered by each path. */
  query?: string
}

export interface StartupBenchResult {
  skills: number
  runs: number
  /** Median ms: summary + index modules -> registered + first findSkills answered. */
  manifestMs: number
  /** Median ms: folder walk + gray-matter + plain BM25 -> first query answered. */
  naiveMs: number
  /** naiveMs / manifestMs (target >= 20). */
  speedup: number
  /**
   * What-if, not shipped: the same with the index's per-chunk records (`chunks`, `chunkOffsets`)
   * left out of the startup parse (e.g. in a lazily imported module) and skill-level answers only.
   */
  leanMs: number
  leanSpeedup: number
  leanIndexBytes: number
  manifestHeapBytes: number | null
  naiveHeapBytes: number | null
  /** Bytes of what the app parses at startup: summary JSON and index JSON. */
  summaryBytes: number
  indexBytes: number
  /** Serialised bytes of each skill field across the summary, largest first (`files=1185000 tree=...`). */
  summaryFieldBytes: string
}

interface Loaded {
  size: number
  keep: unknown
  answer: string[]
}

const DEFAULT_QUERY = 'rotate the signing keys and verify the release artifact'

/** (a) What `import manifest from 'virtual:skills-manifest'` + the first `findSkills` cost. */
function loadPrecompiled(summaryFile: string, indexFile: string, query: string): Loaded {
  const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as SkillsManifest
  const byName = new Map(summary.skills.map(s => [s.name, s]))
  const manifest = { ...summary, index: JSON.parse(fs.readFileSync(indexFile, 'utf8')) }
  const answer = findSkills(manifest, query, { k: 5 }).map(m => m.name)
  return { size: byName.size, keep: [byName, manifest], answer }
}

/** What-if: no chunk records at startup, skill-level answers only (`chunks: 0`). */
function loadLean(summaryFile: string, indexFile: string, query: string): Loaded {
  const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as SkillsManifest
  const byName = new Map(summary.skills.map(s => [s.name, s]))
  const manifest = { ...summary, index: JSON.parse(fs.readFileSync(indexFile, 'utf8')) }
  const answer = findSkills(manifest, query, { k: 5, chunks: 0 }).map(m => m.name)
  return { size: byName.size, keep: [byName, manifest], answer }
}

/** (b) A loader without a build step: discover, parse and index at startup. */
function loadNaively(corpusDir: string, query: string): Loaded {
  // gray-matter memoises by input string: clear it so every run really parses.
  ;(matter as unknown as { clearCache?: () => void }).clearCache?.()
  const byName = new Map<string, { description: string; body: string; dir: string }>()
  const walk = (dir: string, depth: number) => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    }
    catch {
      return
    }
    if (entries.some(e => e.isFile() && e.name === 'SKILL.md')) {
      const parsed = matter(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'))
      const name = typeof parsed.data.name === 'string' ? parsed.data.name : path.basename(dir)
      byName.set(name, { description: String(parsed.data.description ?? ''), body: parsed.content, dir })
      return
    }
    if (depth > 0) {
      for (const e of entries) {
        if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(path.join(dir, e.name), depth - 1)
      }
    }
  }
  walk(corpusDir, 4)
  const search = plainBm25([...byName].map(([name, s]) => ({ name, text: `${name}\n${s.description}\n${s.body}` })))
  return { size: byName.size, keep: [byName, search], answer: search(query).slice(0, 5) }
}

/** Okapi BM25 (k1 1.2, b 0.75), postings per term: what a naive loader builds to be searchable. */
function plainBm25(docs: Array<{ name: string; text: string }>): (query: string) => string[] {
  const postings = new Map<string, Array<[doc: number, tf: number]>>()
  const lengths = docs.map((d, i) => {
    const tf = new Map<string, number>()
    const tokens = tokenize(d.text)
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [t, n] of tf) {
      let list = postings.get(t)
      if (!list) postings.set(t, list = [])
      list.push([i, n])
    }
    return tokens.length
  })
  const avg = lengths.reduce((a, b) => a + b, 0) / (lengths.length || 1)
  return (query) => {
    const scores = new Float64Array(docs.length)
    for (const t of new Set(tokenize(query))) {
      const list = postings.get(t)
      if (!list) continue
      const idf = Math.log(1 + (docs.length - list.length + 0.5) / (list.length + 0.5))
      for (const [d, tf] of list) scores[d] += idf * (tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * lengths[d] / avg))
    }
    return [...scores.keys()].filter(i => scores[i] > 0).sort((a, b) => scores[b] - scores[a] || a - b).map(i => docs[i].name)
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function gc(): boolean {
  const g = (globalThis as { gc?: () => void }).gc
  if (!g) return false
  g()
  g()
  return true
}

/** Heap retained by what `load` keeps (bytes), or null when gc is not exposed. */
function retained(load: () => Loaded): number | null {
  ;(matter as unknown as { clearCache?: () => void }).clearCache?.()
  if (!gc()) return null
  const before = process.memoryUsage().heapUsed
  let kept: Loaded | null = load()
  ;(matter as unknown as { clearCache?: () => void }).clearCache?.()
  gc()
  const after = process.memoryUsage().heapUsed
  // Read the result after measuring, so it is provably alive during the second gc.
  const size = kept.size
  kept = null
  return size >= 0 ? Math.max(0, after - before) : null
}

/** Serialised bytes per skill field across the summary (what makes the entry module fat). */
function fieldBytes(skills: SkillsManifest['skills']): Record<string, number> {
  const totals = new Map<string, number>()
  for (const s of skills) {
    for (const [k, v] of Object.entries(s)) totals.set(k, (totals.get(k) ?? 0) + JSON.stringify(v ?? null).length + k.length + 4)
  }
  return Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]))
}

export async function runStartupBench({ corpusDir, manifestPath, runs = 7, query = DEFAULT_QUERY }: StartupBenchOptions): Promise<StartupBenchResult> {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as SkillsManifest
  if (manifest.index === undefined) {
    const { buildDiscoveryIndex } = await import('../src/discovery')
    manifest.index = await buildDiscoveryIndex(manifest.skills)
  }
  // The two payloads an app evaluates at startup (src/plugin/codegen.ts: entry module + index module).
  const { index, ...head } = manifest
  const summary = { ...head, skills: manifest.skills.map(summarizeSkill) }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-startup-'))
  try {
    const summaryFile = path.join(tmp, 'summary.json')
    const indexFile = path.join(tmp, 'index.json')
    fs.writeFileSync(summaryFile, JSON.stringify(summary))
    fs.writeFileSync(indexFile, JSON.stringify(index))
    const leanFile = path.join(tmp, 'index-lean.json')
    fs.writeFileSync(leanFile, JSON.stringify({ ...(index as object), chunks: '', chunkOffsets: '' }))

    const time = (load: () => Loaded) => {
      const t = performance.now()
      const r = load()
      return { ms: performance.now() - t, r }
    }
    const pre = () => loadPrecompiled(summaryFile, indexFile, query)
    const naive = () => loadNaively(corpusDir, query)
    const lean = () => loadLean(summaryFile, leanFile, query)
    const a0 = time(pre).r
    const b0 = time(naive).r
    if (a0.size !== b0.size) throw new Error(`startup bench: manifest has ${a0.size} skills, corpus ${b0.size}`)
    if (a0.answer.length === 0 || b0.answer.length === 0) throw new Error(`startup bench: query ${JSON.stringify(query)} found nothing`)
    time(lean)
    const preTimes: number[] = []
    const naiveTimes: number[] = []
    const leanTimes: number[] = []
    for (let i = 0; i < runs; i++) {
      leanTimes.push(time(lean).ms)
      // Alternate which path goes first, so neither always inherits the other's garbage.
      if (i % 2) {
        naiveTimes.push(time(naive).ms)
        preTimes.push(time(pre).ms)
      }
      else {
        preTimes.push(time(pre).ms)
        naiveTimes.push(time(naive).ms)
      }
    }
    const round = (x: number) => Math.round(x * 100) / 100
    const manifestMs = median(preTimes)
    const naiveMs = median(naiveTimes)
    return {
      skills: a0.size,
      runs,
      manifestMs: round(manifestMs),
      naiveMs: round(naiveMs),
      speedup: round(naiveMs / manifestMs),
      leanMs: round(median(leanTimes)),
      leanSpeedup: round(naiveMs / median(leanTimes)),
      leanIndexBytes: fs.statSync(leanFile).size,
      manifestHeapBytes: retained(pre),
      naiveHeapBytes: retained(naive),
      summaryBytes: fs.statSync(summaryFile).size,
      indexBytes: fs.statSync(indexFile).size,
      summaryFieldBytes: Object.entries(fieldBytes(summary.skills)).map(([k, v]) => `${k}=${v}`).join(' '),
    }
  }
  finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/** CLI: `tsx --expose-gc bench/startup.ts [--json]` on the 1,000-skill synthetic corpus (bench/corpus.ts). */
async function main(): Promise<void> {
  const { generateCorpus } = await import('./corpus')
  const { SkillsEngine } = await import('../src/engine')
  const here = path.dirname(fileURLToPath(import.meta.url))
  const corpus = generateCorpus(path.join(here, '.corpus', 's1000'), { skills: 1000 })
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-startup-manifest-'))
  try {
    const manifestPath = path.join(tmp, 'skills_manifest.json')
    const audit = await new SkillsEngine({ root: corpus.dir, lock: false }, { content: true }).audit()
    fs.writeFileSync(manifestPath, JSON.stringify(audit.manifest))
    const result = await runStartupBench({ corpusDir: corpus.dir, manifestPath })
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(result, null, 2))
      return
    }
    const mb = (b: number | null) => (b === null ? 'n/a (run with --expose-gc)' : `${(b / 1048576).toFixed(2)} MB`)
    console.log(`startup, ${result.skills} skills (median of ${result.runs}, alternating):`)
    console.log(`  pre-compiled (summary ${mb(result.summaryBytes)} + index ${mb(result.indexBytes)}): ${result.manifestMs} ms, retained heap ${mb(result.manifestHeapBytes)}`)
    console.log(`  naive gray-matter walk + BM25:  ${result.naiveMs} ms, retained heap ${mb(result.naiveHeapBytes)}`)
    console.log(`  speedup: ${result.speedup}x (target >= 20x)`)
    console.log(`  what-if, chunk records not parsed at startup (index ${mb(result.leanIndexBytes)}, skill-level answers): ${result.leanMs} ms, ${result.leanSpeedup}x`)
    console.log(`  summary bytes by field: ${result.summaryFieldBytes.split(' ').slice(0, 6).map((kv) => { const [k, v] = kv.split('='); return `${k} ${mb(Number(v))}` }).join(', ')}`)
  }
  finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
