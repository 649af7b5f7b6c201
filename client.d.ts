// Types for the virtual module. Add `"types": ["unplugin-skills/client"]` to tsconfig.json,
// or `/// <reference types="unplugin-skills/client" />` to a .d.ts of your app.
// They import only the runtime's types: a browser-only tsconfig (no @types/node, skipLibCheck off) checks them.
declare module 'virtual:skills-manifest' {
  import type {
    FindSkillsOptions,
    ManifestSkill,
    SkillMatch,
    SkillName,
    SkillsManifest,
    SkillsManifestSummary,
    SkillSummary,
  } from 'unplugin-skills/runtime'

  /** A skill's summary, its name one of the project's skills (a literal union with the `dts` option). */
  export type NamedSkillSummary = SkillSummary & { name: SkillName }
  /** A skill's summary (what an agent lists and registers) and a loader for its full entry. */
  export type SkillHandle = NamedSkillSummary & { load: () => Promise<ManifestSkill & { name: SkillName }> }
  /** A discovery match, named like `getSkill` expects. */
  export type NamedSkillMatch = SkillMatch & { name: SkillName }

  /**
   * The manifest with skill summaries: full entries (instructions, files, texts) load through
   * `getSkill(name).load()`.
   */
  const manifest: Omit<SkillsManifestSummary, 'skills'> & { skills: NamedSkillSummary[] }
  export default manifest
  export const skills: NamedSkillSummary[]
  export function getSkill(name: SkillName): SkillHandle | undefined
  /** The complete manifest, every skill loaded: equal to skills_manifest.json. */
  export function loadManifest(): Promise<SkillsManifest>
  /**
   * JIT discovery over the pre-compiled index: its head loads on the first call, then the parts each query
   * needs. Chunk texts are null except frontmatter chunks (bodies are not in the entry).
   */
  export function findSkills(query: string, options?: FindSkillsOptions): Promise<NamedSkillMatch[]>
}

declare module '~skills-manifest' {
  export * from 'virtual:skills-manifest'
  export { default } from 'virtual:skills-manifest'
}
