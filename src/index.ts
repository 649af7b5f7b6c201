export { audit, GENERATOR, SkillsEngine } from './audit/engine'
export type { AuditRequest, AuditResult, LockStatus } from './audit/engine'
export { readLock } from './audit/lockfile'
export type { SkillDrift } from './audit/lockfile'
export { serializeManifest } from './audit/manifest'
export { defineConfig } from './core/config'
export { formatDiagnostic, formatReport, formatSummary } from './core/format'
export { parseFrontmatter } from './core/frontmatter'
export { DEFAULT_OPTIONS, resolveOptions } from './core/options'
export type {
  CustomRule,
  Options,
  Override,
  ResolvedOptions,
  RootOptions,
  ScannerOptions,
  SchemeResolver,
  Waiver,
} from './core/options'
export type * from './core/types'
export { OptionsError } from './core/validate-options'
export { default, unplugin, unpluginFactory } from './plugin/unplugin'
