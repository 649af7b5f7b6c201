/**
 * `npm run bench`: figures and ratios against baselines measured in the same process and run.
 * Nothing here asserts: it prints. Targets are shown next to each figure.
 */
import { Buffer } from 'node:buffer'
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { SkillsEngine } from '../src/audit/engine'
import { resolveOptions } from '../src/core/options'
import { generateCorpus } from './corpus'
import { FLOOR_SCRIPT, mb, median, ms, processWall } from './measure'
import { realCorpusBench } from './real-corpus'

const here = path.dirname(fileURLToPath(import.meta.url))
const corpusRoot = path.join(here, '.corpus')
const args = new Set(process.argv.slice(2))
const only = (name: string): boolean => ![...args].some(a => a.startsWith('--only')) || args.has(`--only=${name}`)
/** `--corpus DIR` (repeatable): real packs, benched first (bench/real-corpus.ts). */
const corpora = process.argv.slice(2).flatMap((a, i, all) =>
  a === '--corpus' ? [all[i + 1]!] : a.startsWith('--corpus=') ? [a.slice('--corpus='.length)] : [])
/**
 * `--skill-check FILE`: the `skill-check` linter's bin (`npm i skill-check` somewhere outside the repo), timed on
 * each corpus beside the cold check (its lint only: `check DIR --no-security-scan`).
 */
const skillCheck = process.argv.slice(2).find((a, i, all) => all[i - 1] === '--skill-check')

async function time(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}
const rows: Array<[string, string, string]> = []
function row(name: string, value: string, target = ''): void {
  rows.push([name, value, target])
  console.log(`  ${name.padEnd(58)} ${value.padStart(14)}  ${target}`)
}

/**
 * One audit with the built package in a fresh `node` process (no tsx, no warm JIT): its wall time and
 * the process's peak RSS. `workers: 'default'` leaves the option unset.
 */
function distAudit(
  mode: 'check' | 'build',
  root: string,
  workers: number | 'default',
  lock: 'verify' | false,
): { ms: number, maxRSS: number } {
  const script = `const { SkillsEngine } = await import(${JSON.stringify(path.join(here, '../dist/index.mjs'))})
const { mode, root, workers, lock } = JSON.parse(process.argv[1])
const t = performance.now()
const r = await new SkillsEngine(
  { root, lock, ci: false, cache: false, workers: workers === 'default' ? undefined : workers },
  { content: mode === 'build' },
).audit()
if (mode === 'build') (await r.complete()).json.length
console.log(JSON.stringify({ ms: performance.now() - t, maxRSS: process.resourceUsage().maxRSS * 1024 }))`
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify({ mode, root, workers, lock })],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  )
  return JSON.parse(out.trim().split('\n').at(-1)!)
}

/** The floor run first thing in a fresh `node` process (cold allocator and JIT, as a CLI run starts): its loop's ms. */
function freshFloor(list: string): number {
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', FLOOR_SCRIPT, list], { encoding: 'utf8' }).trim(),
  )
}

