import type { ManifestSkill, SkillsManifest, SkillSummary } from '../core/types'
import type { DiscoveryIndex } from '../runtime/discovery-index'
import { summarizeManifest } from '../audit/manifest'
import { isDiscoveryIndex } from '../runtime/discovery-index'
import {
  ALIAS_ID,
  INDEX_SUFFIX,
  indexSkillModuleId,
  LOADERS_SUFFIX,
  postingsModuleId,
  RUNTIME_SUFFIX,
  skillModuleId,
} from './ids'

const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\'': '\\\'',
  '\n': '\\n',
  '\r': '\\r',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}
/**
 * A JSON value as a JS expression: JSON.parse of a string literal is the fastest way to ship
 * object-heavy data, and single quotes leave JSON's many `"` unescaped (fewer bytes to scan).
 */
function data(value: unknown): string {
  return `JSON.parse('${JSON.stringify(value).replace(/[\\'\n\r\u2028\u2029]/g, c => ESCAPES[c])}')`
}
const BUCKET = 8

/**
 * `name(i)` imports module `ids[i]`. The import() calls must be literal for bundlers to split the
 * modules; a few switch functions of BUCKET cases are only pre-parsed until called, then compiled
 * bucket by bucket (one switch of a thousand cases is slow to compile on its first call). A first
 * query calls about a dozen buckets (one per shard and record it loads): 8 cases each compile faster
 * than 32, and 4 cost more at import than they save. They are function declarations: arrow functions
 * in an array literal were parsed in full at import.
 */
function loader(name: string, ids: readonly string[]): string {
  const buckets: string[] = []
  for (let b = 0; b * BUCKET < ids.length; b++) {
    const cases = ids
      .slice(b * BUCKET, (b + 1) * BUCKET)
      .map((id, j) => `    case ${b * BUCKET + j}: return import(${JSON.stringify(id)})`)
      .join('\n')
    buckets.push(`function ${name}${b}(i) {\n  switch (i) {\n${cases}\n  }\n}`)
  }
  return `${buckets.join('\n')}
const ${name}Buckets = [${buckets.map((_, b) => `${name}${b}`).join(', ')}]
const ${name} = i => ${name}Buckets[Math.floor(i / ${BUCKET})]?.(i) ?? Promise.resolve({})`
}

/** The object literal the entry builds a summary with (see isPlainSummary), in summarizeSkill's key order. */
function plainSummary(source: string): string {
  return `{ name: N[i], description: D[i], version: V[i], source: ${source}, digest: G[i], capabilities: P[i], `
    + 'workload: \'read\', requiresApproval: false, counts: K[i] }'
}
/**
 * The summaries' nested objects (capabilities, counts), one of each per skill, made by JSON.parse
 * from text built at import: module code runs once in the interpreter, without the feedback that
 * lets object literals be cloned from a boilerplate, so each nested literal in the loop was a
 * runtime call (a large share of the loop's time), where JSON.parse builds them natively.
 */
const NESTED = `const P = JSON.parse(\`[\${'{"declared":[],"detected":[]},'.repeat(N.length).slice(0, -1)}]\`)
const K = JSON.parse(\`[\${N.map((_, i) => \`{"files":\${F[i]},"scenarios":\${C[i]},"findings":{}}\`).join(',')}]\`)`

/** Whether the entry's literal rebuilds this summary exactly (same keys, order and values). */
function isPlainSummary(s: SkillSummary): boolean {
  const plain = {
    name: s.name,
    description: s.description,
    version: s.version,
    source: s.source,
    digest: s.digest,
    capabilities: { declared: [], detected: [] },
    workload: 'read',
    requiresApproval: false,
    counts: { files: s.counts.files, scenarios: s.counts.scenarios, findings: {} },
  }
  return (
    typeof s.name === 'string'
    && typeof s.description === 'string'
    && (typeof s.version === 'string' || s.version === null)
    && typeof s.source === 'string'
    && typeof s.digest === 'string'
    && Number.isFinite(s.counts.files)
    && Number.isFinite(s.counts.scenarios)
    && JSON.stringify(plain) === JSON.stringify(s)
  )
}

