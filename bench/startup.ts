/**
 * Agent startup benchmark: time (and retained heap) to have every skill registered and searchable,
 * (a) from the pre-compiled manifest (parse it, index skills by name, warm the discovery index) against (b) a naive runtime loader that walks the skill
 * folders and parses every SKILL.md with gray-matter. Same process, alternating runs, medians.
 * Run with `node --expose-gc` (or `tsx --expose-gc`) for the memory figures.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import matter from 'gray-matter'
import { findSkills, warmDiscovery } from '../src/runtime/find'
import type { ManifestSkill, SkillsManifest } from '../src/types'

export interface StartupBenchOptions {
  /** Folder of skill folders (each with a SKILL.md), walked by the naive loader. */
  corpusDir: string
  /** The pre-compiled skills_manifest.json of the same skills. */
  manifestPath: string
  /** Timed runs of each loader (after one warm-up each). @default 5 */
  runs?: number
}

export interface StartupBenchResult {
  skills: number
  runs: number
  /** Median ms: manifest -> registered + searchable. */
  manifestMs: number
  /** Median ms: folder walk + gray-matter parse of every SKILL.md. */
  naiveMs: number
  /** naiveMs / manifestMs. */
  speedup: number
  /** Heap retained by each loaded registry (bytes; null without --expose-gc). */
  manifestHeapBytes: number | null
  naiveHeapBytes: number | null
  manifestFileBytes: number
}

interface Registry {
  byName: Map<string, unknown>
  search?: (q: string) => unknown
}

/** Pre-compiled path: what an agent does with `import manifest from 'virtual:skills-manifest'`. */
function loadFromManifest(manifestPath: string): Registry {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as SkillsManifest
  const byName = new Map<string, unknown>()
  for (const skill of manifest.skills) byName.set(skill.name, skill)
  warmDiscovery(manifest)
  return { byName, search: q => findSkills(manifest, q, { k: 5 }) }
}

/** Naive path: discover and parse at startup, as a loader without a build step does. */
function loadNaively(corpusDir: string): Registry {
  // gray-matter memoises by input string: clear it so every run really parses.
  ;(matter as unknown as { clearCache?: () => void }).clearCache?.()
  const byName = new Map<string, unknown>()
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
      byName.set(name, { frontmatter: parsed.data, body: parsed.content, dir })
      return
    }
    if (depth > 0) for (const e of entries) if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(path.join(dir, e.name), depth - 1)
  }
  walk(corpusDir, 4)
  return { byName }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function gc(): boolean {
  const g = (globalThis as { gc?: () => void }).gc
  if (!g) return false
  g()
  g()
  return true
}

/** Heap retained by what `load` returns (bytes), or null when gc is not exposed. */
function retained(load: () => Registry): number | null {
  // Drop gray-matter's memo of the previous run first, or freeing it would hide the new registry.
  ;(matter as unknown as { clearCache?: () => void }).clearCache?.()
  if (!gc()) return null
  const before = process.memoryUsage().heapUsed
  const kept = load()
  gc()
  const after = process.memoryUsage().heapUsed
  if (kept.byName.size < 0) console.log('unreachable') // keeps `kept` alive until here
  return Math.max(0, after - before)
}

export async function runStartupBench({ corpusDir, manifestPath, runs = 5 }: StartupBenchOptions): Promise<StartupBenchResult> {
  const time = (load: () => Registry) => {
    const t = performance.now()
    const r = load()
    const ms = performance.now() - t
    return { ms, size: r.byName.size }
  }
  // Warm-up: JIT and the OS file cache for both paths.
  const a0 = time(() => loadFromManifest(manifestPath))
  const b0 = time(() => loadNaively(corpusDir))
  if (a0.size !== b0.size) throw new Error(`startup bench: manifest has ${a0.size} skills, corpus ${b0.size}`)
  const manifestTimes: number[] = []
  const naiveTimes: number[] = []
  for (let i = 0; i < runs; i++) {
    manifestTimes.push(time(() => loadFromManifest(manifestPath)).ms)
    naiveTimes.push(time(() => loadNaively(corpusDir)).ms)
  }
  const manifestMs = median(manifestTimes)
  const naiveMs = median(naiveTimes)
  const round = (x: number) => Math.round(x * 100) / 100
  return {
    skills: a0.size,
    runs,
    manifestMs: round(manifestMs),
    naiveMs: round(naiveMs),
    speedup: round(naiveMs / manifestMs),
    manifestHeapBytes: retained(() => loadFromManifest(manifestPath)),
    naiveHeapBytes: retained(() => loadNaively(corpusDir)),
    manifestFileBytes: fs.statSync(manifestPath).size,
  }
}

