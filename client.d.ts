// Types for the virtual module. Add `"types": ["unplugin-skills/client"]` to tsconfig.json,
// or `/// <reference types="unplugin-skills/client" />` to a .d.ts of your app.
declare module 'virtual:skills-manifest' {
  import type { ManifestSkill, SkillName, SkillsManifest } from 'unplugin-skills'
  import type { FindSkillsOptions, SkillMatch } from 'unplugin-skills/runtime'

  /** A skill's summary (no instructions or embedded texts) and a loader for its full entry. */
  export type SkillHandle = ManifestSkill & { load: () => Promise<ManifestSkill> }

  /** The manifest with skill summaries: instruction bodies and texts load lazily through `getSkill(name).load()`. */
  const manifest: SkillsManifest
  export default manifest
  export const skills: ManifestSkill[]
  export function getSkill(name: SkillName): SkillHandle | undefined
  /** The complete manifest, every skill loaded: equal to skills_manifest.json. */
  export function loadManifest(): Promise<SkillsManifest>
  /** JIT discovery over the pre-compiled index (loaded on first call). */
  export function findSkills(query: string, options?: FindSkillsOptions): Promise<SkillMatch[]>
}

declare module '~skills-manifest' {
  export * from 'virtual:skills-manifest'
  export { default } from 'virtual:skills-manifest'
}
