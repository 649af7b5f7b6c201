import type { NarrowText } from './narrow'
import type { Narrow } from './scanner/finder/wasm-narrow'
/**
 * UTF-8 to a JavaScript string for texts with characters above U+007F. On Node 20, V8 builds such a
 * string at ~1.8 ns per character; this decodes into UTF-16 in WebAssembly memory (16 ASCII bytes a step
 * with SIMD) and lets Node copy the result into the string (~0.15 ns per character): 3-4x faster on
 * the mostly-ASCII text of real skills. The input must be valid UTF-8 (`isUtf8` first): it is not
 * checked again. Without SIMD WebAssembly, or for small and very large texts, Node decodes.
 */
import { Buffer } from 'node:buffer'
import { narrowUnits } from './narrow'
import {
  c,
  get,
  I32,
  memarg,
  OP,
  section,
  set,
  SIMD,
  str,
  uleb,
  V128,
  vec,
  VOID,
  wasmModule,
} from './scanner/finder/wasm-asm'
import { narrowOn } from './scanner/finder/wasm-narrow'

/** Smaller texts are not worth the copy in; larger ones would keep that much memory per thread. */
const MIN_BYTES = 256
const MAX_BYTES = 1 << 20

// `decode(src, n, dst)`: UTF-16 units written at dst.
const SRC = 0
const N = 1
const DST = 2
const I = 3
const O = 4
const B = 5
const CP = 6
const V = 7

/** The byte at src + i + k, its low six bits (a continuation byte's payload). */
const tail = (k: number): number[] => [...get(SRC), ...get(I), OP.add, OP.load8, 0, ...uleb(k), ...c(0x3F), OP.and]
/** i += bytes, o += 2 * units. */
function step(bytes: number, units: number): number[] {
  return [
    ...get(I),
    ...c(bytes),
    OP.add,
    ...set(I),
    ...get(O),
    ...c(units * 2),
    OP.add,
    ...set(O),
  ]
}

function decoderBytes(): Uint8Array {
  const body = [
    ...vec([
      [...uleb(4), I32],
      [...uleb(1), V128],
    ]),
    ...get(DST),
    ...set(O),
    OP.block,
    VOID,
    OP.loop,
    VOID,
    ...get(I),
    ...get(N),
    OP.geU,
    OP.brIf,
    1,
    // Sixteen ASCII bytes: widened to sixteen units.
    OP.block,
    VOID,
    ...get(I),
    ...c(16),
    OP.add,
    ...get(N),
    OP.gtU,
    OP.brIf,
    0,
    ...get(SRC),
    ...get(I),
    OP.add,
    ...SIMD.load,
    ...memarg(0),
    OP.tee,
    V,
    ...SIMD.bitmask8,
    OP.brIf,
    0,
    ...get(O),
    ...get(V),
    ...SIMD.extendLow8to16U,
    ...SIMD.store,
    ...memarg(0),
    ...get(O),
    ...get(V),
    ...SIMD.extendHigh8to16U,
    ...SIMD.store,
    ...memarg(0, 16),
    ...get(I),
    ...c(16),
    OP.add,
    ...set(I),
    ...get(O),
    ...c(32),
    OP.add,
    ...set(O),
    OP.br,
    1,
    OP.end,
    // One character (inside each `if`, `br 1` is the next one).
    ...get(SRC),
    ...get(I),
    OP.add,
    OP.load8,
    0,
    0,
    ...set(B),
    ...get(B),
    ...c(0x80),
    OP.ltU,
    OP.if,
    VOID,
    ...get(O),
    ...get(B),
    OP.store16,
    ...memarg(1),
    ...step(1, 1),
    OP.br,
    1,
    OP.end,
    ...get(B),
    ...c(0xE0),
    OP.ltU,
    OP.if,
    VOID,
    ...get(O),
    ...get(B),
    ...c(0x1F),
    OP.and,
    ...c(6),
    OP.shl,
    ...tail(1),
    OP.or,
    OP.store16,
    ...memarg(1),
    ...step(2, 1),
    OP.br,
    1,
    OP.end,
    ...get(B),
    ...c(0xF0),
    OP.ltU,
    OP.if,
    VOID,
    ...get(O),
    ...get(B),
    ...c(0x0F),
    OP.and,
    ...c(12),
    OP.shl,
    ...tail(1),
    ...c(6),
    OP.shl,
    OP.or,
    ...tail(2),
    OP.or,
    OP.store16,
    ...memarg(1),
    ...step(3, 1),
    OP.br,
    1,
    OP.end,
    // Four bytes: a surrogate pair.
    ...get(B),
    ...c(0x07),
    OP.and,
    ...c(18),
    OP.shl,
    ...tail(1),
    ...c(12),
    OP.shl,
    OP.or,
    ...tail(2),
    ...c(6),
    OP.shl,
    OP.or,
    ...tail(3),
    OP.or,
    ...c(0x10000),
    OP.sub,
    ...set(CP),
    ...get(O),
    ...get(CP),
    ...c(10),
    OP.shrU,
    ...c(0xD800),
    OP.or,
    OP.store16,
    ...memarg(1),
    ...get(O),
    ...get(CP),
    ...c(0x3FF),
    OP.and,
    ...c(0xDC00),
    OP.or,
    OP.store16,
    ...memarg(1, 2),
    ...step(4, 2),
    OP.br,
    0,
    OP.end,
    OP.end,
    ...get(O),
    ...get(DST),
    OP.sub,
    ...c(1),
    OP.shrU,
    OP.end,
  ]
  const type = section(1, vec([[0x60, ...vec([[I32], [I32], [I32]]), ...vec([[I32]])]]))
  const func = section(3, vec([[0]]))
  const memory = section(5, vec([[0x00, ...uleb(16)]]))
  const exports = section(
    7,
    vec([
      [...str('decode'), 0x00, 0],
      [...str('mem'), 0x02, 0],
    ]),
  )
  const code = section(10, vec([[...uleb(body.length), ...body]]))
  return wasmModule(type, func, memory, exports, code)
}