/** CLI: builds a corpus of `--skills N` (default 1000) in a temp dir, its manifest, and runs the bench (`--strip-content`, `--json`). */
async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const count = args.includes('--skills') ? Number(args[args.indexOf('--skills') + 1]) : 1000
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-startup-'))
  try {
    const corpusDir = path.join(dir, 'skills')
    let generated = false
    try {
      const corpus = await import(String('./corpus')) as { generateCorpus?: (d: string, o: { skills: number; seed: number }) => unknown }
      if (corpus.generateCorpus) {
        await corpus.generateCorpus(dir, { skills: count, seed: 1 })
        generated = true
      }
    }
    catch {}
    if (!generated) copyFixtures(corpusDir, count)
    const manifestPath = path.join(dir, 'skills_manifest.json')
    const manifest = await buildManifest(dir)
    // --strip-content: a manifest without embedded file texts (metadata, bodies and the index only).
    if (args.includes('--strip-content')) {
      for (const s of manifest.skills) for (const docs of [s.tree.references, s.tree.examples, s.tree.scenarios]) for (const d of docs) delete d.text
    }
    fs.writeFileSync(manifestPath, JSON.stringify(manifest))
    const result = await runStartupBench({ corpusDir, manifestPath })
    if (args.includes('--json')) console.log(JSON.stringify(result, null, 2))
    else {
      const mb = (b: number | null) => (b === null ? 'n/a (run with --expose-gc)' : `${(b / 1048576).toFixed(1)} MB`)
      console.log(`startup, ${result.skills} skills (median of ${result.runs}):`)
      console.log(`  pre-compiled manifest: ${result.manifestMs} ms, heap ${mb(result.manifestHeapBytes)} (file ${mb(result.manifestFileBytes)})`)
      console.log(`  naive gray-matter walk: ${result.naiveMs} ms, heap ${mb(result.naiveHeapBytes)}`)
      console.log(`  speedup: ${result.speedup}x`)
    }
  }
  finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Fallback corpus: the discovery fixtures copied under new names until `count` skills exist. */
function copyFixtures(corpusDir: string, count: number): void {
  const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'discovery', 'skills')
  const names = fs.readdirSync(src).sort()
  for (let i = 0; i < count; i++) {
    const name = `${names[i % names.length]}-${i}`
    fs.cpSync(path.join(src, names[i % names.length]), path.join(corpusDir, name), { recursive: true })
    const md = path.join(corpusDir, name, 'SKILL.md')
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace(/^name:.*$/m, `name: ${name}`))
  }
}

/** The manifest with its discovery index: from the engine when it runs, else from the plain reader. */
async function buildManifest(root: string): Promise<SkillsManifest> {
  const { buildDiscoveryIndex } = await import('../src/discovery')
  let manifest: SkillsManifest | null = null
  try {
    const { audit } = await import('../src/engine')
    manifest = (await audit({ root, roots: ['skills'], lock: false, manifest: false })).manifest
  }
  catch {}
  if (!manifest || manifest.skills.length === 0) {
    const { readSkillFolders } = await import('../src/discovery/skill-folder')
    const skills: ManifestSkill[] = readSkillFolders(path.join(root, 'skills'))
    manifest = { manifestVersion: 1, generator: 'bench', lockDigest: '', profile: 'enterprise', skills }
  }
  if (!manifest.index) manifest.index = await buildDiscoveryIndex(manifest.skills)
  return manifest
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
