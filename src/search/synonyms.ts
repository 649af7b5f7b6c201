import { existsSync } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { stem } from '../runtime/stem'
import { ANALYZER_VERSION } from '../runtime/text'

/** Bridging vocabulary: stem -> related stems with a weight in (0, 1]. A Map, or anything that looks one up. */
export interface SynonymTable {
  get: (stem: string) => Map<string, number> | undefined
}

/**
 * The WordNet relation tiers, in file order (scripts/build-discovery-data.mjs): the first
 * SHIPPED_TIERS are data/discovery-synonyms.json (shipped); the rest are data/discovery-relations.json,
 * a development file the bench measures them with (they measured as noise on held-out queries).
 */
export const SYNONYM_TIERS = [
  'synonym',
  'related',
  'gloss',
  'hyponym',
  'sibling',
  'definedBy',
  'also',
  'part',
  'domain',
] as const
export const SHIPPED_TIERS = 3

/** Weight of each tier, in SYNONYM_TIERS order (missing entries weigh 0). */
export const DEFAULT_TIER_WEIGHTS: readonly number[] = [1, 0.6, 0.3]

let wordnet: Promise<Record<string, string>> | null = null
let neighbours: Promise<Record<string, string>> | null = null
let relations: Promise<Record<string, string>> | null = null

/**
 * The derived WordNet table, already stemmed (`stem -> "tier1 stems|tier2 stems|tier3 stems"`), loaded
 * once, only when an index is built.
 */
export function loadSynonymData(): Promise<Record<string, string>> {
  wordnet ??= readDataFile('discovery-synonyms.json')
  return wordnet
}

/** The WordNet tiers after SHIPPED_TIERS (development only: not in the published package). */
export function loadRelationData(): Promise<Record<string, string>> {
  relations ??= readDataFile('discovery-relations.json')
  return relations
}

/** The derived GloVe neighbour table (already stemmed: `stem -> "related cos100 related cos100 ..."`). */
export function loadNeighbourData(): Promise<Record<string, string>> {
  neighbours ??= readDataFile('discovery-neighbours.json')
  return neighbours
}

/** Lemma table -> stem table (lemmas sharing a stem are merged, keeping the strongest weight). */
export function stemSynonyms(
  words: Record<string, string>,
  tierWeights: readonly number[] = DEFAULT_TIER_WEIGHTS,
  into: Map<string, Map<string, number>> = new Map(),
): Map<string, Map<string, number>> {
  const table = into
  for (const lemma of Object.keys(words)) {
    const key = stem(lemma)
    let related = table.get(key)
    words[lemma].split('|').forEach((tier, i) => {
      const weight = tierWeights[i] ?? 0
      if (!(weight > 0))
        return
      for (const word of tier.split(' ')) {
        if (!word)
          continue
        const s = stem(word)
        if (s === key)
          continue
        if (!related)
          table.set(key, (related = new Map()))
        if ((related.get(s) ?? 0) < weight)
          related.set(s, weight)
      }
    })
  }
  return table
}

/** Adds the neighbour table (weight `scale * cosine`, cosines below `minCos` dropped) into `table`. */
export function addNeighbours(
  words: Record<string, string>,
  scale: number,
  minCos: number,
  table: Map<string, Map<string, number>> = new Map(),
): Map<string, Map<string, number>> {
  for (const key of Object.keys(words)) {
    const related = neighboursOf(words[key], key, scale, minCos, table.get(key))
    if (related)
      table.set(key, related)
  }
  return table
}

/** One entry of the neighbour table, parsed into `into` (strongest weight per stem). */
function neighboursOf(
  entry: string,
  key: string,
  scale: number,
  minCos: number,
  into?: Map<string, number>,
): Map<string, number> | undefined {
  const parts = entry.split(' ')
  let related = into
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const cos = Number(parts[i + 1]) / 100
    if (!(cos >= minCos) || parts[i] === key)
      continue
    const weight = scale * cos
    related ??= new Map()
    if ((related.get(parts[i]) ?? 0) < weight)
      related.set(parts[i], weight)
  }
  return related
}

/** One entry of the pre-stemmed WordNet table, parsed into `into` (strongest weight per stem over tiers). */
function wordnetOf(
  entry: string,
  key: string,
  tierWeights: readonly number[],
  into?: Map<string, number>,
): Map<string, number> | undefined {
  let related = into
  entry.split('|').forEach((tier, i) => {
    const weight = tierWeights[i] ?? 0
    if (!(weight > 0))
      return
    for (const s of tier.split(' ')) {
      if (!s || s === key)
        continue
      related ??= new Map()
      if ((related.get(s) ?? 0) < weight)
        related.set(s, weight)
    }
  })
  return related
}

/**
 * The merged bridging table per weighting. Entries are parsed on first lookup: a build touches a
 * few thousand stems, not the 56k of WordNet, so parsing the whole table would cost more than the index.
 */
const tables = new Map<string, Promise<SynonymTable>>()
export function bridgingTable(
  tierWeights: readonly number[],
  neighbourWeight: number,
  neighbourMinCos: number,
): Promise<SynonymTable> {
  const key = `${tierWeights.join(',')}/${neighbourWeight}/${neighbourMinCos}`
  let table = tables.get(key)
  if (!table) {
    table = (async () => {
      const shipped = tierWeights.slice(0, SHIPPED_TIERS)
      const extra = tierWeights.slice(SHIPPED_TIERS)
      const wn = shipped.some(w => w > 0) ? await loadSynonymData() : {}
      const rel = extra.some(w => w > 0) ? await loadRelationData() : {}
      const nb = neighbourWeight > 0 ? await loadNeighbourData() : {}
      const parsed = new Map<string, Map<string, number> | undefined>()
      const own = Object.prototype.hasOwnProperty
      return {
        get(stem: string) {
          if (parsed.has(stem))
            return parsed.get(stem)
          let related: Map<string, number> | undefined
          if (own.call(wn, stem))
            related = wordnetOf(wn[stem], stem, shipped, related)
          if (own.call(rel, stem))
            related = wordnetOf(rel[stem], stem, extra, related)
          if (own.call(nb, stem))
            related = neighboursOf(nb[stem], stem, neighbourWeight, neighbourMinCos, related)
          parsed.set(stem, related)
          return related
        },
      }
    })()
    tables.set(key, table)
  }
  return table
}

/** `data/<name>` of this package, found from this module whether it runs from src/ or from a bundled dist/. */
async function readDataFile(name: string): Promise<Record<string, string>> {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'data', name)
    if (existsSync(file)) {
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as { analyzer?: number, words?: Record<string, string> }
      // Its keys are stems: a table stemmed by another analyzer would bridge stems no index holds, silently.
      if (data.analyzer !== ANALYZER_VERSION) {
        throw new Error(
          `unplugin-skills: data/${name} was stemmed with analyzer ${data.analyzer}, not ${ANALYZER_VERSION} `
          + '(regenerate it: node --import tsx scripts/build-discovery-data.mjs)',
        )
      }
      return data.words ?? {}
    }
    if (path.dirname(dir) === dir)
      throw new Error(`unplugin-skills: data/${name} is missing from the package`)
  }
}