async function engineBench(): Promise<void> {
  console.log('\n# Engine (1,000 skills)')
  const corpus = generateCorpus(path.join(corpusRoot, 's1000'), { skills: 1000 })
  row('corpus', `${corpus.files} files, ${mb(corpus.bytes)}`)
  // No persistent cache in-process: these are figures of checks that do the work (the warm cache is timed below).
  const options = { root: corpus.dir, lock: 'verify' as const, ci: false, cache: false }
  await new SkillsEngine(options, { content: false }).audit() // writes the lock once; warms the page cache
  // The floor: the same files, read and SHA-256-hashed in this process, nothing else.
  const floorOf = (paths: string[]) => (): void => {
    for (const file of paths) createHash('sha256').update(fs.readFileSync(file)).digest('hex')
  }
  const floor = floorOf(corpus.paths)
  // The default audits inline (`workers: 0`); `workers: 1` shares the skills with one worker thread.
  const single = { ...options, workers: resolveOptions({}).workers }
  const pooled = { ...options, workers: 1 }
  const floors: number[] = []
  const audits: number[] = []
  const auditCpu: number[] = []
  const audits1: number[] = []
  const unscanned1: number[] = []
  for (let i = 0; i < 5; i++) {
    floors.push(await time(floor))
    const cpu = process.cpuUsage()
    audits.push(await time(() => new SkillsEngine(pooled, { content: false }).audit()))
    const used = process.cpuUsage(cpu)
    auditCpu.push((used.user + used.system) / 1000)
    audits1.push(await time(() => new SkillsEngine(single, { content: false }).audit()))
    unscanned1.push(await time(() => new SkillsEngine(single, { content: false, scan: false }).audit()))
  }
  const f = median(floors)
  const x = (v: number): string => `${(v / f).toFixed(2)}x floor`
  row('floor: read + SHA-256 every file (one thread)', ms(f))
  row('audit without the scanner (main thread only)', ms(median(unscanned1)), `${x(median(unscanned1))} (target <= 2x)`)
  row('full check, default: inline (workers: 0)', ms(median(audits1)), `${x(median(audits1))} (target <= 3x)`)
  // The pool outlives each audit for the next one (src/audit/scheduler/pool.ts): these audits get a warm worker;
  // a CLI run's is cold (below).
  row('full check, workers: 1 (warm)', ms(median(audits)), x(median(audits)))
  row('  CPU time of that check, all threads', ms(median(auditCpu)), x(median(auditCpu)))
  row('scanner share of the check, main thread only', ms(median(audits1) - median(unscanned1)))
  const warm = new SkillsEngine(options, { content: true })
  await warm.audit()
  // One after the other: audits started together interleave, and each would time the others too.
  const unchanged: number[] = []
  for (let i = 0; i < 3; i++) unchanged.push(await time(() => warm.audit()))
  row('re-audit, nothing changed (stat walk only)', ms(median(unchanged)))
  const edited = path.join(corpus.dir, 'skills/skill-00500/references/guide.md')
  const original = fs.readFileSync(edited)
  const edits: number[] = []
  for (let i = 0; i < 5; i++) {
    fs.writeFileSync(edited, Buffer.concat([original, Buffer.from(`\nedit ${i}\n`)]))
    edits.push(await time(() => warm.audit({ changed: [edited], mode: 'dev' })))
  }
  fs.writeFileSync(edited, original)
  await warm.audit({ changed: [edited] })
  row('re-audit after editing one file (changed path known)', ms(median(edits)), 'target <= 50 ms')

  // What a CLI run pays: the first audit in a fresh process (cold JIT, and a worker that starts cold too).
  const colds: Record<string, number[]> = { 0: [], 1: [] }
  const freshFloors: number[] = []
  const list = path.join(corpusRoot, 'floor-paths.json')
  fs.writeFileSync(list, JSON.stringify(corpus.paths))
  for (let i = 0; i < 3; i++) {
    colds['0']!.push(distAudit('check', corpus.dir, 0, 'verify').ms)
    colds['1']!.push(distAudit('check', corpus.dir, 1, 'verify').ms)
    freshFloors.push(freshFloor(list))
  }
  // For context only: the target is against the floor above. The same floor code pays a fresh process's cold costs too.
  const ff = median(freshFloors)
  const xf = (v: number): string => `${x(v)}; ${(v / ff).toFixed(2)}x the fresh floor`
  row('first audit in a fresh process, default (inline)', ms(median(colds['0']!)), xf(median(colds['0']!)))
  row('first audit in a fresh process, workers: 1', ms(median(colds['1']!)), xf(median(colds['1']!)))
  row('  the floor, first thing in a fresh process (context)', ms(ff), x(ff))

  const asProcess = cliAgainstFloor(corpus.dir, list)
  row(
    '`unplugin-skills check` as a process (wall, start to exit)',
    ms(asProcess.cli),
    `${(asProcess.cli / asProcess.floor).toFixed(2)}x the floor as a process (target <= 3x)`,
  )
  row(
    '  the same, warm persistent cache',
    ms(asProcess.warm),
    `${(asProcess.warm / asProcess.floor).toFixed(2)}x the floor as a process (target <= 2x)`,
  )
  row('  the floor as a process (wall: node, read + SHA-256, exit)', ms(asProcess.floor))

  // The same corpus with the characters above U+00FF real skills hold (bench/corpus.ts): a text with one
  // decodes to a two-byte string in V8 (twice the memory; over 65,528 characters, 7% of these files, a large
  // object allocated on its own), and every stage reads it as it is. Only the scanner's finder copies a text
  // into bytes for its tables, privately (src/scanner/finder/kernel.ts).
  const wide = generateCorpus(path.join(corpusRoot, 's1000-unicode'), { skills: 1000, unicode: true })
  const wideOptions = { root: wide.dir, lock: 'verify' as const, ci: false, cache: false }
  await new SkillsEngine(wideOptions, { content: false }).audit()
  const wideFloors: number[] = []
  const wideSingle: number[] = []
  const wideDefault: number[] = []
  for (let i = 0; i < 3; i++) {
    wideFloors.push(await time(floorOf(wide.paths)))
    wideSingle.push(await time(() => new SkillsEngine({ ...wideOptions, workers: 0 }, { content: false }).audit()))
    wideDefault.push(await time(() => new SkillsEngine({ ...wideOptions, workers: 1 }, { content: false }).audit()))
  }
  const wf = median(wideFloors)
  const xw = (v: number): string => `${(v / wf).toFixed(2)}x its floor`
  row('real-world text (1.4 chars above U+00FF per 1,000): floor', ms(wf), `${wide.files} files, ${mb(wide.bytes)}`)
  row('  full check, default: inline', ms(median(wideSingle)), `${xw(median(wideSingle))} (target <= 3x)`)
  row('  full check, workers: 1 (warm)', ms(median(wideDefault)), xw(median(wideDefault)))
  const wideList = path.join(corpusRoot, 'floor-paths-unicode.json')
  fs.writeFileSync(wideList, JSON.stringify(wide.paths))
  const wideProcess = cliAgainstFloor(wide.dir, wideList)
  row(
    '  `unplugin-skills check` as a process (wall)',
    ms(wideProcess.cli),
    `${(wideProcess.cli / wideProcess.floor).toFixed(2)}x the floor as a process, ${ms(wideProcess.floor)} `
    + '(target <= 3x)',
  )
  row(
    '  the same, warm persistent cache',
    ms(wideProcess.warm),
    `${(wideProcess.warm / wideProcess.floor).toFixed(2)}x the floor as a process (target <= 2x)`,
  )
}

