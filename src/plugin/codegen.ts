import { summarizeSkill } from '../manifest'
import type { ManifestSkill, SkillsManifest } from '../types'
import { ALIAS_ID, INDEX_SUFFIX, RUNTIME_SUFFIX, skillModuleId } from './ids'

/** A JSON value as a JS expression; JSON.parse of a string literal is the fastest way to ship large data. */
const data = (value: unknown): string => `JSON.parse(${JSON.stringify(JSON.stringify(value))})`

/**
 * The entry module: skill summaries only. Bodies, embedded texts and the discovery index live in
 * modules imported lazily, so 1,000 skills don't put every body in the entry chunk.
 */
export function mainModule(manifest: SkillsManifest): string {
  const { index: _index, ...head } = manifest
  const summary = { ...head, skills: manifest.skills.map(summarizeSkill) }
  const loaders = manifest.skills.map(s => `  ${JSON.stringify(s.name)}: () => import(${JSON.stringify(skillModuleId(s.name))}),`).join('\n')
  return `const manifest = ${data(summary)}
const loaders = {
${loaders}
}
export default manifest
export const skills = manifest.skills
const byName = new Map(skills.map(skill => [skill.name, skill]))
/** A skill's summary, with \`load()\` resolving to its full entry (instructions, texts, scenarios). */
export function getSkill(name) {
  const skill = byName.get(name)
  return skill && { ...skill, load: () => loaders[name]().then(m => m.default) }
}
/** The complete manifest, every skill loaded: equal to skills_manifest.json. */
export async function loadManifest() {
  const [full, index] = await Promise.all([Promise.all(skills.map(s => loaders[s.name]().then(m => m.default))), loadIndex()])
  const result = { ...manifest, skills: full }
  if (index !== undefined) result.index = index
  return result
}
const loadIndex = () => import(${JSON.stringify(ALIAS_ID + INDEX_SUFFIX)}).then(m => m.default)
let searchable
/** JIT discovery: the best skills for a query, best first. */
export async function findSkills(query, options) {
  searchable ??= Promise.all([import(${JSON.stringify(ALIAS_ID + RUNTIME_SUFFIX)}), loadIndex()]).then(([runtime, index]) => ({ runtime, manifest: { ...manifest, index } }))
  const { runtime, manifest: withIndex } = await searchable
  return runtime.findSkills(withIndex, query, options)
}
`
}

export function skillModule(skill: ManifestSkill): string {
  return `export default ${data(skill)}\n`
}

export function indexModule(manifest: SkillsManifest): string {
  return `export default ${manifest.index === undefined ? 'undefined' : data(manifest.index)}\n`
}
