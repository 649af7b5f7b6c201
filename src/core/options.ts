import type { Capability, Profile, Severity } from './types'
import path from 'node:path'
import process from 'node:process'
import { assertOptions } from './validate-options'

/** Resolves a URI scheme (`github:`, `castor:`, ...) to a local directory, e.g. a vendored cache. */
export type SchemeResolver = (uri: string, context: { root: string }) => string | Promise<string>

export interface CustomRule {
  /** Rule id, reported as `scan/<id>`. */
  id: string
  /** A RegExp (or its source) tested against each line of matching files. */
  pattern: RegExp | string
  /** @default 'warning' */
  severity?: Severity
  /** e.g. `CWE-200`. */
  cwe?: string
  /** Glob(s) relative to the skill root. @default ['**'] */
  files?: string | string[]
  /** Shown with each finding. */
  message?: string
  hint?: string
}

export interface ScannerOptions {
  /**
   * Per-rule severity override, or `'off'`.
   * @example { fs_write: 'error', obfuscation: 'off' }
   */
  rules?: Record<string, Severity | 'off'>
  /** Project-specific rules. */
  custom?: CustomRule[]
  /**
   * Text files larger than this many bytes get a warning and are scanned in bounded windows.
   * @default 1048576
   */
  maxTextSize?: number
}

/** A root with settings of its own: for skills you vendor and don't edit. */
export interface RootOptions {
  /** Where the skills are: a path relative to `root`, a `file://` URI, `pkg://...`, or a `resolvers` scheme. */
  path: string
  /**
   * The profile of the skills under this root.
   * @default the top-level `profile`
   * @example 'agentskills'
   */
  profile?: Profile
  /** @default the top-level `strict` */
  strict?: boolean
  /**
   * Capabilities denied to the skills under this root, on top of the top-level `deny`.
   * @default []
   */
  deny?: Capability[]
}

/** A threat finding waived by the project: one rule in one file of the skill, never a whole rule or skill. */
export interface Waiver {
  /** Rule id, with or without `scan/`. */
  rule: string
  /** posix path relative to the skill root, e.g. `scripts/install.sh`. */
  file: string
}

/**
 * Policy for skills addressed by name, in the spirit of ESLint's overrides. Listed in `check` and the manifest.
 * @example { skills: 'pptx', capabilities: ['process'], reason: 'converts slides with a LibreOffice subprocess' }
 */
export interface Override {
  /** Skill names or globs (`office-*`). */
  skills: string | string[]
  /** Capabilities reviewed for these skills: their uses are reported as info, as if declared (`deny` still wins). */
  capabilities?: Capability[]
  /** Severity of capability rules and scan meta rules for these skills. Threat rules are waived with `waive`. */
  rules?: Record<string, Severity | 'off'>
  /** Threat findings waived one by one (rule + file). */
  waive?: Waiver[]
  /** Why this is safe: required. */
  reason: string
}

