/**
 * Worker thread entry (`SkillPool`): audits the skills the main thread hands it, with the same code
 * the main thread runs, and answers each with its `ProcessedSkill` (plain data, structured clone).
 */
import type { MessagePort } from 'node:worker_threads'
import type { SkillLocation } from '../discover'
import type { LockRead } from '../lockfile'
import type { PortableSettings } from './pool'
import { workerData } from 'node:worker_threads'
import { processSkill, readHead } from '../check-skill'
import { parseLock } from '../lockfile'
import { ResultCache } from '../result-cache'
import { loadScanner } from '../scanner-load'
import { warmUp } from './warm-up'

const { port } = workerData as { port: MessagePort, settings: PortableSettings }
let settings: PortableSettings
let lock: LockRead | null
let warm = false
/** The persistent cache of these settings: entries are files, shared safely with the main thread and others. */
let results: ResultCache | null = null

/** This audit's settings: at start, and again when the pool is reused by a later audit in the process. */
function configure(next: PortableSettings): void {
  settings = next
  lock = next.lock ? parseLock(next.lock.text, next.lock.display) : null
  const { cache, cacheDir } = next.options
  results = cache ? (results?.dir === cacheDir ? results : new ResultCache(cacheDir)) : null
  // Once per worker (a reused one is warm). Jobs wait in the port meanwhile; the main thread audits
  // skills itself until this worker has room.
  if (warm || !next.scan)
    return
  warm = true
  try {
    warmUp({
      options: next.options,
      lock: null,
      content: next.content,
      scan: true,
      customSchema: next.customSchema,
    })
  }
  catch {}
}
type Message = { id: number, location: SkillLocation } | { settings: PortableSettings }

// A worker checks cold audits: it scans, so it loads the scanner first. Messages that arrive meanwhile wait
// for it, in order.
const ready = loadScanner().then(() => configure((workerData as { settings: PortableSettings }).settings))
// Without a scanner (it failed to load), every job goes back to the main thread.
const unable = (message: Message): void => void ('id' in message && port.postMessage({ id: message.id, skill: null }))
port.on('message', (message: Message) => void ready.then(() => handle(message), () => unable(message)))

function handle(message: Message): void {
  if ('settings' in message)
    return configure(message.settings)
  const { id, location } = message
  try {
    const head = readHead(location)
    const skill = processSkill(head, {
      options: settings.options,
      lock,
      content: settings.content,
      scan: settings.scan,
      customSchema: settings.customSchema,
      cache: results,
    })
    port.postMessage({ id, skill })
  }
  catch {
    // The main thread audits this skill itself, and reports whatever goes wrong there.
    port.postMessage({ id, skill: null })
  }
}