interface Decoder {
  decode: (src: number, n: number, dst: number) => number
  narrow: Narrow
  mem: WebAssembly.Memory
  bytes: Uint8Array
  buf: Buffer
}
let decoder: Decoder | null | undefined

function load(): Decoder | null {
  try {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(decoderBytes().buffer as ArrayBuffer))
    const mem = exports.mem as WebAssembly.Memory
    return {
      decode: exports.decode as Decoder['decode'],
      narrow: narrowOn(mem),
      mem,
      bytes: new Uint8Array(mem.buffer),
      buf: Buffer.from(mem.buffer),
    }
  }
  catch {
    return null
  }
}

/**
 * `bytes` from `start` (valid UTF-8) as a string: the same string as `bytes.toString('utf8', start)`.
 * With `narrow`, a text this decodes comes back as a `NarrowText` when it can (narrow.ts).
 */
export function decodeUtf8(bytes: Uint8Array, start?: number): string
export function decodeUtf8(bytes: Uint8Array, start: number, narrow: boolean): string | NarrowText
export function decodeUtf8(bytes: Uint8Array, start = 0, narrow = false): string | NarrowText {
  const n = bytes.length - start
  const d = n >= MIN_BYTES && n <= MAX_BYTES ? (decoder === undefined ? (decoder = load()) : decoder) : null
  if (!d)
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8', start)
  // The bytes at 0 (16 past them readable), the units after them (at most one per byte), then room for a stand-in.
  const dst = (n + 16 + 15) & ~15
  const at = dst + 2 * n + 32
  const end = at + n + 16
  if (end > d.mem.buffer.byteLength) {
    d.mem.grow(Math.ceil((end - d.mem.buffer.byteLength) / 65536))
    d.bytes = new Uint8Array(d.mem.buffer)
    d.buf = Buffer.from(d.mem.buffer)
  }
  d.bytes.set(bytes.subarray(start), 0)
  const units = d.decode(0, n, dst)
  if (narrow) {
    d.narrow(dst, at, units)
    const buf = d.buf
    const text = narrowUnits(new Uint16Array(d.mem.buffer, dst, units), buf.subarray(at, at + units), () =>
      buf.toString('latin1', at, at + units))
    if (text)
      return text
  }
  return d.buf.toString('utf16le', dst, dst + 2 * units)
}