export interface Options {
  /**
   * Project root: relative roots, the lock and the manifest resolve against it.
   * @default the bundler's root, else `process.cwd()`
   */
  root?: string
  /**
   * Where skills live: paths relative to `root`, `file://` URIs, `pkg://<npm package>[/subpath]`,
   * or any scheme that has a `resolvers` entry.
   * A root can carry its own profile, `strict` and `deny`: `{ path: 'pkg://@acme/pack', profile: 'agentskills' }`.
   * @default ['skills']
   * @example ['skills', 'pkg://@acme/skill-pack/skills']
   */
  roots?: string | Array<string | RootOptions>
  /**
   * Validation profile: `enterprise` (spec: name, description, version, domain, category,
   * references/ and examples/ required) or `agentskills` (the agentskills.io baseline).
   * @default 'enterprise'
   */
  profile?: Profile
  /**
   * An extra JSON Schema every frontmatter must satisfy: a path (relative to `root`) or the schema object.
   * @example './schemas/our-skill.schema.json'
   */
  schema?: string | Record<string, unknown>
  /**
   * `verify` fails on any drift from `.manifest.lock`; `update` rewrites it; `false` ignores it.
   * @default 'verify'
   */
  lock?: 'verify' | 'update' | false
  /**
   * Lockfile path, relative to `root`.
   * @default '.manifest.lock'
   */
  lockFile?: string
  /**
   * In CI a missing lock is an error instead of being created.
   * @default Boolean(process.env.CI)
   */
  ci?: boolean
  /**
   * File name of the pre-compiled manifest (`false`: don't emit it).
   * @default 'skills_manifest.json'
   */
  manifest?: string | false
  /**
   * Scheme → resolver for roots that are not local.
   * @example { github: (uri) => `vendor/${uri.slice('github://'.length)}` }
   */
  resolvers?: Record<string, SchemeResolver>
  /** Static security scanner settings. */
  scanner?: ScannerOptions
  /**
   * Warn when the SKILL.md body exceeds this many lines.
   * @default 500
   */
  maxBodyLines?: number
  /**
   * Enterprise strict mode: quality warnings (HTTP 429 handling, ...) become errors.
   * @default false
   */
  strict?: boolean
  /**
   * With an application identity, each skill gets its canonical `castor://` URI and URN.
   * @example { domain: 'retailcortex.com', name: 'checkout-agent' }
   */
  app?: { domain: string, name: string }
  /**
   * Bundlers only: write a `.d.ts` with the literal union of skill names (`true`: `skills.d.ts`).
   * @default false
   */
  dts?: boolean | string
  /**
   * Capabilities the project forbids outright, whatever a skill declares or an override reviews.
   * @default []
   */
  deny?: Capability[]
  /**
   * Policy for skills you don't edit: reviewed capabilities, capability rule severities, waived threat findings.
   * Every entry needs a `reason`.
   * @default []
   * @example [{ skills: 'pptx', capabilities: ['process'], reason: 'LibreOffice converts the slides' }]
   */
  overrides?: Override[]
  /**
   * Worker threads that audit skills (read, hash, validate, scan) alongside the main thread, for cold
   * audits of at least 200 skills; `0`: the main thread does everything. Results are byte-identical either way.
   * Off by default: every CLI run and `vite build` is a fresh process, where a worker starts cold (it loads
   * and warms up the checks before its first skill); it costs more CPU, and only trees of about a thousand
   * skills or more on an idle machine finish sooner with it (bench/README.md).
   * @default 0
   */
  workers?: number
  /**
   * Keep each skill's check results between runs, keyed by the SHA-256 of its files and everything that
   * changes a verdict (package version, profile, scanner settings, deny, overrides): every file is still
   * read and hashed on every run. `false`: check everything anew (CLI: `--no-cache`).
   * @default true
   */
  cache?: boolean
  /**
   * Where the cache lives, relative to `root`.
   * @default 'node_modules/.cache/unplugin-skills'
   */
  cacheDir?: string
  /**
   * JIT discovery: a custom embedding function (for a real model) replacing the deterministic one.
   * Must return vectors of a constant dimension.
   */
  embed?: (texts: string[]) => number[][] | Promise<number[][]>
}

/** A root with every setting resolved: its skills are checked with these. */
export interface RootSpec {
  path: string
  profile: Profile
  strict: boolean
  deny: Capability[]
}

export interface ResolvedOverride {
  skills: string[]
  capabilities: Capability[]
  rules: Record<string, Severity | 'off'>
  waive: Waiver[]
  reason: string
}

export interface ResolvedOptions {
  root: string
  roots: RootSpec[]
  profile: Profile
  schema: string | Record<string, unknown> | null
  lock: 'verify' | 'update' | false
  lockFile: string
  ci: boolean
  manifest: string | false
  resolvers: Record<string, SchemeResolver>
  scanner: Required<Pick<ScannerOptions, 'maxTextSize'>> & Omit<ScannerOptions, 'maxTextSize'>
  maxBodyLines: number
  strict: boolean
  app: { domain: string, name: string } | null
  dts: string | false
  deny: Capability[]
  overrides: ResolvedOverride[]
  embed: Options['embed'] | null
  workers: number
  cache: boolean
  /** Absolute. */
  cacheDir: string
}

