// Types for the virtual module. Add `"types": ["unplugin-skills/client"]` to tsconfig.json,
// or `/// <reference types="unplugin-skills/client" />` to a .d.ts of your app.
declare module 'virtual:skills-manifest' {
  import type { ManifestSkill, SkillName, SkillsManifest, SkillsManifestSummary, SkillSummary } from 'unplugin-skills'
  import type { FindSkillsOptions, SkillMatch } from 'unplugin-skills/runtime'

  /** A skill's summary (what an agent lists and registers) and a loader for its full entry. */
  export type SkillHandle = SkillSummary & { load: () => Promise<ManifestSkill> }

  /**
   * The manifest with skill summaries: full entries (instructions, files, texts) load through
   * `getSkill(name).load()`.
   */
  const manifest: SkillsManifestSummary
  export default manifest
  export const skills: SkillSummary[]
  export function getSkill(name: SkillName): SkillHandle | undefined
  /** The complete manifest, every skill loaded: equal to skills_manifest.json. */
  export function loadManifest(): Promise<SkillsManifest>
  /**
   * JIT discovery over the pre-compiled index: its head loads on the first call, then the parts each query
   * needs. Chunk texts are null except frontmatter chunks (bodies are not in the entry).
   */
  export function findSkills(query: string, options?: FindSkillsOptions): Promise<SkillMatch[]>
}

declare module '~skills-manifest' {
  export * from 'virtual:skills-manifest'
  export { default } from 'virtual:skills-manifest'
}