// Pieces of the entry's code, named to keep its lines short: every skill's full entry, and the
// search runtime with the index module, paired once.
const LOAD_ALL_SKILLS = 'Promise.all(skills.map((_, i) => loadSkill(i).then(m => m.default)))'
const SEARCHABLE = '([runtime, index]) => ({ runtime, index, manifest: { ...manifest, index: index.default } })'

/**
 * The entry module: skill summaries only (what an agent lists and registers at startup). Full
 * entries, the discovery index and the runtime live in modules imported lazily, so 1,000 skills
 * don't put every body, file list or index record in the entry chunk.
 */
export function mainModule(manifest: SkillsManifest): string {
  const { skills: summaries, ...head } = summarizeManifest(manifest)
  // Summaries as columns, objects built by one literal in a loop: no key repeated 1,000 times in
  // the data (a third of its bytes) and no default added to parsed objects afterwards. A summary
  // that differs from the literal's shape (declared capabilities, findings, a write workload, a URI)
  // ships whole.
  const special: Record<number, SkillSummary> = {}
  summaries.forEach((s, i) => {
    if (!isPlainSummary(s))
      special[i] = s
  })
  // Most skills sit at `<root>/<name>`: their source is the most common such root plus the name (0 in the column).
  const roots = new Map<string, number>()
  for (const s of summaries) {
    if (typeof s.source === 'string' && s.source.endsWith(`/${s.name}`)) {
      const root = s.source.slice(0, s.source.length - s.name.length)
      roots.set(root, (roots.get(root) ?? 0) + 1)
    }
  }
  const root = [...roots].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? ''
  const sources = summaries.map(s => (root && s.source === root + s.name ? 0 : s.source))
  // The loop runs once, in the interpreter (module code is not optimised): every lookup it can skip
  // is ~1,000 fewer bytecode dispatches at import, so the source column and the special-case lookup
  // are left out when no skill needs them.
  const rooted = sources.every(s => s === 0)
  const specials = Object.keys(special).length > 0
  const columns = [
    summaries.map(s => s.name),
    summaries.map(s => s.description),
    summaries.map(s => s.version),
    rooted ? [] : sources,
    summaries.map(s => s.digest),
    // Special summaries ship whole: 0 in their columns keeps the counts text built at import valid JSON.
    summaries.map((s, i) => (special[i] ? 0 : s.counts.files)),
    summaries.map((s, i) => (special[i] ? 0 : s.counts.scenarios)),
  ]
  const summary = plainSummary(rooted ? 'R + N[i]' : 'S[i] === 0 ? R + N[i] : S[i]')
  return `const manifest = ${data({ ...head, skills: [] })}
const R = ${JSON.stringify(root)}
const [N, D, V, S, G, F, C] = ${data(columns)}
${NESTED}
${
  specials
    ? `const special = ${data(special)}
for (let i = 0; i < N.length; i++) {
  manifest.skills.push(special[i] ?? ${summary})
}`
    : `for (let i = 0; i < N.length; i++) {
  manifest.skills.push(${summary})
}`
}
const loadSkill = i => import(${JSON.stringify(ALIAS_ID + LOADERS_SUFFIX)}).then(m => m.loadSkill(i))
export default manifest
export const skills = manifest.skills
let byName
/** A skill's summary, with \`load()\` resolving to its full entry (instructions, files, texts, scenarios). */
export function getSkill(name) {
  byName ??= new Map(skills.map((skill, i) => [skill.name, i]))
  const i = byName.get(name)
  return i === undefined ? undefined : { ...skills[i], load: () => loadSkill(i).then(m => m.default) }
}
const loadIndex = () => import(${JSON.stringify(ALIAS_ID + INDEX_SUFFIX)})
/** The complete manifest, every skill loaded: equal to skills_manifest.json. */
export async function loadManifest() {
  const [full, index] = await Promise.all([${LOAD_ALL_SKILLS}, loadIndex().then(m => m.complete())])
  const { skills: _summaries, ...head } = manifest
  const result = { ...head, skills: full }
  if (index !== undefined) result.index = index
  return result
}
let searchable
/** JIT discovery: the best skills for a query, best first; index parts load as queries need them. */
export async function findSkills(query, options) {
  searchable ??= Promise.all([import(${JSON.stringify(ALIAS_ID + RUNTIME_SUFFIX)}), loadIndex()]).then(${SEARCHABLE})
  const { runtime, index, manifest: withIndex } = await searchable
  return runtime.findSkillsLoading(withIndex, query, options, index.load)
}
`
}

