/**
 * Where a check spends its time, by phase and by rule: `unplugin-skills check --timings` prints it (as ESLint's
 * `TIMING=1` does for its rules), and the real-pack bench reads it. Off unless asked: each phase then costs one
 * flag test. Keys are `phase` or `phase: detail` (a detail's time is part of its phase's, never added to it).
 * Skills checked by worker threads are not timed.
 */

let enabled = false
const totals = new Map<string, number>()

/** Starts timing (again, from zero). */
export function startTimings(): void {
  enabled = true
  totals.clear()
}

/** Stops timing and returns what was timed, by key, in milliseconds. */
export function stopTimings(): Map<string, number> {
  enabled = false
  return new Map(totals)
}

/** A start time when timing is on, else 0 (`endTiming` then does nothing). */
export function startTiming(): number {
  return enabled ? performance.now() : 0
}

export function endTiming(key: string, start: number): void {
  if (start)
    totals.set(key, (totals.get(key) ?? 0) + performance.now() - start)
}

/** `fn()`, timed under `key` when timing is on. */
export function timed<T>(key: string, fn: () => T): T {
  if (!enabled)
    return fn()
  const start = performance.now()
  try {
    return fn()
  }
  finally {
    endTiming(key, start)
  }
}

/** The timings as a table: phases in the order they run, each followed by its details, slowest first. */
export function formatTimings(times: ReadonlyMap<string, number>, total: number): string {
  const phases = [...times].filter(([k]) => !k.includes(': '))
  const rows: string[] = []
  const pct = (ms: number): string => `${total > 0 ? ((100 * ms) / total).toFixed(1) : '0.0'}%`.padStart(6)
  const row = (label: string, ms: number): string => `${label.padEnd(44)}${ms.toFixed(1).padStart(10)} ms ${pct(ms)}`
  rows.push(`${'phase'.padEnd(44)}${'time'.padStart(13)} ${'share'.padStart(6)}`)
  for (const [phase, ms] of phases) {
    rows.push(row(phase, ms))
    const details = [...times].filter(([k]) => k.startsWith(`${phase}: `)).sort((a, b) => b[1] - a[1])
    for (const [key, dms] of details) rows.push(row(`  ${key.slice(phase.length + 2)}`, dms))
  }
  rows.push(row('total (wall, the whole audit)', total))
  return rows.join('\n')
}
