import type { FinderTables, KernelTables, TableSink } from './tables'
/**
 * Finder tables built when the package is built, loaded instead of being built again by every process
 * and worker thread. A cold table build runs as unoptimised code, which a fresh CLI run and each worker
 * paid before their first scan. The build (`scripts/build-scanner-tables.ts`)
 * writes `dist/scanner-tables.bin` with the tables of every built-in finder, made by the same
 * `buildTables`; sources run from `src/` never read it, so a stale file cannot change what tests see.
 *
 * File: the magic, a little-endian u32 index length, the JSON index, then each finder's arrays, deflated.
 * Kernel arrays are copied into WebAssembly memory, the others into arrays of their own.
 */
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import zlib from 'node:zlib'

const MAGIC = 'unplugin-skills/scanner-tables/2'
export const STORE_FILE = 'scanner-tables.bin'

/** Arrays the sink provides (written into its memory) and arrays a stored finder gets copies of. */
const KERNEL_ARRAYS = ['filter', 'pair', 'pw', 'm3', 'm4', 'tpw', 'tbits'] as const satisfies ReadonlyArray<
  keyof KernelTables
>
const OWN_ARRAYS = ['last', 'bitTokens', 'unitTable', 'unitM3', 'unitM4'] as const satisfies ReadonlyArray<
  keyof FinderTables
>
type ArrayName = (typeof KERNEL_ARRAYS)[number] | (typeof OWN_ARRAYS)[number]

const TYPES = { Uint8Array, Uint16Array, Uint32Array, Int32Array } as const
type TypeName = keyof typeof TYPES

interface StoredArray {
  type: TypeName
  offset: number
  length: number
}
interface StoredFinder {
  /** The finder's deflated arrays in the file (after the index): offset and length. */
  at: number
  size: number
  /** Its inflated length (the inflate writes it in one piece, no concatenation). */
  inflated: number
  groups: number
  /** Offsets are in the inflated bytes. */
  arrays: Record<ArrayName, StoredArray>
  groupLists: number[][]
  unitGroupLists: number[][]
}
interface Index {
  finders: Record<string, StoredFinder>
}

/** The store's key of a finder: its tokens, in order, and its case mode. */
export function finderKey(tokens: readonly string[], ignoreCase: boolean): string {
  return JSON.stringify([ignoreCase, tokens])
}

const align8 = (n: number): number => (n + 7) & ~7

/**
 * The file's bytes for these finders (deterministic: the same tables give the same bytes). Each finder's
 * arrays are deflated on their own (~600 KB, mostly zeros, to ~10 KB), so a process inflates only the
 * finders it uses.
 */
export function encodeTableStore(
  finders: ReadonlyArray<{ tokens: readonly string[], ignoreCase: boolean, tables: FinderTables }>,
): Uint8Array {
  const index: Index = { finders: {} }
  const blobs: Uint8Array[] = []
  let at = 0
  for (const { tokens, ignoreCase, tables } of finders) {
    const arrays = {} as Record<ArrayName, StoredArray>
    const chunks: Uint8Array[] = []
    let offset = 0
    for (const name of [...KERNEL_ARRAYS, ...OWN_ARRAYS]) {
      const a = tables[name]
      arrays[name] = { type: a.constructor.name as TypeName, offset, length: a.length }
      const padded = align8(a.byteLength)
      const bytes = new Uint8Array(padded)
      bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
      chunks.push(bytes)
      offset += padded
    }
    const raw = Buffer.concat(chunks)
    const blob = zlib.deflateRawSync(raw, { level: 9 })
    blobs.push(blob)
    index.finders[finderKey(tokens, ignoreCase)] = {
      at,
      size: blob.length,
      inflated: raw.length,
      groups: tables.pw.length,
      arrays,
      groupLists: tables.groups,
      unitGroupLists: tables.unitGroups,
    }
    at += blob.length
  }
  const json = Buffer.from(JSON.stringify(index))
  const head = Buffer.alloc(4 + json.length)
  head.writeUInt32LE(json.length, 0)
  json.copy(head, 4)
  return Buffer.concat([Buffer.from(MAGIC), head, ...blobs])
}

