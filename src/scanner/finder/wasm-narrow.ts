/**
 * `narrow(src, dst, n)`: n UTF-16 code units at src become n bytes at dst, each unit above 0xFF saturated
 * to `SATURATED`, 16 per step with SIMD (it writes up to 15 bytes past dst + n and reads up to 30 past
 * src + 2n). A module of its own on the memory of the kernel (kernel.ts), which copies a text with code
 * units above 0xFF in as UTF-16 (a memcpy) and narrows it here to the byte copy its tables read.
 */
import { c, get, I32, memarg, OP, section, set, SIMD, str, uleb, vec, VOID, wasmModule } from './wasm-asm'

export const SATURATED = 0xFF

export type Narrow = (src: number, dst: number, n: number) => void

function narrowModuleBytes(): Uint8Array {
  const SRC = 0
  const DST = 1
  const COUNT = 2
  const AT = 3
  // `narrow16to8U` reads its lanes as signed: units from 0x8000 would become 0, so they are capped first.
  const saturated = [...SIMD.const, ...Array.from({ length: 8 }, () => [SATURATED, 0x00]).flat(), ...SIMD.min16U]
  const unitsAt = (offset: number): number[] => [
    ...get(SRC),
    ...get(AT),
    ...c(1),
    OP.shl,
    OP.add,
    ...SIMD.load,
    ...memarg(0, offset),
    ...saturated,
  ]
  const body = [
    ...vec([[...uleb(1), I32]]),
    OP.block,
    VOID,
    OP.loop,
    VOID,
    ...get(AT),
    ...get(COUNT),
    OP.geU,
    OP.brIf,
    1,
    ...get(DST),
    ...get(AT),
    OP.add,
    ...unitsAt(0),
    ...unitsAt(16),
    ...SIMD.narrow16to8U,
    ...SIMD.store,
    ...memarg(0),
    ...get(AT),
    ...c(16),
    OP.add,
    ...set(AT),
    OP.br,
    0,
    OP.end,
    OP.end,
    OP.end,
  ]
  const type = section(1, vec([[0x60, ...vec([[I32], [I32], [I32]]), ...vec([])]]))
  const imports = section(2, vec([[...str('k'), ...str('mem'), 0x02, 0x00, 0x00]]))
  const func = section(3, vec([[0]]))
  const exports = section(7, vec([[...str('narrow'), 0x00, 0]]))
  const code = section(10, vec([[...uleb(body.length), ...body]]))
  return wasmModule(type, imports, func, exports, code)
}

/** The function on `mem`; throws where SIMD WebAssembly cannot be compiled. */
export function narrowOn(mem: WebAssembly.Memory): Narrow {
  return new WebAssembly.Instance(new WebAssembly.Module(narrowModuleBytes().buffer as ArrayBuffer), { k: { mem } })
    .exports
    .narrow as Narrow
}
