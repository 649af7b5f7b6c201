import type { MessagePort } from 'node:worker_threads'
import type { ResolvedOptions } from '../../core/options'
import type { ProcessedSkill } from '../check-skill'
import type { SkillLocation } from '../discover'
import type { CheckHere, Scheduled, Scheduler } from './index'
import fs from 'node:fs'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { inline } from './index'

/** What a worker needs to audit a skill as the main thread would: options without functions, the lock's text. */
export interface PortableSettings {
  options: ResolvedOptions
  customSchema: Record<string, unknown> | null
  /** The lock as read by the main thread, when it parsed (a worker parses the same text). */
  lock: { text: string, display: string } | null
  content: boolean
  scan: boolean
}

/** A job's answer; `skill` null: the worker could not audit it, the main thread does. */
export interface PoolResult {
  id: number
  skill: ProcessedSkill | null
}

interface Thread {
  worker: Worker
  port: MessagePort
  pending: Set<number>
  exited: boolean
}

/**
 * A worker's young generation, in MB (V8's default is 48, as on the main thread). A worker holds one
 * skill's texts at a time: half the default lowers the peak memory of a large check, not its speed.
 */
const YOUNG_MB = 24

/** Jobs handed to a worker ahead of its answers: one running, one waiting, so it never idles between messages. */
const AHEAD = 2

/**
 * How long a pool outlives its audit, idle, for the next cold audit in this process (a bundler's next
 * build, a test run, a CLI command that audits twice): a fresh worker spends a while importing and
 * warming up, and its code is compiled cold. Idle workers are unref'd: they never keep the process
 * alive, and they are stopped after this long (their heap is released).
 */
const IDLE_MS = 10_000
let idle: { pool: SkillPool, timer: ReturnType<typeof setTimeout> } | null = null

/**
 * The built worker entry: beside this module in dist/, or in the package's dist/ when the engine runs
 * from its sources (tests, benches). Null when it is not there: the main thread audits every skill.
 */
function workerFile(): string | null {
  const here = import.meta.url
  const url = here.endsWith('.ts')
    ? new URL('../../../dist/skill-worker.mjs', here)
    : new URL('./skill-worker.mjs', here)
  try {
    const file = fileURLToPath(url)
    return fs.statSync(file).isFile() ? file : null
  }
  catch {
    return null
  }
}

/**
 * The process's Node options for a worker: inherited as they are (undefined), unless they hold an
 * inline script's (`node --input-type=module -e ...`), which a worker given a file stops on at once
 * ("--input-type can only be used with string input"): then the others, without those.
 */
const INLINE = /^(?:-e|--eval|-p|--print|--input-type)(?:=|$)/
function workerExecArgv(): string[] | undefined {
  const args = process.execArgv
  if (!args.some(arg => INLINE.test(arg)))
    return undefined
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (!INLINE.test(args[i]))
      out.push(args[i])
    else if (!args[i].includes('='))
      i++ // its value
  }
  return out
}

/**
 * Worker threads that audit skills alongside the main thread. The main thread offers each skill to a
 * worker with room and audits it itself otherwise, so the load balances by itself; answers are polled
 * between skills without yielding. A worker that dies costs time, never a result: its jobs come back
 * with `skill: null` and the main thread audits them.
 */
export class SkillPool {
  private readonly threads: Thread[] = []

  /**
   * `count` workers, or null when there is no worker entry or the settings cannot cross threads
   * (functions in them).
   */
  static open(count: number, settings: PortableSettings): SkillPool | null {
    if (count < 1)
      return null
    const reused = SkillPool.reuse(count, settings)
    if (reused !== undefined)
      return reused
    const file = workerFile()
    if (!file)
      return null
    const pool = new SkillPool()
    try {
      for (let i = 0; i < count; i++) pool.start(file, settings)
      return pool
    }
    catch {
      // Settings that cannot be cloned (a DataCloneError from the Worker constructor), or no thread to be
      // had: the threads already started are stopped, not kept idle.
      pool.terminate()
      return null
    }
  }

  private constructor() {}

  /**
   * The idle pool, handed this audit's settings; null when they cannot cross; undefined when there is
   * none to reuse.
   */
  private static reuse(count: number, settings: PortableSettings): SkillPool | null | undefined {
    if (!idle)
      return undefined
    const { pool, timer } = idle
    idle = null
    clearTimeout(timer)
    if (pool.threads.length !== count || pool.threads.some(t => t.exited)) {
      pool.terminate()
      return undefined
    }
    try {
      // A settings message goes before every job (ports are ordered); the first one tells whether they can
      // be cloned at all.
      for (const t of pool.threads) t.port.postMessage({ settings })
    }
    catch {
      pool.terminate()
      return null
    }
    for (const t of pool.threads) {
      t.worker.ref()
      t.port.ref()
    }
    return pool
  }

