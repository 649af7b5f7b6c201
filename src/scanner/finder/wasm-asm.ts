/**
 * What the finder's hand-assembled WebAssembly modules (its kernel and the UTF-16 narrowing it uses) are
 * written with: opcodes, LEB128 immediates, sections. No binary blob, no toolchain.
 */

export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0B,
  br: 0x0C,
  brIf: 0x0D,
  ret: 0x0F,
  select: 0x1B,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load: 0x28,
  load8: 0x2D,
  load16: 0x2F,
  store: 0x36,
  const: 0x41,
  eqz: 0x45,
  eq: 0x46,
  ne: 0x47,
  ltU: 0x49,
  geU: 0x4F,
  geS: 0x4E,
  gtS: 0x4A,
  add: 0x6A,
  sub: 0x6B,
  mul: 0x6C,
  and: 0x71,
  or: 0x72,
  shl: 0x74,
  shrU: 0x76,
} as const
/** SIMD instructions, each after the 0xFD prefix. */
export const SIMD = {
  load: [0xFD, 0x00],
  store: [0xFD, 0x0B],
  const: [0xFD, 0x0C],
  narrow16to8U: [0xFD, 0x66],
  min16U: [0xFD, 0x97, 0x01],
} as const
export const VOID = 0x40
export const I32 = 0x7F

/** Signed LEB128 (i32.const immediates and, for small non-negative values, indices too). */
export function leb(n: number): number[] {
  const out: number[] = []
  for (;;) {
    const byte = n & 0x7F
    n >>= 7
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}
export function uleb(n: number): number[] {
  const out: number[] = []
  do {
    let b = n & 0x7F
    n >>>= 7
    if (n)
      b |= 0x80
    out.push(b)
  } while (n)
  return out
}
export const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()]
export const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body]
export const str = (s: string): number[] => [...uleb(s.length), ...[...s].map(c => c.charCodeAt(0))]
export const get = (l: number): number[] => [OP.get, l]
export const set = (l: number): number[] => [OP.set, l]
export const c = (v: number): number[] => [OP.const, ...leb(v)]
export const memarg = (align: number, offset = 0): number[] => [align, ...uleb(offset)]
/** A module from its sections, in order. */
export function wasmModule(...sections: number[][]): Uint8Array {
  return new Uint8Array([0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00, ...sections.flat()])
}