/**
 * What a user times: the CLI as a process, against the floor as a process (medians of 5 pairs). Both pay
 * Node's startup, their imports, a cold heap and cold code; the floor is handed its file list (`list`),
 * the CLI discovers the skills. `cli` is without the persistent cache (`--no-cache`); `warm` is with a cache
 * a run before filled (the project's default place, emptied first). The corpora have findings on purpose: the
 * CLI exits with 1, and writes its JSON report to a file.
 */
function cliAgainstFloor(dir: string, list: string): { cli: number, warm: number, floor: number } {
  const cli = path.join(here, '../dist/cli.mjs')
  const report = path.join(corpusRoot, 'cli-report.json')
  const check = [cli, 'check', '--format', 'json', '--output', report]
  const cliWalls: number[] = []
  const floorWalls: number[] = []
  const warmWalls: number[] = []
  for (let i = 0; i < 5; i++) {
    floorWalls.push(processWall(['--input-type=module', '-e', FLOOR_SCRIPT, list], dir))
    cliWalls.push(processWall([...check, '--no-cache'], dir, [0, 1]))
  }
  fs.rmSync(path.join(dir, 'node_modules/.cache/unplugin-skills'), { recursive: true, force: true })
  processWall(check, dir, [0, 1])
  for (let i = 0; i < 5; i++) warmWalls.push(processWall(check, dir, [0, 1]))
  return { cli: median(cliWalls), warm: median(warmWalls), floor: median(floorWalls) }
}

/** Peak RSS of `unplugin-skills check --no-cache` in DIR (no lock there: a missing lock is a warning). */
function cliPeakRss(dir: string): number {
  const cli = path.join(here, '../dist/cli.mjs')
  const probe = path.join(here, 'rss-probe.mjs')
  const report = path.join(corpusRoot, 'cli-report.json')
  const run = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(probe).href, cli, 'check', '--no-cache', '-f', 'json', '-o', report],
    { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 },
  )
  const peak = /maxRSS (\d+)\s*$/.exec(run.stderr ?? '')
  if (!peak || (run.status !== 0 && run.status !== 1))
    throw new Error(`check exited with ${run.status}: ${(run.stderr ?? '').trim().split('\n')[0]}`)
  return Number(peak[1])
}

