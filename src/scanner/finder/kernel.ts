import type { KernelTables } from './tables'
import type { Narrow } from './wasm-narrow'
/**
 * The prefilter's hot loop as a small WebAssembly function, assembled here from its opcodes (no binary
 * blob, no toolchain). It runs the lookups of `candidateFast` in prefilter.ts over the latin1 bytes of a
 * text copied into its memory, without JS bounds checks, the class filter unrolled 8 bytes per check of
 * the end; its candidate check is per token prefix (`tbits`, finder-tables.ts) where the JS loop's is per
 * group, so it hands back fewer candidates, each with the tokens that may match there. When WebAssembly is
 * unavailable the JS loop runs instead (same hits: the tests compare both).
 *
 * Memory: bytes 0-255 the byte classes, 256-511 the word bits, 512 the group of the last candidate and
 * 516 its token bits,
 * then each finder's tables (`reserve`: the finder's build writes them there), then the text being
 * scanned (`load`). The JS loop reads a finder's tables here too (`views`), so they exist once.
 */
import { Buffer } from 'node:buffer'
import { c, get, I32, memarg, OP, section, set, str, uleb, vec, VOID, wasmModule } from './wasm-asm'
import { narrowOn } from './wasm-narrow'
import { patchWide } from './wide'

/** Views of a block's tables that the JS loop reads; valid while `generation()` is unchanged. */
export type KernelViews = Pick<KernelTables, 'filter' | 'pair' | 'pw' | 'm3' | 'm4'>

export interface Kernel {
  /**
   * A zeroed table block for `groups` groups: its address for `scan`, and views to write the tables
   * into (valid until the memory next grows: write them before loading a text or reserving again).
   */
  reserve: (groups: number) => { block: number, tables: KernelTables }
  /**
   * Puts a text's latin1 bytes in memory (once per text; `wide`: it has code units above 0xFF, which
   * become `WIDE_BYTE`) and returns a view of them; null when memory cannot grow that far.
   */
  load: (text: string, wide: boolean) => Uint8Array | null
  /**
   * First position in [from, n - 2) that passes the filter, the pair lookup and, for at least one token of
   * the pair's group, its word/third-to-eighth-byte checks (the group then in `group()`, those tokens in
   * `tokens()`), -1 when there is none before the last two positions.
   */
  scan: (block: number, from: number) => number
  group: () => number
  /** The candidate's possible tokens: bit k for its group's k-th token (see `tbits` in finder-tables.ts). */
  tokens: () => number
  /**
   * The block's tables in place (the JS loop reads these instead of keeping its own copies). Growing the
   * memory detaches every view: `generation()` changes then, and views must be taken again.
   */
  views: (block: number) => KernelViews
  generation: () => number
}

// Parameters and locals of `scan(block, text, from, n)`.
const BLOCK = 0
const TEXT = 1
const FROM = 2
const N = 3
const J = 4
const H = 5
const I = 6
const G = 7
const M = 8
const P = 9
const E = 10
const V = 11
/** load8_u of mem[TEXT + local + delta]. */
const byteAt = (l: number, delta = 0): number[] => [...get(TEXT), ...get(l), OP.add, OP.load8, 0, ...uleb(delta)]

/** Bytes the filter loop reads per check of the text's end. */
const UNROLL = 8

/**
 * Table block layout (offsets from the block address): a header (the number of groups, the address of
 * the per-token tables), the class filter, the pair table, pw, then m3 and m4 (the JS loop's third and
 * fourth byte checks), then tbits (six positions) and tpw.
 */
const HEADER_GROUPS = 0
const HEADER_TBITS = 4
const F_OFF = 8
const PAIR_OFF = F_OFF + (1 << 16)
const PW_OFF = PAIR_OFF + (1 << 17)

/** v &= tbits[M + d * size + (j + d < n ? b[j + d] : 256)] (M: the group's row of the third byte), then `if v`. */
function andBits(d: number): number[] {
  return [
    ...get(V),
    ...get(M),
    ...get(J),
    ...c(d),
    OP.add,
    ...get(N),
    OP.ltU,
    OP.if,
    I32,
    ...byteAt(J, d),
    OP.else,
    ...c(256),
    OP.end,
    OP.add,
    ...(d ? [...get(BLOCK), OP.load, ...memarg(2, HEADER_GROUPS), ...c(257 * d), OP.mul, OP.add] : []),
    OP.load8,
    0,
    0,
    OP.and,
    OP.tee,
    V,
    OP.if,
    VOID,
  ]
}

