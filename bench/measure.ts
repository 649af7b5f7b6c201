/** What the benches share: medians, formatting, and timing a whole `node` process against the floor's. */
import { spawnSync } from 'node:child_process'
import process from 'node:process'

export const ms = (n: number): string => `${n.toFixed(n < 10 ? 2 : 0)} ms`
export const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** The floor's own code over the files listed in argv[1] (JSON): it prints the ms of its read + hash loop. */
export const FLOOR_SCRIPT = `const { createHash } = await import('node:crypto')
const fs = await import('node:fs')
const paths = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'))
const t = performance.now()
for (const file of paths) createHash('sha256').update(fs.readFileSync(file)).digest('hex')
console.log(performance.now() - t)`

/**
 * Wall time of a whole `node` process, from spawn to exit (startup, imports and exit included); `ok` lists
 * the exit codes expected.
 */
export function processWall(args: string[], cwd: string, ok: number[] = [0]): number {
  const start = performance.now()
  const child = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  const wall = performance.now() - start
  if (!ok.includes(child.status ?? -1))
    throw new Error(`node ${args[0]} exited with ${child.status}: ${child.stderr}`)
  return wall
}
