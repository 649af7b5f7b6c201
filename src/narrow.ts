/**
 * Texts with characters above U+00FF, read through a one-byte stand-in.
 *
 * One em-dash makes a text a two-byte string in V8: twice the memory of a one-byte one, so the young
 * generation fills and is collected twice as often, and on Node 20 (V8 11.3) a two-byte string of more
 * than 65,528 units is a large object, mapped, page-faulted and unmapped on its own (~12 ns per character
 * on a 2-vCPU VM, against ~0.1). The checks that read every text (the scanner's finders, its comment masks
 * and line tables, the quality checks' searches) compare ASCII only, so they read a copy in which each
 * unit above 0xFF is `STAND_IN`: a one-byte string of the same length with the same line breaks. Whatever
 * they find is read again from the real text (`slice`, or `text`, built once when something asks).
 *
 * That holds only for units that every such search treats like `STAND_IN`: neither whitespace nor a line
 * terminator (`\s`, `^`/`$`), nor a hidden-unicode or invisible character (the scanner's anchors name
 * those), nor a letter whose case maps onto latin1 (`/i`), nor half of a surrogate pair (`/u` reads a
 * pair as one character). A text holding any other unit is decoded as it is.
 */
import { SATURATED } from './scanner/finder/wasm-narrow'

/** Whether texts are read through a stand-in (tests turn it off to compare). */
export let narrowing = true
export function setNarrowing(on: boolean): void {
  narrowing = on
}

/** A text with more than one unit above 0xFF in this many is read as it is (`narrowUnits`). */
const DENSE = 8

/** What stands for a unit above 0xFF: not ASCII, not whitespace, not a word character, without case. */
export const STAND_IN = 0xA4

/** Units some search may tell apart from `STAND_IN` (see above); `u` is above 0xFF. */
const SPECIAL
  = /[\s\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2060-\u206F\u3164\uFE00-\uFE0F\uFFA0\uFFF0-\uFFFB]/u
/** The upper case of each latin1 character: a unit that shares one matches it under `/i`. */
let latin1Upper: Set<string> | undefined

function decide(u: number): boolean {
  const ch = String.fromCharCode(u)
  if (SPECIAL.test(ch))
    return false
  const upper = ch.toUpperCase()
  const lower = ch.toLowerCase()
  for (const s of [upper, lower]) {
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) <= 0xFF)
        return false
    }
  }
  latin1Upper ??= new Set(Array.from({ length: 256 }, (_, c) => String.fromCharCode(c).toUpperCase()))
  return !latin1Upper.has(upper)
}

/** Per unit: 0 not decided yet, 1 may stand in, 2 may not. Few distinct units occur, each is decided once. */
const verdicts = new Uint8Array(0x10000)

export function mayStandIn(u: number): boolean {
  let v = verdicts[u]!
  if (v === 0)
    verdicts[u] = v = decide(u) ? 1 : 2
  return v === 1
}

/**
 * A text read through its one-byte stand-in `scan`. `at` lists, in order, the offsets of the units above
 * 0xFF and `units` their values: enough to give back any slice of the real text, or all of it.
 */
export class NarrowText {
  private full: string | undefined
  constructor(
    readonly scan: string,
    private readonly at: Uint32Array,
    private readonly units: Uint16Array,
  ) {}

  get length(): number {
    return this.scan.length
  }

  /** The real text's `slice(from, to)`. */
  slice(from: number, to: number): string {
    const at = this.at
    to = Math.min(to, this.scan.length)
    let lo = 0
    let hi = at.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (at[mid]! < from)
        lo = mid + 1
      else hi = mid
    }
    if (lo === at.length || at[lo]! >= to)
      return this.scan.slice(from, to)
    let out = ''
    let pos = from
    for (let k = lo; k < at.length && at[k]! < to; k++) {
      out += this.scan.slice(pos, at[k]) + String.fromCharCode(this.units[k]!)
      pos = at[k]! + 1
    }
    return out + this.scan.slice(pos, to)
  }

  /** The real text (built once, when something asks). */
  get text(): string {
    return (this.full ??= this.slice(0, this.scan.length))
  }
}

/**
 * The stand-in of UTF-16 `units`, or null when one of them may not stand in, or when more than one in
 * `DENSE` is above 0xFF (a text in another script: its offsets would outweigh the two-byte string, and
 * every line that a search hits would be rebuilt from them). `bytes` holds the same units narrowed
 * (src/wasm-narrow.ts: above 0xFF saturated to 0xFF; a Buffer, whose `indexOf` is a memchr) and becomes
 * the stand-in's bytes here; `toLatin1` makes the string of them. A text with no unit above 0xFF (latin1
 * only) comes back as that string: nothing stands in for anything.
 */
export function narrowUnits(units: Uint16Array, bytes: Buffer, toLatin1: () => string): NarrowText | string | null {
  const at: number[] = []
  const values: number[] = []
  const most = Math.floor(units.length / DENSE)
  for (let i = bytes.indexOf(SATURATED); i !== -1; i = bytes.indexOf(SATURATED, i + 1)) {
    const u = units[i]!
    // U+00FF itself.
    if (u === SATURATED)
      continue
    if (!mayStandIn(u) || at.length === most)
      return null
    bytes[i] = STAND_IN
    at.push(i)
    values.push(u)
  }
  return at.length ? new NarrowText(toLatin1(), Uint32Array.from(at), Uint16Array.from(values)) : toLatin1()
}
