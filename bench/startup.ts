import type { SkillsManifest } from '../src/core/types'
import type { SkillMatch } from '../src/runtime/find'
/**
 * Agent startup benchmark: time and retained heap to have every skill registered and searchable.
 *
 * (a) Pre-compiled, as an app ships it: the modules src/plugin/codegen.ts generates for
 *     `virtual:skills-manifest` are written to a directory, their virtual ids resolved to relative
 *     files (what a bundler does), and really imported; the search runtime is src/runtime bundled
 *     by esbuild (as the plugin's dist/runtime.mjs is). Timed: import the entry module, register
 *     every skill by name, answer a first `findSkills(query)` with the API defaults (k 5, 3 chunks
 *     per skill), which imports the index head and the parts the query needs.
 * (b) Naive runtime loader: walk the folders, read and parse every SKILL.md with gray-matter, build a
 *     plain BM25 over name + description + body, answer a first query.
 *
 * The timing runs in a child `node` process (bench/startup-measure.mjs): tsx's loader hooks would
 * transform every imported module. Each run of (a) imports a fresh copy of the modules (a directory
 * of hard links: new URLs, no module cache); code both paths reuse is loaded once, as in a real
 * process (gray-matter, the runtime). Same process, alternating runs after a warm-up of each,
 * medians. Memory: heap retained by what each path keeps (gc before and after, the result held).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { build } from 'esbuild'
import { summarizeManifest } from '../src/audit/manifest'
import { indexModule, indexSkillModule, loadersModule, mainModule, postingsModule } from '../src/plugin/codegen'
import { parseVirtual, resolveVirtual } from '../src/plugin/ids'
import { isDiscoveryIndex } from '../src/runtime/discovery-index'
import { findSkills } from '../src/runtime/find'

export interface StartupBenchOptions {
  /** Root walked by the naive loader (skill folders found up to 4 levels down). */
  corpusDir: string
  /** skills_manifest.json of the same skills (its index is built here when it has none). */
  manifestPath: string
  /** Timed runs of each loader (after one warm-up each). @default 15 */
  runs?: number
  /** First query answered by each path. */
  query?: string
}

export interface StartupBenchResult {
  skills: number
  runs: number
  /** Median ms: import the entry module -> every skill registered + first findSkills answered. */
  manifestMs: number
  /** Median ms: folder walk + gray-matter + plain BM25 -> first query answered. */
  naiveMs: number
  /** Medians of the pre-compiled path's steps (ms): entry import, registry by name, first findSkills. */
  phases: { entry: number, registry: number, findSkills: number }
  /** naiveMs / manifestMs (target >= 20). */
  speedup: number
  /** The same in CPU time (process, all threads): steadier than wall time on a loaded machine. */
  manifestCpuMs: number
  naiveCpuMs: number
  cpuSpeedup: number
  manifestHeapBytes: number | null
  naiveHeapBytes: number | null
  /** Bytes of module source the pre-compiled path imported: entry, index head, parts the query loaded. */
  entryBytes: number
  indexHeadBytes: number
  partsBytes: number
  /** Postings shards and skills' chunk records the first query loaded, of how many. */
  partsLoaded: string
  /** Bytes of every generated discovery module (head and all parts): what a bundle carries. */
  indexTotalBytes: number
  /**
   * JSON bytes of each summary field (key included) across the skills, largest first
   * (`description=70000 ...`); the entry ships plain summaries as columns, without the keys.
   */
  summaryFieldBytes: string
}

const DEFAULT_QUERY = 'rotate the signing keys and verify the release artifact'

/**
 * The plugin's modules as files under `dir`, each virtual id resolved to a relative file as a bundler
 * would. Skill modules (full entries, only imported by `getSkill(name).load()`) are not written: the
 * startup path never imports them.
 */
