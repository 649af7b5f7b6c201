/**
 * The timed half of bench/startup.ts, in plain Node (no TypeScript loader hooks, which would add
 * a transform to every module import and make the pre-compiled path look many times slower than an
 * app sees). Both paths run in this one process, alternating. Arguments: a JSON object on argv[2]:
 * { modules, corpusDir, query, runs, tokenizer } (see runStartupBench). Prints a JSON result.
 */
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { pathToFileURL } from 'node:url'
import matter from 'gray-matter'

const { modules, corpusDir, query, runs, tokenizer } = JSON.parse(process.argv[2])
const { tokenize } = await import(pathToFileURL(tokenizer).href)

/**
 * (a) What `import { skills, findSkills } from 'virtual:skills-manifest'` + the first search cost.
 * `phases`, when given, gets the ms of each step: entry import, registry, first findSkills (index
 * head, the parts the query needs, the search itself).
 */
async function loadPrecompiled(dir, phases) {
  const t0 = performance.now()
  const entry = await import(pathToFileURL(path.join(dir, 'main.mjs')).href)
  const t1 = performance.now()
  const registry = new Map(entry.skills.map(s => [s.name, s]))
  const t2 = performance.now()
  const matches = await entry.findSkills(query)
  phases?.push([t1 - t0, t2 - t1, performance.now() - t2])
  return { size: registry.size, keep: [entry, registry, matches], answer: matches.map(m => m.name), matches }
}

/** (b) A loader without a build step: discover, parse and index at startup. */
function loadNaively() {
  // gray-matter memoises by input string: clear it so every run really parses.
  matter.clearCache?.()
  const byName = new Map()
  const walk = (dir, depth) => {
    let entries
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
        if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.'))
          walk(path.join(dir, e.name), depth - 1)
      }
    }
  }
  walk(corpusDir, 4)
  const search = plainBm25([...byName].map(([name, s]) => ({ name, text: `${name}\n${s.description}\n${s.body}` })))
  return { size: byName.size, keep: [byName, search], answer: search(query).slice(0, 5) }
}

/** Okapi BM25 (k1 1.2, b 0.75), postings per term: what a naive loader builds to be searchable. */
function plainBm25(docs) {
  const postings = new Map()
  const lengths = docs.map((d, i) => {
    const tf = new Map()
    const tokens = tokenize(d.text)
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [t, n] of tf) {
      let list = postings.get(t)
      if (!list)
        postings.set(t, (list = []))
      list.push([i, n])
    }
    return tokens.length
  })
  const avg = lengths.reduce((a, b) => a + b, 0) / (lengths.length || 1)
  return (q) => {
    const scores = new Float64Array(docs.length)
    for (const t of new Set(tokenize(q))) {
      const list = postings.get(t)
      if (!list)
        continue
      const idf = Math.log(1 + (docs.length - list.length + 0.5) / (list.length + 0.5))
      for (const [d, tf] of list) scores[d] += (idf * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * lengths[d]) / avg))
    }
    return [...scores.keys()]
      .filter(i => scores[i] > 0)
      .sort((a, b) => scores[b] - scores[a] || a - b)
      .map(i => docs[i].name)
  }
}

/** A copy of `from` made of hard links: new module URLs (no module cache), no bytes copied. */
function linkCopy(from, to) {
  fs.mkdirSync(to, { recursive: true })
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory())
      linkCopy(path.join(from, e.name), path.join(to, e.name))
    else fs.linkSync(path.join(from, e.name), path.join(to, e.name))
  }
}
let copies = 0
function fresh() {
  const dir = `${modules}-run-${copies++}`
  linkCopy(modules, dir)
  return dir
}

function gc() {
  if (!globalThis.gc)
    return false
  globalThis.gc()
  globalThis.gc()
  return true
}

/** Heap retained by what `load` keeps (bytes), or null when gc is not exposed. */
async function retained(load) {
  matter.clearCache?.()
  if (!gc())
    return null
  const before = process.memoryUsage().heapUsed
  let kept = await load()
  matter.clearCache?.()
  gc()
  const after = process.memoryUsage().heapUsed
  // Read the result after measuring, so it is provably alive during the second gc.
  const size = kept.size
  kept = null
  return size >= 0 ? Math.max(0, after - before) : null
}

/**
 * Wall and CPU time (this process, all threads) of one run. Each run starts from a collected heap,
 * so neither path pays for the other's garbage. CPU time is the steadier figure on a shared machine.
 */
async function time(load) {
  gc()
  const c = process.cpuUsage()
  const t = performance.now()
  const r = await load()
  const ms = performance.now() - t
  const u = process.cpuUsage(c)
  return { ms, cpu: (u.user + u.system) / 1000, r }
}
/**
 * A timed run whose result is dropped: an agent starts in a fresh heap, so runs must not keep
 * earlier runs' results alive (the naive indexes of past runs add up, and every later collection,
 * incremental marking included, would walk them in the middle of both paths' timed runs).
 */
async function timeOnly(load) {
  const { ms, cpu } = await time(load)
  return { ms, cpu }
}
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

// Memory first, in a fresh process: later gcs flush the bytecode (and its constant pools, the
// modules' data strings) of earlier runs' modules, which would hide what a run retains. This also
// warms both paths up, and loads the search runtime once (cached afterwards, like gray-matter).
const manifestHeapBytes = await retained(() => loadPrecompiled(fresh()))
const naiveHeapBytes = await retained(loadNaively)
const firstDir = fresh()
const a0 = (await time(() => loadPrecompiled(firstDir))).r
const b0 = (await time(loadNaively)).r
const head = (await import(pathToFileURL(path.join(firstDir, 'index.mjs')).href)).default
const dirs = Array.from({ length: runs }, fresh)
const phases = []
const pre = []
const naive = []
for (let i = 0; i < runs; i++) {
  // Alternate which path goes first.
  if (i % 2) {
    naive.push(await timeOnly(loadNaively))
    pre.push(await timeOnly(() => loadPrecompiled(dirs[i], phases)))
  }
  else {
    pre.push(await timeOnly(() => loadPrecompiled(dirs[i], phases)))
    naive.push(await timeOnly(loadNaively))
  }
}
const preTimes = pre.map(t => t.ms)
const naiveTimes = naive.map(t => t.ms)
console.log(
  JSON.stringify({
    sizes: [a0.size, b0.size],
    answers: [a0.answer, b0.answer],
    matches: a0.matches,
    loaded: { postings: Object.keys(head.postings).map(Number), chunks: Object.keys(head.chunks).map(Number) },
    preTimes,
    naiveTimes,
    manifestMs: median(preTimes),
    phases: {
      entry: median(phases.map(p => p[0])),
      registry: median(phases.map(p => p[1])),
      findSkills: median(phases.map(p => p[2])),
    },
    naiveMs: median(naiveTimes),
    manifestCpuMs: median(pre.map(t => t.cpu)),
    naiveCpuMs: median(naive.map(t => t.cpu)),
    manifestHeapBytes,
    naiveHeapBytes,
  }),
)