function rssBench(): void {
  console.log('\n# Memory')
  const big = generateCorpus(path.join(corpusRoot, 's10000'), { skills: 10_000, seed: 7 })
  const small = generateCorpus(path.join(corpusRoot, 's1000'), { skills: 1000 })
  row('corpus for `check`', `${big.skills} skills, ${big.files} files, ${mb(big.bytes)}`)
  // `build` embeds every text in one skills_manifest.json: at 10,000 skills that is ~2 GB of text, beyond V8's
  // maximum string length, so it is measured on the 1,000-skill corpus.
  const runs: Array<
    [mode: 'check' | 'build', corpus: typeof big, workers: number | 'default', label: string, target: string]
  > = [
    ['check', big, 'default', 'engine `check`, 10,000 skills (no embedded texts), inline', ''],
    ['check', big, 1, 'engine `check`, 10,000 skills, workers: 1', ''],
    ['build', small, 'default', '`build`, 1,000 skills (manifest with embedded texts)', ''],
  ]
  // What a user runs: the CLI, which sizes its own heap (src/bin.ts); the rows after it run the engine in a
  // plain `node`, as the plugin does inside a bundler, whose heap is the host's.
  const cliRow = 'peak RSS, `unplugin-skills check`, 10,000 skills, as a process'
  try {
    row(cliRow, mb(cliPeakRss(big.dir)), 'target < 300 MB')
  }
  catch (error) {
    row(cliRow, 'failed', String((error as Error).message).split('\n')[0])
  }
  for (const [mode, corpus, threads, label, target] of runs) {
    try {
      row(`peak RSS, ${label}`, mb(distAudit(mode, corpus.dir, threads, false).maxRSS), target)
    }
    catch (error) {
      row(`peak RSS, ${label}`, 'failed', String((error as Error).message).split('\n')[0])
    }
  }
}

async function optional(name: string, file: string, run: (mod: any) => Promise<void>): Promise<void> {
  if (!only(name))
    return
  if (!fs.existsSync(path.join(here, file))) {
    console.log(`\n# ${name}: ${file} not present, skipped`)
    return
  }
  await run(await import(`./${file}`))
}

/** Whether two threads get two cores' worth of work here: what the parallel engine can gain at most. */
function machineBench(): void {
  console.log('\n# Machine')
  const out = JSON.parse(execFileSync(process.execPath, [path.join(here, 'cores.mjs')], { encoding: 'utf8' }))
  for (const [kind, label] of [
    ['hash', 'SHA-256'],
    ['lookup', 'table lookups (prefilter-like)'],
  ] as const) {
    row(
      `two threads vs one, ${label}`,
      `${out[kind].throughput.toFixed(2)}x`,
      `work per unit of time (2.00x on two real cores)`,
    )
  }
}

if (corpora.length && (only('corpus') || args.has('--only=corpus')))
  await realCorpusBench(corpora, corpusRoot, path.join(here, '../dist/cli.mjs'), row, skillCheck)
if (only('machine'))
  machineBench()
if (only('engine'))
  await engineBench()
if (only('rss') && !args.has('--no-rss'))
  rssBench()
await optional('plugin', 'plugin.ts', async (mod) => {
  console.log('\n# Plugin (1,000 skills)')
  const figures = await mod.runPluginBench({
    corpusDir: generateCorpus(path.join(corpusRoot, 's1000'), { skills: 1000 }).dir,
  })
  for (const [name, value] of Object.entries(figures)) row(name, String(value))
})
await optional('startup', 'startup.ts', async (mod) => {
  console.log('\n# Agent startup (1,000 skills)')
  const corpus = generateCorpus(path.join(corpusRoot, 's1000'), { skills: 1000 })
  const manifestPath = path.join(corpusRoot, 's1000-manifest.json')
  const result = await new SkillsEngine({ root: corpus.dir, lock: false }, { content: true }).audit()
  fs.writeFileSync(manifestPath, (await result.complete()).json)
  const figures = await mod.runStartupBench({ corpusDir: corpus.dir, manifestPath })
  for (const [name, value] of Object.entries(figures)) row(name, String(value))
})
console.log('')
