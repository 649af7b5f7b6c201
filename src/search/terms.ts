import { compareBytewise } from '../core/diagnostics'
import { isStopword, memoStem } from '../runtime/text'

/*
 * The index builder's term bookkeeping: interning, raw-token lookup without per-token strings, a sparse
 * accumulator, and the strongest bridging candidates of a skill.
 */

/** Term interning: provisional ids in order of first sight; the index's ids are the bytewise order. */
export class Vocabulary {
  readonly ids = new Map<string, number>()
  readonly terms: string[] = []
  id(term: string): number {
    let id = this.ids.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.ids.set(term, id)
      this.terms.push(term)
    }
    return id
  }
}

/**
 * Raw ASCII token -> term id (-1 for a stopword), keyed by a hash of its lowercased characters: the
 * text is never cut into per-token strings, and each distinct raw token is analysed once.
 */
export class TokenTerms {
  private readonly buckets = new Map<number, number[]>()
  private readonly raw: string[] = []
  private readonly term: number[] = []
  constructor(
    private readonly vocab: Vocabulary,
    private readonly stemming: boolean,
  ) {}

  lookup(text: string, start: number, end: number): number {
    let h = 0x811C9DC5
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i)
      h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193)
    }
    // 30 bits: a small integer key, no heap number per lookup.
    h &= 0x3FFFFFFF
    const bucket = this.buckets.get(h)
    if (bucket) {
      for (const e of bucket) {
        if (this.same(this.raw[e], text, start, end))
          return this.term[e]
      }
    }
    const word = text.slice(start, end).toLowerCase()
    const id = isStopword(word) ? -1 : this.vocab.id(this.stemming ? memoStem(word) : word)
    this.raw.push(word)
    this.term.push(id)
    if (bucket)
      bucket.push(this.raw.length - 1)
    else this.buckets.set(h, [this.raw.length - 1])
    return id
  }

  private same(word: string, text: string, start: number, end: number): boolean {
    if (word.length !== end - start)
      return false
    for (let i = 0; i < word.length; i++) {
      const c = text.charCodeAt(start + i)
      if (word.charCodeAt(i) !== (c >= 65 && c <= 90 ? c + 32 : c))
        return false
    }
    return true
  }
}

/** Sparse accumulator over term ids: dense values plus the list of touched ids, reset in O(touched). */
export class Accumulator {
  values = new Float64Array(1024)
  seen = new Uint8Array(1024)
  touched: number[] = []
  add(id: number, value: number): void {
    if (id >= this.values.length) {
      const size = Math.max(id + 1, this.values.length * 2)
      const values = new Float64Array(size)
      values.set(this.values)
      const seen = new Uint8Array(size)
      seen.set(this.seen)
      this.values = values
      this.seen = seen
    }
    if (!this.seen[id]) {
      this.seen[id] = 1
      this.touched.push(id)
    }
    this.values[id] += value
  }

  get(id: number): number {
    return id < this.values.length ? this.values[id] : 0
  }

  reset(): void {
    for (const id of this.touched) {
      this.values[id] = 0
      this.seen[id] = 0
    }
    this.touched.length = 0
  }
}

/**
 * The `limit` strongest expansion candidates, strongest first, ties bytewise by term: a numeric
 * threshold first, so only the survivors are sorted with string comparisons.
 */
export function topExpansions(added: Accumulator, terms: string[], limit: number): Array<[number, number]> {
  const ids = added.touched
  if (ids.length === 0 || limit <= 0)
    return []
  let threshold = -Infinity
  if (ids.length > limit) {
    const weights = Float64Array.from(ids, id => added.values[id]).sort()
    threshold = weights[weights.length - limit]
  }
  const out: Array<[number, number]> = []
  for (const id of ids) {
    if (added.values[id] >= threshold)
      out.push([id, added.values[id]])
  }
  out.sort((a, b) => b[1] - a[1] || compareBytewise(terms[a[0]], terms[b[0]]))
  if (out.length > limit)
    out.length = limit
  return out
}