  private start(file: string, settings: PortableSettings): void {
    const { port1, port2 } = new MessageChannel()
    let worker: Worker
    const create = (execArgv: string[] | undefined): Worker =>
      new Worker(file, {
        workerData: { port: port2, settings },
        transferList: [port2],
        execArgv,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB },
      })
    try {
      const execArgv = workerExecArgv()
      try {
        worker = create(execArgv)
      }
      catch (error) {
        // Options given explicitly are checked, and some are the process's only (--expose-gc): none then.
        if (!execArgv || (error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV')
          throw error
        worker = create([])
      }
    }
    catch (error) {
      port1.close()
      throw error
    }
    const thread: Thread = { worker, port: port1, pending: new Set(), exited: false }
    worker.on('error', () => {})
    worker.on('exit', () => (thread.exited = true))
    this.threads.push(thread)
  }

  /** Hands a skill to a worker with room; false when every worker is busy (the caller audits it). */
  offer(id: number, location: SkillLocation): boolean {
    for (const t of this.threads) {
      if (t.exited || t.pending.size >= AHEAD)
        continue
      t.pending.add(id)
      t.port.postMessage({ id, location })
      return true
    }
    return false
  }

  /** Answers that have arrived, without waiting. */
  poll(): PoolResult[] {
    const out: PoolResult[] = []
    for (const t of this.threads) {
      for (let m = receiveMessageOnPort(t.port); m; m = receiveMessageOnPort(t.port)) {
        const result = m.message as PoolResult
        t.pending.delete(result.id)
        out.push(result)
      }
    }
    return out
  }

  /** Waits for every outstanding answer (a worker that exits answers its jobs with null). The caller then `close`s. */
  async drain(): Promise<PoolResult[]> {
    const out = this.poll()
    await Promise.all(this.threads.map(t => answered(t, out)))
    return out
  }

  /**
   * Ends this audit's use: workers with nothing pending wait idle for the next audit (`IDLE_MS`); others
   * are stopped.
   */
  close(): void {
    if (idle?.pool === this)
      return
    if (idle || !this.threads.length || this.threads.some(t => t.exited || t.pending.size))
      return this.terminate()
    for (const t of this.threads) {
      t.worker.unref()
      t.port.unref()
    }
    const timer = setTimeout(() => {
      if (idle?.pool === this)
        idle = null
      this.terminate()
    }, IDLE_MS)
    timer.unref()
    idle = { pool: this, timer }
  }

  private terminate(): void {
    for (const t of this.threads) {
      t.port.close()
      void t.worker.terminate()
    }
  }
}

/** Settles once every job of `t` is answered (into `out`); a worker that exits answers the rest with null. */
function answered(t: Thread, out: PoolResult[]): Promise<void> {
  return new Promise((resolve) => {
    function settle(): void {
      if (t.pending.size && !t.exited)
        return
      for (const id of t.pending) out.push({ id, skill: null })
      t.pending.clear()
      t.port.off('message', onMessage)
      t.worker.off('exit', settle)
      resolve()
    }
    function onMessage(result: PoolResult): void {
      t.pending.delete(result.id)
      out.push(result)
      settle()
    }
    t.port.on('message', onMessage)
    t.worker.on('exit', settle)
    settle()
  })
}

/**
 * The scheduler over a pool of `count` workers: each skill goes to a worker with room, or is checked
 * here, so the load balances by itself; answers are collected between skills without yielding. Without
 * a pool (no worker entry, settings that cannot cross threads) every skill is checked here.
 */
export class PoolScheduler implements Scheduler {
  constructor(
    private readonly count: number,
    private readonly settings: PortableSettings,
  ) {}

  async run(locations: readonly SkillLocation[], checkHere: CheckHere): Promise<Scheduled> {
    const pool = SkillPool.open(this.count, this.settings)
    if (!pool)
      return inline.run(locations, checkHere)
    const skills: ProcessedSkill[] = new Array(locations.length)
    let elsewhere = 0
    const here = async (i: number): Promise<void> => {
      const skill = checkHere(locations[i]!)
      skills[i] = skill instanceof Promise ? await skill : skill
    }
    const receive = async (answers: PoolResult[]): Promise<void> => {
      for (const { id, skill } of answers) {
        // A job a worker could not finish is checked here.
        if (skill) {
          elsewhere++
          skills[id] = skill
        }
        else {
          await here(id)
        }
      }
    }
    try {
      for (let i = 0; i < locations.length; i++) {
        await receive(pool.poll())
        if (!pool.offer(i, locations[i]!))
          await here(i)
      }
      await receive(await pool.drain())
    }
    finally {
      pool.close()
    }
    return { skills, elsewhere }
  }
}