function scanBody(start: number): number[] {
  return [
    // h = cls(prev) << 12 | cls(b[from]) << 6 | cls(b[from + 1]); the text starts with a virtual space.
    ...get(FROM),
    OP.if,
    I32,
    ...get(TEXT),
    ...get(FROM),
    OP.add,
    ...c(1),
    OP.sub,
    OP.load8,
    0,
    0,
    OP.load8,
    0,
    0,
    OP.else,
    ...c(start),
    OP.end,
    ...c(12),
    OP.shl,
    ...byteAt(FROM),
    OP.load8,
    0,
    0,
    ...c(6),
    OP.shl,
    OP.or,
    ...byteAt(FROM, 1),
    OP.load8,
    0,
    0,
    OP.or,
    ...set(H),
    // p walks the text from from + 2 (the window's last byte) to the end e.
    ...get(TEXT),
    ...get(FROM),
    OP.add,
    ...c(2),
    OP.add,
    ...set(P),
    ...get(TEXT),
    ...get(N),
    OP.add,
    ...set(E),
    OP.block,
    VOID,
    OP.loop,
    VOID,
    OP.block,
    VOID,
    // Unrolled: UNROLL bytes per check of the end (the text is followed by UNROLL readable bytes; a
    // window ending past the text is dropped below).
    ...get(P),
    ...get(E),
    OP.geU,
    OP.brIf,
    2,
    ...Array.from({ length: UNROLL }, (_, u) => [
      // h = (h << 6) | cls(p[u]); its low 19 bits are the key (bit 18: the low bit of the previous byte's class,
      // its word-ness)
      ...get(H),
      ...c(6),
      OP.shl,
      ...get(P),
      OP.load8,
      0,
      ...uleb(u),
      OP.load8,
      0,
      0,
      OP.or,
      OP.tee,
      H,
      // filter bit: load32(block + F_OFF + ((key >>> 5) << 2)) >>> (key & 31) & 1,
      // with (key >>> 5) << 2 = (h >>> 3) & 0xFFFC
      ...c(3),
      OP.shrU,
      ...c(0xFFFC),
      OP.and,
      ...get(BLOCK),
      OP.add,
      OP.load,
      ...memarg(2, F_OFF),
      ...get(H),
      OP.shrU,
      ...c(1),
      OP.and,
      ...(u === 0 ? [OP.brIf, 0] : [OP.if, VOID, ...get(P), ...c(u), OP.add, ...set(P), OP.br, 1, OP.end]),
    ]).flat(),
    ...get(P),
    ...c(UNROLL),
    OP.add,
    ...set(P),
    OP.br,
    1,
    OP.end,
    // The window ending at p passed the filter.
    ...get(P),
    ...get(E),
    OP.geU,
    OP.brIf,
    1,
    OP.block,
    VOID,
    ...get(P),
    ...get(TEXT),
    OP.sub,
    OP.tee,
    J,
    ...c(2),
    OP.sub,
    ...set(I),
    // g = pair[b[i] << 8 | b[i + 1]]
    ...byteAt(I),
    ...c(8),
    OP.shl,
    ...byteAt(I, 1),
    OP.or,
    ...c(1),
    OP.shl,
    ...get(BLOCK),
    OP.add,
    OP.load16,
    1,
    ...uleb(PAIR_OFF),
    OP.tee,
    G,
    OP.if,
    VOID,
    // v = tpw[g * 4 + wordbit(b[i - 1])] (a virtual space before the text): the tokens of the group the previous
    // byte allows
    ...get(BLOCK),
    OP.load,
    ...memarg(2, HEADER_TBITS),
    ...get(BLOCK),
    OP.load,
    ...memarg(2, HEADER_GROUPS),
    ...c(257 * 6),
    OP.mul,
    OP.add,
    ...get(G),
    ...c(2),
    OP.shl,
    OP.add,
    ...get(I),
    OP.if,
    I32,
    ...get(TEXT),
    ...get(I),
    OP.add,
    ...c(1),
    OP.sub,
    OP.load8,
    0,
    0,
    OP.else,
    ...c(32),
    OP.end,
    OP.load8,
    0,
    ...uleb(256),
    OP.add,
    OP.load8,
    0,
    0,
    OP.tee,
    V,
    OP.if,
    VOID,
    // M = the group's row in the third byte's table; then v &= the bits of the third to eighth bytes
    ...get(BLOCK),
    OP.load,
    ...memarg(2, HEADER_TBITS),
    ...get(G),
    ...c(257),
    OP.mul,
    OP.add,
    ...set(M),
    ...andBits(0),
    ...andBits(1),
    ...andBits(2),
    ...andBits(3),
    ...andBits(4),
    ...andBits(5),
    ...c(512),
    ...get(G),
    OP.store,
    ...memarg(2),
    ...c(516),
    ...get(V),
    OP.store,
    ...memarg(2),
    ...get(I),
    OP.ret,
    OP.end,
    OP.end,
    OP.end,
    OP.end,
    OP.end,
    OP.end,
    OP.end,
    OP.end,
    OP.end,
    ...get(P),
    ...c(1),
    OP.add,
    ...set(P),
    OP.br,
    0,
    OP.end,
    OP.end,
    ...c(-1),
    OP.end,
  ]
}

