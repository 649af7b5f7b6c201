import { stem } from '../runtime/stem'

/** Bridging vocabulary: stem -> related stems with a weight in (0, 1]. */
export type SynonymTable = Map<string, Map<string, number>>

/** Weight of each tier of data/discovery-synonyms.json: synonyms, related forms/hypernyms, gloss words. */
export const DEFAULT_TIER_WEIGHTS: readonly [number, number, number] = [1, 0.6, 0.3]

let cached: Promise<Record<string, string>> | null = null

/** The derived WordNet table (scripts/build-discovery-data.mjs), loaded once, only when an index is built. */
export function loadSynonymData(): Promise<Record<string, string>> {
  cached ??= import('../../data/discovery-synonyms.json', { with: { type: 'json' } })
    .then(m => ((m.default ?? m) as { words: Record<string, string> }).words)
  return cached
}

/** Lemma table -> stem table (lemmas sharing a stem are merged, keeping the strongest weight). */
export function stemSynonyms(words: Record<string, string>, tierWeights: readonly number[] = DEFAULT_TIER_WEIGHTS): SynonymTable {
  const table: SynonymTable = new Map()
  for (const lemma of Object.keys(words)) {
    const key = stem(lemma)
    let related = table.get(key)
    words[lemma].split('|').forEach((tier, i) => {
      const weight = tierWeights[i] ?? 0
      if (!(weight > 0)) return
      for (const word of tier.split(' ')) {
        if (!word) continue
        const s = stem(word)
        if (s === key) continue
        related ??= new Map()
        if ((related.get(s) ?? 0) < weight) related.set(s, weight)
      }
    })
    if (related) table.set(key, related)
  }
  return table
}
