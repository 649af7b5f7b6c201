import type { SkillFile, SkillSource } from '../src/core/types'
/**
 * `npx tsx bench/scanner.ts`: the scanner's cost against the read + SHA-256 floor of the same files,
 * both measured in this process and run (the machine may be shared: only the ratio is meaningful).
 *   --skills=N     corpus size (default 1000, the project's benchmark corpus)
 *   --runs=N       repetitions, the median is reported (default 3)
 *   --impl=PATH    scan with another copy of src/scanner/index.ts (A/B against an older version)
 *   --profile=FILE write a V8 CPU profile of one scan pass (open it in Chrome DevTools)
 * Prints; asserts nothing.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { Session } from 'node:inspector'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { listSkill, readEntry } from '../src/audit/read'
import { parseFrontmatter } from '../src/core/frontmatter'
import { resolveOptions } from '../src/core/options'
import { CORPUS, loadSkill } from '../test/scanner/corpus'
import { generateCorpus } from './corpus'

const here = path.dirname(fileURLToPath(import.meta.url))
function arg(name: string): string | undefined {
  return process.argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3)
}
const skills = Number(arg('skills') ?? 1000)
const runs = Number(arg('runs') ?? 3)
const impl = arg('impl')
const profileFile = arg('profile')

type Scan = (skill: SkillSource, options: ReturnType<typeof resolveOptions>['scanner']) => { diagnostics: unknown[] }
const { scanSkill } = (await import(impl ? pathToFileURL(path.resolve(impl)).href : '../src/scanner/index')) as {
  scanSkill: Scan
}
const options = resolveOptions({}).scanner

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
function time(fn: () => void): number {
  const t = performance.now()
  fn()
  return performance.now() - t
}
const MB = 1024 * 1024

/** SkillSource objects built with the engine's own walk/read/frontmatter code (outside any timing). */
function load(dir: string): SkillSource[] {
  const root = path.join(dir, 'skills')
  return fs
    .readdirSync(root)
    .sort()
    .map((name) => {
      const skillDir = path.join(root, name)
      const relDir = `skills/${name}`
      const listing = listSkill(skillDir, relDir, name)
      const files = listing.entries.map(e => readEntry(e, relDir, name, [])).filter((f): f is SkillFile => !!f)
      const skillMd = files.find(f => f.path === 'SKILL.md')!
      const parsed = parseFrontmatter(skillMd.text ?? '')
      return {
        name,
        dirName: name,
        dir: skillDir,
        relDir,
        source: relDir,
        files,
        skillMd,
        frontmatter: parsed.data ?? {},
        frontmatterOk: parsed.data !== null,
        body: parsed.body,
        bodyLine: parsed.bodyLine,
        locate: parsed.locate,
      }
    })
}

function textBytes(list: SkillSource[]): number {
  return list.reduce((n, s) => n + s.files.reduce((m, f) => m + (f.text === null ? 0 : f.size), 0), 0)
}

async function profile(list: SkillSource[], file: string): Promise<void> {
  const session = new Session()
  session.connect()
  const post = (method: string, params?: object): Promise<any> =>
    new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))))
  await post('Profiler.enable')
  await post('Profiler.setSamplingInterval', { interval: 200 })
  await post('Profiler.start')
  for (const s of list) scanSkill(s, options)
  const { profile: p } = await post('Profiler.stop')
  fs.writeFileSync(file, JSON.stringify(p))
  session.disconnect()
  console.log(`CPU profile written to ${file}`)
}

const corpus = generateCorpus(path.join(here, '.corpus', `s${skills}`), { skills })
const list = load(corpus.dir)
function floor(): void {
  for (const p of corpus.paths) createHash('sha256').update(fs.readFileSync(p)).digest('hex')
}
function scanAll(): void {
  for (const s of list) scanSkill(s, options)
}
floor()
scanAll() // warm-up: JIT, page cache, lazily compiled tables

const floors: number[] = []
const scans: number[] = []
for (let i = 0; i < runs; i++) {
  floors.push(time(floor))
  scans.push(time(scanAll))
}
const f = median(floors)
const s = median(scans)
const bytes = textBytes(list)
console.log(`scanner: ${impl ?? 'src/scanner'}`)
console.log(
  `corpus: ${corpus.skills} skills, ${corpus.files} files, ${(corpus.bytes / MB).toFixed(1)} MB `
  + `(${(bytes / MB).toFixed(1)} MB of text scanned)`,
)
console.log(
  `floor (read + SHA-256 every file): ${f.toFixed(0)} ms   [runs: ${floors.map(x => x.toFixed(0)).join(', ')}]`,
)
console.log(
  `scanSkill over ${list.length} skills:   ${s.toFixed(0)} ms   [runs: ${scans.map(x => x.toFixed(0)).join(', ')}]`,
)
console.log(`scanner throughput: ${(bytes / MB / (s / 1000)).toFixed(0)} MB/s`)
console.log(`ratio scan / floor: ${(s / f).toFixed(2)}x   (target <= 1x)`)

// The labelled corpus: real-world-like skills, many of them hostile.
const labelled: SkillSource[] = []
for (const group of ['malicious', 'benign']) {
  const base = path.join(CORPUS, group)
  for (const a of fs.readdirSync(base).sort()) {
    const p = path.join(base, a)
    if (group === 'benign') {
      labelled.push(loadSkill(p))
    }
    else {
      for (const b of fs.readdirSync(p).sort()) labelled.push(loadSkill(path.join(p, b)))
    }
  }
}
const lbytes = textBytes(labelled)
function lscan(): void {
  for (const x of labelled) scanSkill(x, options)
}
lscan()
const ltimes: number[] = []
for (let i = 0; i < Math.max(runs, 5); i++) ltimes.push(time(lscan))
const l = median(ltimes)
console.log(
  `labelled corpus (test/fixtures/scanner): ${labelled.length} skills, ${(lbytes / 1024).toFixed(0)} KB of text: `
  + `${l.toFixed(1)} ms, ${(lbytes / MB / (l / 1000)).toFixed(1)} MB/s`,
)

if (profileFile)
  await profile(list, profileFile)