function moduleBytes(start: number): Uint8Array {
  const type = section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([[I32]])]]))
  const func = section(3, vec([[0]]))
  const memory = section(5, vec([[0x00, ...uleb(16)]]))
  const exports = section(
    7,
    vec([
      [...str('scan'), 0x00, 0],
      [...str('mem'), 0x02, 0],
    ]),
  )
  const body = [...vec([[...uleb(8), I32]]), ...scanBody(start)]
  const code = section(10, vec([[...uleb(body.length), ...body]]))
  return wasmModule(type, func, memory, exports, code)
}

const PAGE = 65536

/** The kernel, or null where WebAssembly cannot be compiled (the JS loop is used then). */
export function createKernel(cls: Uint8Array, wordBit: Uint8Array, start: number): Kernel | null {
  let instance: WebAssembly.Instance
  try {
    instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes(start).buffer as ArrayBuffer))
  }
  catch {
    return null
  }
  const mem = instance.exports.mem as WebAssembly.Memory
  const scanFn = instance.exports.scan as (block: number, text: number, from: number, n: number) => number
  let narrow: Narrow | null = null
  try {
    narrow = narrowOn(mem)
  }
  catch {}
  let top = 1024
  let loaded: string | null = null
  let view = new Uint8Array(mem.buffer)
  let buf = Buffer.from(mem.buffer)
  let words = new Int32Array(mem.buffer)
  let generation = 0
  const ensure = (end: number): void => {
    if (end <= mem.buffer.byteLength)
      return
    mem.grow(Math.ceil((end - mem.buffer.byteLength) / PAGE))
    generation++
    view = new Uint8Array(mem.buffer)
    buf = Buffer.from(mem.buffer)
    words = new Int32Array(mem.buffer)
  }
  view.set(cls, 0)
  view.set(wordBit, 256)
  let length = 0
  /** End of the bytes texts were written to (tables are written below `top`). */
  let dirty = 0
  let loadedView: Uint8Array | null = null
  return {
    reserve(groups) {
      const block = top
      const size = groups * 257
      const m3 = block + PW_OFF + groups
      const tbits = m3 + 2 * size
      const end = tbits + 6 * size + 4 * groups
      ensure(end)
      // The block may overlap a text loaded before: zero that part (the build writes only nonzero
      // entries). Memory past every text loaded so far is still as grown: zero, and untouched.
      if (dirty > block)
        view.fill(0, block, Math.min(end, dirty))
      const header = new Int32Array(mem.buffer, block, 2)
      header[HEADER_GROUPS / 4] = groups
      header[HEADER_TBITS / 4] = tbits
      // Keep the next block 8-aligned for the 32-bit loads.
      top = (end + 7) & ~7
      loaded = null
      return {
        block,
        tables: {
          filter: new Int32Array(mem.buffer, block + F_OFF, (PAIR_OFF - F_OFF) / 4),
          pair: new Uint16Array(mem.buffer, block + PAIR_OFF, 65536),
          pw: new Uint8Array(mem.buffer, block + PW_OFF, groups),
          m3: new Uint8Array(mem.buffer, m3, size),
          m4: new Uint8Array(mem.buffer, m3 + size, size),
          tbits: new Uint8Array(mem.buffer, tbits, 6 * size),
          tpw: new Uint8Array(mem.buffer, tbits + 6 * size, 4 * groups),
        },
      }
    },
    load(text, wide) {
      if (text !== loaded) {
        // The unrolled loop reads up to UNROLL bytes past the text; a wide text is first copied in as UTF-16 after it.
        const n = text.length
        const units = (top + n + 16 + 15) & ~15
        const end = wide && narrow ? units + 2 * n + 32 : top + n + UNROLL
        try {
          ensure(end)
        }
        catch {
          return null
        }
        if (wide && narrow) {
          buf.write(text, units, 'utf16le')
          narrow(units, top, n)
          length = n
        }
        else {
          length = buf.write(text, top, 'latin1')
          if (wide)
            patchWide(text, view, top)
        }
        dirty = Math.max(dirty, end)
        loaded = text
        loadedView = view.subarray(top, top + length)
      }
      // The same view while the text stays (a finder calls this once per hit).
      return loadedView!
    },
    scan: (block, from) => scanFn(block, top, from, length),
    group: () => words[128]!,
    tokens: () => words[129]!,
    views(block) {
      const n = words[(block + HEADER_GROUPS) / 4]!
      const m3 = block + PW_OFF + n
      return {
        filter: new Int32Array(mem.buffer, block + F_OFF, (PAIR_OFF - F_OFF) / 4),
        pair: new Uint16Array(mem.buffer, block + PAIR_OFF, 65536),
        pw: new Uint8Array(mem.buffer, block + PW_OFF, n),
        m3: new Uint8Array(mem.buffer, m3, n * 257),
        m4: new Uint8Array(mem.buffer, m3 + n * 257, n * 257),
      }
    },
    generation: () => generation,
  }
}
