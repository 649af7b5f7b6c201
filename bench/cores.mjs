/**
 * `node bench/cores.mjs`: how much two threads get out of this machine's cores. The same loop runs on
 * one thread, then on two threads started together (a barrier); on two real cores each thread keeps its
 * solo time, on hyperthread siblings or a throttled VM each takes up to twice as long. The parallel
 * engine (options.workers) can only gain what this shows. Prints JSON; asserts nothing.
 */
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

const LOOPS = {
  // SHA-256 of a 1 MB buffer, again and again: the floor's work, minus the reads.
  hash: () => {
    const data = Buffer.alloc(1 << 20, 7)
    return () => {
      for (let r = 0; r < 300; r++) createHash('sha256').update(data).digest()
    }
  },
  // A rolling key into a 128 KB table over a 256 KB text: the scanner prefilter's access pattern.
  lookup: () => {
    const table = new Uint8Array(1 << 17).map((_, i) => (i * 2654435761) >>> 24)
    const text = new Uint8Array(1 << 18).map((_, i) => (i * 7919 + (i >> 9)) & 255)
    return () => {
      let h = 0
      let acc = 0
      for (let r = 0; r < 600; r++) {
        for (let i = 0; i < text.length; i++) {
          h = ((h << 6) | text[i]) & 0x1FFFF
          acc += table[h]
        }
      }
      return acc
    }
  },
}
const prepare = kind => LOOPS[kind]()
function timed(fn) {
  const t = performance.now()
  fn()
  return performance.now() - t
}
function together(kind, sab) {
  const fn = prepare(kind)
  const flag = new Int32Array(sab)
  Atomics.add(flag, 0, 1)
  while (Atomics.load(flag, 0) < 2) {
    // Spin rather than wait: both threads must leave the barrier at the same moment.
  }
  return timed(fn)
}

if (!isMainThread) {
  parentPort.postMessage(together(workerData.kind, workerData.sab))
}
else {
  const out = {}
  for (const kind of ['hash', 'lookup']) {
    const solo = timed(prepare(kind))
    const sab = new SharedArrayBuffer(4)
    const worker = new Worker(new URL(import.meta.url), { workerData: { kind, sab } })
    const theirs = new Promise(resolve => worker.once('message', resolve))
    const mine = together(kind, sab)
    const both = Math.max(mine, await theirs)
    // Work done per unit of time by two threads, relative to one: 2 on two real cores, 1 on one.
    out[kind] = {
      soloMs: Math.round(solo),
      twoThreadsMs: Math.round(both),
      throughput: Number(((2 * solo) / both).toFixed(2)),
    }
  }
  console.log(JSON.stringify(out))
}