export interface TableStore {
  /** The finder's tables, kernel arrays written into `sink(groups)`; undefined when the store does not hold it. */
  get: (tokens: readonly string[], ignoreCase: boolean, sink: TableSink) => FinderTables | undefined
  size: number
}

/**
 * A store read from the file's bytes; null when they are not a store of this version (or the machine is
 * big-endian).
 */
export function decodeTableStore(bytes: Uint8Array): TableStore | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (os.endianness() !== 'LE' || buf.length < MAGIC.length + 4 || buf.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return null
  let index: Index
  let base: number
  try {
    const length = buf.readUInt32LE(MAGIC.length)
    index = JSON.parse(buf.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + length)) as Index
    base = MAGIC.length + 4 + length
  }
  catch {
    return null
  }
  if (typeof index?.finders !== 'object' || index.finders === null)
    return null
  return {
    size: Object.keys(index.finders).length,
    get(tokens, ignoreCase, sink) {
      const key = finderKey(tokens, ignoreCase)
      const stored = Object.hasOwn(index.finders, key) ? index.finders[key]! : undefined
      if (!stored)
        return undefined
      const inflated = zlib.inflateRawSync(buf.subarray(base + stored.at, base + stored.at + stored.size), {
        chunkSize: Math.max(64, stored.inflated),
      })
      // Typed views need their element alignment: copy when the inflated bytes do not start at a multiple of 8.
      const data = inflated.byteOffset % 8 === 0 ? inflated : Uint8Array.from(inflated)
      const view = (a: StoredArray): Uint8Array | Uint16Array | Uint32Array | Int32Array => {
        const Type = TYPES[a.type]
        if (!Type || a.offset + a.length * Type.BYTES_PER_ELEMENT > data.byteLength)
          throw new RangeError('scanner table store: an array lies outside its finder')
        return new Type(data.buffer, data.byteOffset + a.offset, a.length)
      }
      const kernel = sink(stored.groups)
      for (const name of KERNEL_ARRAYS) {
        const target = kernel[name]
        const source = view(stored.arrays[name])
        if (source.length !== target.length) {
          throw new RangeError(`scanner table store: ${name} has ${source.length} entries, ${target.length} expected`)
        }
        ;(target as Uint8Array).set(source as Uint8Array)
      }
      // Copies, not views: a view would keep the whole inflated finder (~600 KB, kernel arrays included) alive.
      return {
        ...kernel,
        last: view(stored.arrays.last).slice() as Uint16Array,
        bitTokens: view(stored.arrays.bitTokens).slice() as Uint32Array,
        unitTable: view(stored.arrays.unitTable).slice() as Uint16Array,
        unitM3: view(stored.arrays.unitM3).slice() as Uint8Array,
        unitM4: view(stored.arrays.unitM4).slice() as Uint8Array,
        groups: stored.groupLists,
        unitGroups: stored.unitGroupLists,
      }
    },
  }
}

/**
 * The bytes of a file the build ships beside the built scanner (dist/); null when running from the sources
 * (which never read a shipped file, so a stale one cannot change what tests see) or when it is missing or
 * unreadable.
 */
export function shippedFile(name: string): Buffer | null {
  const here = import.meta.url
  if (!here.endsWith('.mjs'))
    return null
  try {
    return fs.readFileSync(fileURLToPath(new URL(`./${name}`, here)))
  }
  catch {
    return null
  }
}

let store: TableStore | null | undefined

/**
 * The store shipped beside the built scanner, read on first use; null when running from the sources or when
 * the file is missing, unreadable or not a store (then every table is built, as before).
 */
export function shippedStore(): TableStore | null {
  if (store === undefined) {
    const bytes = shippedFile(STORE_FILE)
    store = bytes && decodeTableStore(bytes)
  }
  return store
}
