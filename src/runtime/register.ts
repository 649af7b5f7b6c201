import type { ManifestSkill } from '../core/types'
import { composedSkillsOf, stringListOf } from './compose'
import { sha256Hex } from './digest'

/** `registration_provenance.origin` values of acs-provenance.schema.json. */
export type ProvenanceOrigin
  = 'user_input' | 'system' | 'tool_output' | 'retrieved' | 'agent_generated' | 'a2a_inbound' | 'external'

export interface SkillRegisterOptions {
  /** AgBOM id of the skill. @default `sk-` + 8 hex of SHA-256(source + name): stable across versions */
  skillId?: string
  /** Publisher. @default frontmatter `provider`/`author`/`owner` (top level or under metadata), else the source */
  provider?: string
  /** URI of the complete artifact. @default the skill's `uri` (castor://), its `urn`, else `urn:unplugin-skills:skill:<name>:<version>` */
  ref?: string
  /** Inline inspection text: `false` omits it. @default the SKILL.md instructions */
  body?: string | false
  /** How the skill entered the available set. @default 'system' (bundled into the app at build time) */
  origin?: ProvenanceOrigin
  /** @default the skill's source URI */
  sourceId?: string
  /** Component ids for `composition.tools`. @default `allowed-tools` of the frontmatter */
  tools?: string[]
  mcpServers?: string[]
  a2aPeers?: string[]
  models?: string[]
}

/** The `steps/skillRegister` payload of the Agent Control Standard (acs-skill-register.schema.json). */
export interface SkillRegisterPayload {
  skill_id: string
  skill: { name: string, version?: string, provider: string }
  definition: {
    ref: string
    digest: { algorithm: 'sha-256', value: string }
    body?: string
  }
  declared_capabilities: string[]
  composition: {
    tools?: string[]
    mcp_servers?: string[]
    a2a_peers?: string[]
    models?: string[]
    composed_skills: string[]
  }
  registration_provenance: {
    provenance_id: string
    origin: ProvenanceOrigin
    source_id: string
  }
}

function frontmatterString(skill: ManifestSkill, keys: string[]): string | null {
  const fm = (skill.frontmatter ?? {}) as Record<string, unknown>
  const meta = fm.metadata && typeof fm.metadata === 'object' ? (fm.metadata as Record<string, unknown>) : {}
  for (const key of keys) {
    for (const v of [fm[key], meta[key]]) {
      if (typeof v === 'string' && v.trim())
        return v.trim()
      if (v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string')
        return (v as { name: string }).name
    }
  }
  return null
}

/** `allowed-tools` is a space-separated string (`Read Bash(git:*)`) or, in the wild, a list. */
function allowedTools(skill: ManifestSkill): string[] {
  const v = (skill.frontmatter ?? {})['allowed-tools']
  if (typeof v === 'string') {
    return v
      .split(/\s+(?![^()]*\))/)
      .map(s => s.trim())
      .filter(Boolean)
  }
  return stringListOf(v)
}

/** A URN segment: anything outside unreserved characters percent-encoded, so the ref is always a valid URI. */
function urnPart(s: string) {
  return encodeURIComponent(s).replace(/[!'()*]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * The ACS `steps/skillRegister` payload for a manifest skill: identity, the whole-artifact digest
 * (what `steps/skillLoad` is later bound against), declared capabilities, composition (including
 * `composed_skills`) and provenance. Pure: the same skill and options give the same payload.
 */
export function toSkillRegister(skill: ManifestSkill, options: SkillRegisterOptions = {}): SkillRegisterPayload {
  const version = typeof skill.version === 'string' && skill.version ? skill.version : null
  const source = typeof skill.source === 'string' && skill.source ? skill.source : (skill.path ?? skill.name)
  const ref
    = options.ref
      ?? skill.uri
      ?? skill.urn
      ?? `urn:unplugin-skills:skill:${urnPart(skill.name)}:${urnPart(version ?? '0.0.0')}`
  const digest = skill.integrity?.value ?? skill.digest
  const composition: SkillRegisterPayload['composition'] = { composed_skills: composedSkillsOf(skill) }
  const tools = options.tools ?? allowedTools(skill)
  if (tools.length)
    composition.tools = [...tools]
  if (options.mcpServers)
    composition.mcp_servers = [...options.mcpServers]
  if (options.a2aPeers)
    composition.a2a_peers = [...options.a2aPeers]
  if (options.models)
    composition.models = [...options.models]

  const payload: SkillRegisterPayload = {
    skill_id: options.skillId ?? `sk-${sha256Hex(`${source}\n${skill.name}`).slice(0, 8)}`,
    skill: {
      name: skill.name,
      ...(version ? { version } : {}),
      provider: options.provider ?? frontmatterString(skill, ['provider', 'publisher', 'author', 'owner']) ?? source,
    },
    definition: { ref, digest: { algorithm: 'sha-256', value: digest } },
    declared_capabilities: [...(skill.capabilities?.declared ?? [])],
    composition,
    registration_provenance: {
      provenance_id: `prov-${digest.slice(0, 16)}`,
      origin: options.origin ?? 'system',
      source_id: options.sourceId ?? source,
    },
  }
  const body = options.body === undefined ? skill.body : options.body
  if (typeof body === 'string')
    payload.definition.body = body
  return payload
}
