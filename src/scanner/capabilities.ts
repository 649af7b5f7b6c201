import type { Capability } from '../core/types'

/** The capability vocabulary, in its canonical order (also the order of every capability list we emit). */
export const CAPABILITIES: readonly Capability[] = ['network', 'fs:write', 'process', 'env', 'secrets', 'dynamic-code']

/** Capabilities the scanner detects (each capability rule's `meta.capability`). */
export const DETECTABLE: readonly Capability[] = ['network', 'fs:write', 'process', 'env', 'secrets', 'dynamic-code']

const ALIASES: Record<string, Capability> = {
  'network': 'network',
  'net': 'network',
  'internet': 'network',
  'fs:write': 'fs:write',
  'fs-write': 'fs:write',
  'fs_write': 'fs:write',
  'filesystem:write': 'fs:write',
  'process': 'process',
  'exec': 'process',
  'spawn': 'process',
  'env': 'env',
  'secrets': 'secrets',
  'dynamic-code': 'dynamic-code',
  'eval': 'dynamic-code',
  'code:eval': 'dynamic-code',
}

// allowed-tools entries (Claude Code, Copilot, Cursor names) mapped onto the vocabulary; read-only tools map to
// nothing.
const TOOL_CAPS: Record<string, Capability[]> = {
  bash: ['process'],
  shell: ['process'],
  powershell: ['process'],
  terminal: ['process'],
  run_terminal_cmd: ['process'],
  runcommand: ['process'],
  execute: ['process'],
  exec: ['process'],
  computer: ['process'],
  killshell: ['process'],
  webfetch: ['network'],
  websearch: ['network'],
  fetch: ['network'],
  browser: ['network'],
  http: ['network'],
  web_search: ['network'],
  write: ['fs:write'],
  edit: ['fs:write'],
  multiedit: ['fs:write'],
  notebookedit: ['fs:write'],
  create: ['fs:write'],
  str_replace_editor: ['fs:write'],
  apply_patch: ['fs:write'],
  delete: ['fs:write'],
}
// Shell tools restricted to a network command (`Bash(curl:*)`) also grant the network.
const NETWORK_COMMANDS = /^(?:curl|wget|gh|http|https|nc|ssh|scp|rsync)\b/

/** Splits `Bash(git commit:*) Read WebFetch` on spaces outside parentheses; lists pass through. */
function toolEntries(value: unknown): string[] {
  if (Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string').flatMap(v => toolEntries(v))
  if (typeof value !== 'string')
    return []
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of value) {
    if (ch === '(')
      depth++
    else if (ch === ')')
      depth = Math.max(0, depth - 1)
    if ((ch === ' ' || ch === ',' || ch === '\n' || ch === '\t') && depth === 0) {
      if (cur)
        out.push(cur)
      cur = ''
    }
    else {
      cur += ch
    }
  }
  if (cur)
    out.push(cur)
  return out
}

function words(value: unknown): string[] {
  if (Array.isArray(value))
    return value.flatMap(v => (typeof v === 'string' ? words(v) : []))
  if (typeof value !== 'string')
    return []
  return value.split(/[\s,]+/).filter(Boolean)
}

export function sortCapabilities(list: Iterable<Capability>): Capability[] {
  const set = new Set(list)
  return CAPABILITIES.filter(c => set.has(c))
}

/** What a skill declares: `capabilities` (vocabulary words, top level or under `metadata`) and `allowed-tools`. */
export function declaredCapabilities(frontmatter: Record<string, unknown>): {
  capabilities: Capability[]
  unknown: string[]
} {
  const fm = frontmatter && typeof frontmatter === 'object' ? frontmatter : {}
  const meta
    = fm.metadata && typeof fm.metadata === 'object' && !Array.isArray(fm.metadata)
      ? (fm.metadata as Record<string, unknown>)
      : {}
  const caps = new Set<Capability>()
  const unknown = new Set<string>()
  for (const word of [...words(fm.capabilities), ...words(meta.capabilities)]) {
    const cap = ALIASES[word.toLowerCase()]
    if (cap)
      caps.add(cap)
    else unknown.add(word)
  }
  for (const entry of [
    ...toolEntries(fm['allowed-tools']),
    ...toolEntries(fm.allowed_tools),
    ...toolEntries(meta['allowed-tools']),
  ]) {
    const m = /^([\w.-]+)(?:\((.*)\))?$/s.exec(entry.trim())
    if (!m)
      continue
    for (const c of TOOL_CAPS[m[1]!.toLowerCase()] ?? []) caps.add(c)
    if (m[2] && TOOL_CAPS[m[1]!.toLowerCase()]?.includes('process') && NETWORK_COMMANDS.test(m[2].trim()))
      caps.add('network')
  }
  return { capabilities: sortCapabilities(caps), unknown: [...unknown].sort() }
}
