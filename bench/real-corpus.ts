/**
 * `npm run bench -- --corpus DIR`: the check on real skill packs (copies of public packs in a local folder,
 * never committed). Each DIR is one project: root DIR, every skill under it (`roots: ['.']`), profile
 * agentskills, no lock. Printed: the read + hash floor, the check without and with the persistent cache, each
 * as a whole process, and in-process the time of each phase and rule.
 */
import fs from 'node:fs'
import path from 'node:path'
import { SkillsEngine } from '../src/audit/engine'
import { formatTimings, startTimings, stopTimings } from '../src/core/timings'
import { FLOOR_SCRIPT, mb, median, ms, processWall } from './measure'

type Row = (name: string, value: string, target?: string) => void

/** Where a DIR's bench files go (config, file list, cache, report): the bench's ignored folder, never DIR. */
function workFiles(dir: string, scratch: string): { config: string, list: string, cache: string, report: string } {
  const id = path.basename(dir).replace(/\W+/g, '-')
  const base = path.join(scratch, `real-${id}`)
  return {
    config: `${base}.config.json`,
    list: `${base}.files.json`,
    cache: `${base}.cache`,
    report: `${base}.report.json`,
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now()
  const value = await fn()
  return [performance.now() - start, value]
}

export async function realCorpusBench(
  dirs: readonly string[],
  scratch: string,
  cli: string,
  row: Row,
  skillCheck?: string,
): Promise<void> {
  for (const given of dirs) {
    const dir = path.resolve(given)
    console.log(`\n# Real packs: ${dir}`)
    const files = workFiles(dir, scratch)
    fs.mkdirSync(scratch, { recursive: true })
    const options = { root: dir, roots: ['.'], profile: 'agentskills' as const, lock: false as const }
    fs.writeFileSync(files.config, JSON.stringify({ ...options, root: undefined, cacheDir: files.cache }))

    // In-process, no cache: what the files are, and where a check spends its time (as `check --timings`).
    startTimings()
    const [full, result] = await timed(() => new SkillsEngine({ ...options, cache: false }, { content: false }).audit())
    const phases = formatTimings(stopTimings(), full)
    const [unscanned] = await timed(() =>
      new SkillsEngine({ ...options, cache: false }, { content: false, scan: false }).audit())
    const paths = result.manifest.skills.flatMap(s => s.files.map(f => path.join(dir, s.path, f.path)))
    fs.writeFileSync(files.list, JSON.stringify(paths))
    row('corpus', `${result.stats.skills} skills, ${result.stats.files} files, ${mb(result.stats.bytes)}`)
    row('in-process: check without the scanner', ms(unscanned))
    row('in-process: full check', ms(full), `scanner ${ms(full - unscanned)}`)
    console.log(`\n${phases.replace(/^/gm, '  ')}\n`)

    const check = [cli, 'check', '--cwd', dir, '-c', files.config, '--format', 'json', '--output', files.report]
    const floors: number[] = []
    const colds: number[] = []
    const warms: number[] = []
    const lints: number[] = []
    for (let i = 0; i < 3; i++) {
      floors.push(processWall(['--input-type=module', '-e', FLOOR_SCRIPT, files.list], dir))
      colds.push(processWall([...check, '--no-cache'], dir, [0, 1]))
      if (skillCheck)
        lints.push(processWall([skillCheck, 'check', dir, '--no-security-scan', '--format', 'json'], dir, [0, 1]))
    }
    fs.rmSync(files.cache, { recursive: true, force: true })
    const filling = processWall(check, dir, [0, 1])
    for (let i = 0; i < 5; i++) {
      floors.push(processWall(['--input-type=module', '-e', FLOOR_SCRIPT, files.list], dir))
      warms.push(processWall(check, dir, [0, 1]))
    }
    const floor = median(floors)
    const x = (v: number): string => `${(v / floor).toFixed(2)}x the floor as a process`
    row('the floor as a process (node, read + SHA-256 every file, exit)', ms(floor))
    row('`unplugin-skills check --no-cache` as a process', ms(median(colds)), x(median(colds)))
    if (skillCheck) {
      const lint = median(lints)
      row('`skill-check check --no-security-scan` as a process', ms(lint), x(lint))
      row('  cold check against it (target <= 1x)', `${(median(colds) / lint).toFixed(2)}x`)
    }
    row('  first run with an empty cache (fills it)', ms(filling), x(filling))
    row('`unplugin-skills check`, warm cache, as a process', ms(median(warms)), `${x(median(warms))} (target <= 2x)`)
    row('  cache size', mb(dirBytes(files.cache)))
  }
}

function dirBytes(dir: string): number {
  let total = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      total += fs.statSync(path.join(entry.parentPath, entry.name)).size
  }
  return total
}
