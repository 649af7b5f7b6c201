/**
 * Compact encodings for the discovery index, which ships inside app bundles: base64 of varints
 * and of int8 / bit vectors. Plain code (no Node API imported) that behaves the same in Node,
 * browsers and edge workers; decoding uses a native base64 decoder when the platform has one.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const LOOKUP = new Int16Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i

export function toBase64(bytes: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63]
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const n = bytes[i] << 16
    out += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}==`
  }
  else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8)
    out += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}${ALPHABET[(n >> 6) & 63]}=`
  }
  return out
}

interface NativeDecoders {
  Uint8Array: { fromBase64?: (text: string) => Uint8Array }
  Buffer?: { from: (text: string, encoding: 'base64') => Uint8Array }
}
const native = globalThis as unknown as NativeDecoders

/**
 * base64 -> bytes with the platform's native decoder where there is one (`Uint8Array.fromBase64` in
 * recent browsers, Buffer in Node: native code, where the index's large sections would otherwise go
 * through a JS loop), else the lenient decoder below. A damaged index decodes to garbage, never to an
 * exception.
 */
export function fromBase64(text: string): Uint8Array {
  if (native.Uint8Array.fromBase64) {
    try {
      return native.Uint8Array.fromBase64(text)
    }
    catch {}
  }
  // Browser code cannot import node:buffer: Node's global Buffer is read off globalThis, only where it exists.
  // eslint-disable-next-line node/prefer-global/buffer -- feature-detected global, see above
  const nodeBuffer = native.Buffer
  if (nodeBuffer)
    return nodeBuffer.from(text, 'base64')
  return decodeBase64(text)
}

/**
 * Bytes [from, to) of the data `text` encodes, decoding only that part: base64 maps each 3-byte
 * group to 4 characters, so a byte range is a character range.
 */
export function fromBase64Range(text: string, from: number, to: number): Uint8Array {
  const group = Math.floor(from / 3)
  return fromBase64(text.slice(group * 4, Math.ceil(to / 3) * 4)).subarray(from - group * 3, to - group * 3)
}

/**
 * Lenient decoder: ignores characters outside the alphabet, so a damaged index decodes to garbage, not an
 * exception.
 */
export function decodeBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let bits = 0
  let value = 0
  let o = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? LOOKUP[c] : -1
    if (v < 0)
      continue
    value = (value << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (value >> bits) & 255
    }
  }
  return out.subarray(0, o)
}

/** Growable varint (unsigned LEB128) writer: one buffer for a whole section, no per-record arrays. */
export class VarintWriter {
  bytes: Uint8Array
  length = 0
  constructor(size = 1 << 16) {
    this.bytes = new Uint8Array(size)
  }

  private room(extra: number): void {
    if (this.length + extra <= this.bytes.length)
      return
    const grown = new Uint8Array(Math.max(this.length + extra, this.bytes.length * 2))
    grown.set(this.bytes.subarray(0, this.length))
    this.bytes = grown
  }

  write(value: number): void {
    this.room(10)
    let v = Math.max(0, Math.floor(value))
    while (v >= 128) {
      this.bytes[this.length++] = (v & 127) | 128
      v = Math.floor(v / 128)
    }
    this.bytes[this.length++] = v
  }

  raw(part: Uint8Array): void {
    this.room(part.length)
    this.bytes.set(part, this.length)
    this.length += part.length
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.length)
  }
}

/** Varints -> numbers (values beyond 2^32 are clamped: the index never holds such values). */
export function decodeVarints(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length)
  let n = 0
  let v = 0
  let shift = 0
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]
    if (shift < 28)
      v |= (b & 127) << shift
    else if (shift === 28)
      v = (v >>> 0) + (b & 15) * 2 ** 28
    if (b < 128) {
      out[n++] = v >>> 0
      v = 0
      shift = 0
    }
    else {
      shift += 7
    }
  }
  return out.subarray(0, n)
}

/** Vector -> int8 (scaled so the largest component is ±127); direction is what cosine needs. */
export function quantizeInt8(vector: ArrayLike<number>): Uint8Array {
  let max = 0
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i]) || 0)
  const out = new Int8Array(vector.length)
  if (max > 0) {
    for (let i = 0; i < vector.length; i++) out[i] = Math.round(((vector[i] || 0) / max) * 127)
  }
  return new Uint8Array(out.buffer)
}

/** Sign bits of a vector, packed 8 per byte (SimHash-style 1-bit quantisation). */
export function packSigns(vector: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(Math.ceil(vector.length / 8))
  for (let i = 0; i < vector.length; i++) {
    if (vector[i] > 0)
      out[i >> 3] |= 1 << (i & 7)
  }
  return out
}

/** Packed signs -> ±1/sqrt(dim) floats, a unit vector that dot-products against a float query. */
export function unpackSigns(bytes: Uint8Array, dim: number): Float32Array {
  const out = new Float32Array(dim)
  const v = 1 / Math.sqrt(dim || 1)
  for (let i = 0; i < dim; i++) out[i] = ((bytes[i >> 3] ?? 0) >> (i & 7)) & 1 ? v : -v
  return out
}
