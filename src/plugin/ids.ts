import { escapeRegExp } from '../core/escape-regexp'

/** The public module ids, the resolved (\0-prefixed) ids, and the hook filters built from them. */
export const PLUGIN_NAME = 'unplugin-skills'
export const VIRTUAL_ID = 'virtual:skills-manifest'
/** Works in every bundler; webpack rejects the `virtual:` scheme, so generated code imports this form. */
export const ALIAS_ID = '~skills-manifest'
export const RESOLVED_ID = `\0${VIRTUAL_ID}`

/**
 * Sub-modules: one lazy module per skill, the discovery index (its head, then postings shards and
 * per-skill chunk records, each loaded when a query needs it), the browser runtime.
 */
export const SKILL_PREFIX = '/skill/'
/**
 * The loaders of the skill modules, imported on the first `load()`: an import() call per skill would
 * add to the entry's parse at startup.
 */
export const LOADERS_SUFFIX = '/loaders'
export const INDEX_SUFFIX = '/index'
export const POSTINGS_PREFIX = '/index/postings/'
export const INDEX_SKILL_PREFIX = '/index/skill/'
export const RUNTIME_SUFFIX = '/runtime'

/** `virtual:skills-manifest`, `~skills-manifest`, and their sub-paths. */
export const RESOLVE_FILTER = new RegExp(`^(?:${escapeRegExp(VIRTUAL_ID)}|${escapeRegExp(ALIAS_ID)})(?:/.*)?$`)
export const LOAD_FILTER = new RegExp(`^${escapeRegExp(RESOLVED_ID)}(?:/.*)?$`)

/** `~skills-manifest/skill/x` → `\0virtual:skills-manifest/skill/x`. */
export function resolveVirtual(id: string): string {
  const rest = id.startsWith(ALIAS_ID) ? id.slice(ALIAS_ID.length) : id.slice(VIRTUAL_ID.length)
  return RESOLVED_ID + rest
}

export type VirtualModule
  = | { kind: 'main' }
    | { kind: 'skill', name: string }
    | { kind: 'index' }
    | { kind: 'loaders' }
    | { kind: 'postings', shard: number }
    | { kind: 'index-skill', name: string }
    | { kind: 'unknown' }

export function parseVirtual(resolved: string): VirtualModule {
  const rest = resolved.slice(RESOLVED_ID.length).replace(/\?.*$/, '')
  if (rest === '')
    return { kind: 'main' }
  if (rest.startsWith(SKILL_PREFIX)) {
    try {
      return { kind: 'skill', name: decodeURIComponent(rest.slice(SKILL_PREFIX.length)) }
    }
    catch {
      return { kind: 'unknown' }
    }
  }
  if (rest === INDEX_SUFFIX)
    return { kind: 'index' }
  if (rest === LOADERS_SUFFIX)
    return { kind: 'loaders' }
  const shard
    = rest.startsWith(POSTINGS_PREFIX) && /^(?:[0-9a-f]{1,64}\/)?(\d{1,6})$/.exec(rest.slice(POSTINGS_PREFIX.length))
  if (shard)
    return { kind: 'postings', shard: Number(shard[1]) }
  if (rest.startsWith(INDEX_SKILL_PREFIX)) {
    try {
      // An encoded name has no `/`: what precedes one is the content key.
      const part = rest.slice(INDEX_SKILL_PREFIX.length)
      return { kind: 'index-skill', name: decodeURIComponent(part.slice(part.indexOf('/') + 1)) }
    }
    catch {
      return { kind: 'unknown' }
    }
  }
  return { kind: 'unknown' }
}

/**
 * Percent-encodes a skill name for an id; also `.` (path segments), `!` (webpack loader syntax) and the
 * rest encodeURIComponent keeps.
 */
function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/[!'()*.~]/g, c => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
export const skillModuleId = (name: string): string => `${ALIAS_ID}${SKILL_PREFIX}${encodeName(name)}`
export const resolvedSkillId = (name: string): string => `${RESOLVED_ID}${SKILL_PREFIX}${encodeName(name)}`
/**
 * Index parts are addressed by content (`key`: the lock digest, which covers every skill file): a changed
 * index gets new part ids from its head, so the parts need no watch dependencies of their own (1,000+
 * modules each listing every skill file made Vite builds several times slower).
 */
export function postingsModuleId(shard: number, key = ''): string {
  return `${ALIAS_ID}${POSTINGS_PREFIX}${key && `${key}/`}${shard}`
}
/**
 * Resolved ids of the skill loaders and the discovery modules: all change when any skill changes
 * (positions, term ids).
 */
export function sharedModuleIds(skills: readonly string[], shards: number): string[] {
  const ids = [RESOLVED_ID + LOADERS_SUFFIX, RESOLVED_ID + INDEX_SUFFIX]
  for (let i = 0; i < shards; i++) ids.push(`${RESOLVED_ID}${POSTINGS_PREFIX}${i}`)
  for (const name of skills) ids.push(`${RESOLVED_ID}${INDEX_SKILL_PREFIX}${encodeName(name)}`)
  return ids
}
export function indexSkillModuleId(name: string, key = ''): string {
  return `${ALIAS_ID}${INDEX_SKILL_PREFIX}${key && `${key}/`}${encodeName(name)}`
}
/** The browser runtime, imported lazily by `findSkills`: a real file, not a virtual module. */
export const RUNTIME_FILTER = new RegExp(
  `^(?:${escapeRegExp(VIRTUAL_ID)}|${escapeRegExp(ALIAS_ID)})${escapeRegExp(RUNTIME_SUFFIX)}$`,
)
