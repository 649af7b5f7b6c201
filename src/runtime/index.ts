// The manifest's types, for client.d.ts and browser code: this entry's types need neither Node nor a bundler.
export type {
  ManifestSkill,
  SkillName,
  SkillNames,
  SkillsManifest,
  SkillsManifestSummary,
  SkillSummary,
} from '../core/types'
export * from './approval'
export { checkSkillLoad, composedSkillsOf, createSkillLoader, SkillLoadRefusedError } from './compose'
export type { SkillLoadDecision, SkillLoader } from './compose'
/**
 * `unplugin-skills/runtime`: browser-, edge- and Node-safe. Reads only the pre-compiled manifest
 * (zero I/O); its only dependency is @noble/hashes.
 */
export { computeSkillDigest, sha256Hex } from './digest'
export { DISCOVERY_FORMAT, isDiscoveryIndex } from './discovery-index'
export type { ChunkKind, DiscoveryIndex } from './discovery-index'
export { findSkills, warmDiscovery } from './find'
export type { ChunkMatch, FindSkillsOptions, SkillMatch } from './find'
export { findSkillsLoading } from './find-loading'
export type { IndexParts } from './find-loading'
export { toSkillRegister } from './register'
export type { ProvenanceOrigin, SkillRegisterOptions, SkillRegisterPayload } from './register'
export * from './scenario'
export { verifySkill } from './verify'
export type { FetchedFiles, SkillVerification, VerifyOptions } from './verify'