function writeModules(manifest: SkillsManifest, dir: string, runtimeUrl: string): void {
  const index = manifest.index
  if (!isDiscoveryIndex(index))
    throw new Error('startup bench: the manifest has no discovery index')
  const skillFile = new Map(manifest.skills.map((s, i) => [s.name, i]))
  const fileOf = (id: string): string => {
    const mod = parseVirtual(resolveVirtual(id))
    if (mod.kind === 'index')
      return 'index.mjs'
    if (mod.kind === 'loaders')
      return 'loaders.mjs'
    if (mod.kind === 'postings')
      return `postings/${mod.shard}.mjs`
    if (mod.kind === 'index-skill')
      return `chunks/${index.skills.indexOf(mod.name)}.mjs`
    if (mod.kind === 'skill')
      return `skill/${skillFile.get(mod.name)}.mjs`
    throw new Error(`startup bench: unexpected import ${id}`)
  }
  // Entry and index head sit at the root, so every resolved path is relative to it.
  const resolve = (code: string): string =>
    code.replace(
      /import\("([^"]+)"\)/g,
      (_, id: string) => `import(${JSON.stringify(id.endsWith('/runtime') ? runtimeUrl : `./${fileOf(id)}`)})`,
    )
  fs.mkdirSync(path.join(dir, 'postings'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'chunks'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'main.mjs'), resolve(mainModule(manifest)))
  fs.writeFileSync(path.join(dir, 'index.mjs'), resolve(indexModule(manifest)))
  fs.writeFileSync(path.join(dir, 'loaders.mjs'), resolve(loadersModule(manifest)))
  index.postings.forEach((_, i) => fs.writeFileSync(path.join(dir, `postings/${i}.mjs`), postingsModule(manifest, i)))
  index.skills.forEach((name, s) =>
    fs.writeFileSync(path.join(dir, `chunks/${s}.mjs`), indexSkillModule(manifest, name)),
  )
}

/** Serialised bytes per field across the summaries (what makes the entry module fat). */
function fieldBytes(skills: object[]): Record<string, number> {
  const totals = new Map<string, number>()
  for (const s of skills) {
    for (const [k, v] of Object.entries(s))
      totals.set(k, (totals.get(k) ?? 0) + JSON.stringify(v ?? null).length + k.length + 4)
  }
  return Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]))
}

const sizeOf = (file: string) => fs.statSync(file).size

