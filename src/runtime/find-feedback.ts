import type { Prepared } from './find-prepared'
import { decodeChunks, idfOf, postingsOf } from './find-prepared'

export interface FeedbackOptions {
  /** The query's term ids (and counts): they are not added again. */
  query: Map<number, number>
  /** How many of the best first-pass skills lend their terms. */
  skills: number
  /** How many terms are added. */
  terms: number
  /** Weight of the strongest added term against one query term. */
  weight: number
}

/**
 * Pseudo-relevance feedback (RM3-like): the terms that weigh most in the best first-pass skills,
 * weighted by those skills' scores, are added to the query and scored into `lex`. A query phrased
 * in a user's words often hits the right skill weakly; that skill's own vocabulary then lifts it
 * (and its near neighbours) above skills matched only by a common word.
 */
export function feedback(p: Prepared, lex: Float64Array, options: FeedbackOptions): void {
  const { query, skills, terms: count, weight } = options
  const n = lex.length
  const top: number[] = []
  for (let s = 0; s < n; s++) {
    if (!(lex[s] > 0) || (top.length === skills && lex[s] <= lex[top[skills - 1]]))
      continue
    let i = top.length === skills ? skills - 1 : top.length
    while (i > 0 && lex[top[i - 1]] < lex[s]) top[i] = top[--i]
    top[i] = s
  }
  if (top.length === 0)
    return
  const best = lex[top[0]]
  const mass = new Map<number, number>()
  for (const s of top) {
    let length = 0
    const tf = new Map<number, number>()
    const { list, ids, tfs } = decodeChunks(p, s)
    for (const c of list) {
      length += c.length
      for (let j = c.from; j < c.to; j++) tf.set(ids[j], (tf.get(ids[j]) ?? 0) + tfs[j])
    }
    const share = lex[s] / best / (length || 1)
    for (const [id, f] of tf) {
      if (!query.has(id) && id < p.terms.length)
        mass.set(id, (mass.get(id) ?? 0) + share * f * idfOf(p, id))
    }
  }
  const picked = [...mass].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, count)
  if (picked.length === 0)
    return
  const scale = weight / picked[0][1]
  const { k1 } = p.index.bm25
  for (const [id, m] of picked) {
    const w = (m * scale * idfOf(p, id) * (k1 + 1)) / 255
    const list = postingsOf(p, id)
    for (let i = 0; i < list.skills.length; i++) lex[list.skills[i]] += w * list.weights[i]
  }
}