export const DEFAULT_OPTIONS = {
  roots: ['skills'],
  profile: 'enterprise',
  lock: 'verify',
  lockFile: '.manifest.lock',
  manifest: 'skills_manifest.json',
  maxBodyLines: 500,
  strict: false,
  dts: false,
  deny: [],
  overrides: [],
  scanner: { maxTextSize: 1024 * 1024 },
  workers: 0,
  cache: true,
  cacheDir: 'node_modules/.cache/unplugin-skills',
} as const satisfies Options

/**
 * Validates `options` (throws `OptionsError` naming each problem) and fills in the defaults.
 * `source` says where the options came from, for the error.
 */
export function resolveOptions(
  options: Options = {},
  env: NodeJS.ProcessEnv = process.env,
  source = 'plugin options',
): ResolvedOptions {
  assertOptions(options, source)
  const root = path.resolve(options.root ?? process.cwd())
  const dts = options.dts === true ? 'skills.d.ts' : options.dts || DEFAULT_OPTIONS.dts
  const profile = options.profile ?? DEFAULT_OPTIONS.profile
  const strict = options.strict ?? DEFAULT_OPTIONS.strict
  const deny = [...(options.deny ?? DEFAULT_OPTIONS.deny)]
  // A string is one root, never a list of letters.
  const given = typeof options.roots === 'string' ? [options.roots] : options.roots
  const roots: Array<string | RootOptions> = given?.length ? given : DEFAULT_OPTIONS.roots
  return {
    root,
    roots: roots.map(r => (typeof r === 'string' ? { path: r } : r)).map(r => ({
      path: r.path,
      profile: r.profile ?? profile,
      strict: r.strict ?? strict,
      deny: [...new Set([...deny, ...(r.deny ?? [])])],
    })),
    profile,
    schema: options.schema ?? null,
    lock: options.lock ?? DEFAULT_OPTIONS.lock,
    lockFile: path.resolve(root, options.lockFile ?? DEFAULT_OPTIONS.lockFile),
    ci: options.ci ?? isCI(env),
    manifest: options.manifest ?? DEFAULT_OPTIONS.manifest,
    resolvers: { ...options.resolvers },
    scanner: { ...DEFAULT_OPTIONS.scanner, ...options.scanner, rules: bareRules(options.scanner?.rules) },
    maxBodyLines: options.maxBodyLines ?? DEFAULT_OPTIONS.maxBodyLines,
    strict,
    app: options.app ?? null,
    dts: dts ? path.resolve(root, dts) : false,
    deny,
    overrides: (options.overrides ?? DEFAULT_OPTIONS.overrides).map(o => ({
      skills: typeof o.skills === 'string' ? [o.skills] : [...o.skills],
      capabilities: [...(o.capabilities ?? [])],
      rules: bareRules(o.rules),
      waive: (o.waive ?? []).map(w => ({ rule: w.rule.replace(/^scan\//, ''), file: w.file })),
      reason: o.reason,
    })),
    embed: options.embed ?? null,
    workers: Number.isFinite(options.workers) ? Math.max(0, Math.floor(options.workers!)) : DEFAULT_OPTIONS.workers,
    cache: options.cache ?? DEFAULT_OPTIONS.cache,
    cacheDir: path.resolve(root, options.cacheDir ?? DEFAULT_OPTIONS.cacheDir),
  }
}

/** Rule ids as `check` prints them (`scan/child_process`) or bare: stored bare. */
function bareRules(rules: Record<string, Severity | 'off'> | undefined): Record<string, Severity | 'off'> {
  return Object.fromEntries(Object.entries(rules ?? {}).map(([id, v]) => [id.replace(/^scan\//, ''), v]))
}

function isCI(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false'
}