/** The skill modules' loaders, by skill index (kept out of the entry module). */
export function loadersModule(manifest: SkillsManifest): string {
  return `${loader(
    'loadSkill',
    manifest.skills.map(s => skillModuleId(s.name)),
  )}
export { loadSkill }
`
}

export function skillModule(skill: ManifestSkill): string {
  return `export default ${data(skill)}\n`
}

// Pieces of the index module's code, named to keep its lines short: a loaded postings shard, a
// skill's loaded chunk records, each stored into the index.
const STORE_POSTINGS = '(m) => { if (typeof m.default === \'string\') index.postings[i] = m.default }'
const STORE_RECORDS
  = '(m) => { if (typeof m.chunks === \'string\') { index.chunks[s] = m.chunks; index.inline[s] = m.inline } }'

/**
 * The discovery index's head: everything but the postings and the per-skill chunk records, which
 * are modules of their own that \`load\` imports when a query needs them (see findSkillsLoading).
 * The head's data is JSON.parse'd: its 1,000-name skill list costs more as an array literal.
 */
export function indexModule(manifest: SkillsManifest): string {
  const index = manifest.index
  if (!isDiscoveryIndex(index)) {
    // No index (or one this runtime can't read): served whole, nothing to load in parts.
    return `const index = ${index === undefined ? 'undefined' : data(index)}
export default index
export async function load() {}
export async function complete() {
  return index
}
`
  }
  const head: DiscoveryIndex = { ...index, postings: [], chunks: [], inline: [] }
  const key = manifest.lockDigest.slice(0, 16)
  return `const index = ${data(head)}
${loader(
  'loadPostings',
  index.postings.map((_, i) => postingsModuleId(i, key)),
)}
${loader(
  'loadRecords',
  index.skills.map(name => indexSkillModuleId(name, key)),
)}
export default index
/** Loads postings shards and skills' chunk records (by skill index) into the index. */
export async function load(parts) {
  await Promise.all([
    ...parts.postings.map(i => loadPostings(i).then(${STORE_POSTINGS})),
    ...parts.chunks.map(s => loadRecords(s).then(${STORE_RECORDS})),
  ])
}
/** The complete index, every part loaded: equal to skills_manifest.json's. */
export async function complete() {
  await load({ postings: index.postingShards.map((_, i) => i), chunks: index.skills.map((_, s) => s) })
  return { ...index, postings: [...index.postings], chunks: [...index.chunks], inline: [...index.inline] }
}
`
}

export function postingsModule(manifest: SkillsManifest, shard: number): string {
  const index = manifest.index
  const text = isDiscoveryIndex(index) ? index.postings[shard] : undefined
  return `export default ${typeof text === 'string' ? JSON.stringify(text) : 'undefined'}\n`
}

export function indexSkillModule(manifest: SkillsManifest, name: string): string {
  const index = manifest.index
  const s = isDiscoveryIndex(index) ? index.skills.indexOf(name) : -1
  if (!isDiscoveryIndex(index) || s < 0)
    return `export const chunks = undefined\nexport const inline = undefined\n`
  return `export const chunks = ${JSON.stringify(index.chunks[s])}\n`
    + `export const inline = ${JSON.stringify(index.inline[s])}\n`
}