export async function runStartupBench({
  corpusDir,
  manifestPath,
  runs = 15,
  query = DEFAULT_QUERY,
}: StartupBenchOptions): Promise<StartupBenchResult> {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as SkillsManifest
  if (manifest.index === undefined) {
    const { buildDiscoveryIndex } = await import('../src/search')
    manifest.index = await buildDiscoveryIndex(manifest.skills)
  }
  const here = path.dirname(fileURLToPath(import.meta.url))
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-startup-'))
  try {
    // The runtime as the plugin ships it (one ESM file), and the tokenizer the naive BM25 uses.
    const runtime = path.join(tmp, 'runtime.mjs')
    const tokenizer = path.join(tmp, 'tokenize.mjs')
    await build({
      entryPoints: [path.join(here, '../src/runtime/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile: runtime,
      logLevel: 'silent',
    })
    await build({
      stdin: {
        contents: `export { tokenize } from './text'`,
        resolveDir: path.join(here, '../src/runtime'),
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile: tokenizer,
      logLevel: 'silent',
    })
    const modules = path.join(tmp, 'modules')
    writeModules(manifest, modules, pathToFileURL(runtime).href)

    const args = JSON.stringify({ modules, corpusDir, query, runs, tokenizer })
    const out = execFileSync(process.execPath, ['--expose-gc', path.join(here, 'startup-measure.mjs'), args], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const m = JSON.parse(out) as {
      sizes: [number, number]
      answers: [string[], string[]]
      matches: SkillMatch[]
      loaded: { postings: number[], chunks: number[] }
      manifestMs: number
      phases: { entry: number, registry: number, findSkills: number }
      naiveMs: number
      manifestCpuMs: number
      naiveCpuMs: number
      manifestHeapBytes: number | null
      naiveHeapBytes: number | null
    }
    if (m.sizes[0] !== m.sizes[1])
      throw new Error(`startup bench: manifest has ${m.sizes[0]} skills, corpus ${m.sizes[1]}`)
    if (m.answers[0].length === 0 || m.answers[1].length === 0)
      throw new Error(`startup bench: query ${JSON.stringify(query)} found nothing`)
    // The imported modules answer exactly what the runtime answers over the complete index (chunk
    // texts aside: the entry module has no bodies to slice them from).
    const expected = findSkills(
      { ...summarizeManifest(manifest), index: manifest.index } as unknown as SkillsManifest,
      query,
    )
    if (!isDeepStrictEqual(m.matches, JSON.parse(JSON.stringify(expected))))
      throw new Error('startup bench: the generated modules answer differently from findSkills over the complete index')

    const round = (x: number) => Math.round(x * 100) / 100
    const index = manifest.index as { postings: string[], skills: string[] }
    const partsBytes
      = m.loaded.postings.reduce((n, i) => n + sizeOf(path.join(modules, `postings/${i}.mjs`)), 0)
        + m.loaded.chunks.reduce((n, s) => n + sizeOf(path.join(modules, `chunks/${s}.mjs`)), 0)
    const dirBytes = (dir: string): number => fs.readdirSync(dir).reduce((n, f) => n + sizeOf(path.join(dir, f)), 0)
    return {
      skills: m.sizes[0],
      runs,
      manifestMs: round(m.manifestMs),
      phases: {
        entry: round(m.phases.entry),
        registry: round(m.phases.registry),
        findSkills: round(m.phases.findSkills),
      },
      naiveMs: round(m.naiveMs),
      speedup: round(m.naiveMs / m.manifestMs),
      manifestCpuMs: round(m.manifestCpuMs),
      naiveCpuMs: round(m.naiveCpuMs),
      cpuSpeedup: round(m.naiveCpuMs / m.manifestCpuMs),
      manifestHeapBytes: m.manifestHeapBytes,
      naiveHeapBytes: m.naiveHeapBytes,
      entryBytes: sizeOf(path.join(modules, 'main.mjs')),
      indexHeadBytes: sizeOf(path.join(modules, 'index.mjs')),
      partsBytes,
      partsLoaded:
        `${m.loaded.postings.length}/${index.postings.length} postings shards, `
        + `${m.loaded.chunks.length}/${index.skills.length} chunk records`,
      indexTotalBytes:
        sizeOf(path.join(modules, 'index.mjs'))
        + dirBytes(path.join(modules, 'postings'))
        + dirBytes(path.join(modules, 'chunks')),
      summaryFieldBytes: Object.entries(fieldBytes(summarizeManifest(manifest).skills))
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    }
  }
  finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/** CLI: `tsx --expose-gc bench/startup.ts [--json]` on the 1,000-skill synthetic corpus (bench/corpus.ts). */
async function main(): Promise<void> {
  const { generateCorpus } = await import('./corpus')
  const { SkillsEngine } = await import('../src/audit/engine')
  const here = path.dirname(fileURLToPath(import.meta.url))
  const corpus = generateCorpus(path.join(here, '.corpus', 's1000'), { skills: 1000 })
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-startup-manifest-'))
  try {
    const manifestPath = path.join(tmp, 'skills_manifest.json')
    const audit = await new SkillsEngine({ root: corpus.dir, lock: false }, { content: true }).audit()
    fs.writeFileSync(manifestPath, (await audit.complete()).json)
    const result = await runStartupBench({ corpusDir: corpus.dir, manifestPath })
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(result, null, 2))
      return
    }
    const mb = (b: number | null) => (b === null ? 'n/a (run with --expose-gc)' : `${(b / 1048576).toFixed(2)} MB`)
    console.log(`startup, ${result.skills} skills (median of ${result.runs}, alternating):`)
    console.log(`  pre-compiled modules: ${result.manifestMs} ms, retained heap ${mb(result.manifestHeapBytes)}`)
    console.log(
      `    steps (medians): import entry ${result.phases.entry} ms, registry ${result.phases.registry} ms, `
      + `first findSkills ${result.phases.findSkills} ms`,
    )
    console.log(
      `    imported: entry ${mb(result.entryBytes)} + index head ${mb(result.indexHeadBytes)} `
      + `+ parts ${mb(result.partsBytes)} (${result.partsLoaded}; all discovery modules ${mb(result.indexTotalBytes)})`,
    )
    console.log(`  naive gray-matter walk + BM25:  ${result.naiveMs} ms, retained heap ${mb(result.naiveHeapBytes)}`)
    console.log(
      `  speedup: ${result.speedup}x (target >= 20x); `
      + `CPU time ${result.manifestCpuMs} ms vs ${result.naiveCpuMs} ms, ${result.cpuSpeedup}x`,
    )
    console.log(
      `  summary fields as JSON (the entry ships them as columns): ${result.summaryFieldBytes
        .split(' ')
        .slice(0, 6)
        .map((kv) => {
          const [k, v] = kv.split('=')
          return `${k} ${mb(Number(v))}`
        })
        .join(', ')}`,
    )
  }
  finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await main()
