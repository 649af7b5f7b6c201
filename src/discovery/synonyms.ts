import fs from 'node:fs/promises'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { stem } from '../runtime/stem'

/** Bridging vocabulary: stem -> related stems with a weight in (0, 1]. */
export type SynonymTable = Map<string, Map<string, number>>

/** Weight of each tier of data/discovery-synonyms.json: synonyms, related forms/hypernyms, gloss words. */
export const DEFAULT_TIER_WEIGHTS: readonly [number, number, number] = [1, 0.6, 0.3]

let wordnet: Promise<Record<string, string>> | null = null
let neighbours: Promise<Record<string, string>> | null = null

/** The derived WordNet table (scripts/build-discovery-data.mjs), loaded once, only when an index is built. */
export function loadSynonymData(): Promise<Record<string, string>> {
  wordnet ??= readDataFile('discovery-synonyms.json')
  return wordnet
}

/** The derived GloVe neighbour table (already stemmed: `stem -> "related cos100 related cos100 ..."`). */
export function loadNeighbourData(): Promise<Record<string, string>> {
  neighbours ??= readDataFile('discovery-neighbours.json')
  return neighbours
}

/** Lemma table -> stem table (lemmas sharing a stem are merged, keeping the strongest weight). */
export function stemSynonyms(words: Record<string, string>, tierWeights: readonly number[] = DEFAULT_TIER_WEIGHTS, into: SynonymTable = new Map()): SynonymTable {
  const table = into
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
        if (!related) table.set(key, related = new Map())
        if ((related.get(s) ?? 0) < weight) related.set(s, weight)
      }
    })
  }
  return table
}

/** Adds the neighbour table (weight `scale * cosine`, cosines below `minCos` dropped) into `table`. */
export function addNeighbours(words: Record<string, string>, scale: number, minCos: number, table: SynonymTable = new Map()): SynonymTable {
  for (const key of Object.keys(words)) {
    const parts = words[key].split(' ')
    let related = table.get(key)
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const cos = Number(parts[i + 1]) / 100
      if (!(cos >= minCos) || parts[i] === key) continue
      const weight = scale * cos
      if (!related) table.set(key, related = new Map())
      if ((related.get(parts[i]) ?? 0) < weight) related.set(parts[i], weight)
    }
  }
  return table
}

/** The merged bridging table per weighting, built once per process. */
const tables = new Map<string, Promise<SynonymTable>>()
export function bridgingTable(tierWeights: readonly number[], neighbourWeight: number, neighbourMinCos: number): Promise<SynonymTable> {
  const key = `${tierWeights.join(',')}/${neighbourWeight}/${neighbourMinCos}`
  let table = tables.get(key)
  if (!table) {
    table = (async () => {
      const out: SynonymTable = new Map()
      if (tierWeights.some(w => w > 0)) stemSynonyms(await loadSynonymData(), tierWeights, out)
      if (neighbourWeight > 0) addNeighbours(await loadNeighbourData(), neighbourWeight, neighbourMinCos, out)
      return out
    })()
    tables.set(key, table)
  }
  return table
}

/** `data/<name>` of this package, found from this module whether it runs from src/ or from a bundled dist/. */
async function readDataFile(name: string): Promise<Record<string, string>> {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'data', name)
    if (existsSync(file)) return (JSON.parse(await fs.readFile(file, 'utf8')) as { words: Record<string, string> }).words
    if (path.dirname(dir) === dir) throw new Error(`unplugin-skills: data/${name} is missing from the package`)
  }
}
