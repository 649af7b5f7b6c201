/**
 * The data contracts of unplugin-skills. Everything that flows between the
 * engine stages, the bundler layer, the CLI and the runtime is one of these.
 */

export type Severity = 'error' | 'warning' | 'info'

/** Scanner findings: a capability (what a skill can do, reviewed) or a threat (what an attack tries to do). */
export type FindingKind = 'threat' | 'capability'

/**
 * Every problem the engine finds. Always collected, never thrown.
 * `file` is a posix path relative to the project root; `line`/`column` are 1-based.
 */
export interface Diagnostic {
  /** Stable machine code, `area/what`: `frontmatter/yaml`, `lock/drift`, `scan/dynamic_eval`. */
  code: string
  severity: Severity
  message: string
  file: string | null
  line: number | null
  column: number | null
  /** Name of the skill the problem belongs to (null for project-level problems). */
  skill: string | null
  hint: string | null
  /** Scanner findings only. */
  rule?: string
  kind?: FindingKind
  /**
   * Capability findings come once per file and rule: `count` uses, the first `locations` (the first is this
   * diagnostic's own line and column).
   */
  count?: number
  locations?: Array<{ line: number, column: number }>
  cwe?: string
  excerpt?: string
}

/** One file of a skill, read once. Everything downstream works on what was read then (hash, text). */
export interface SkillFile {
  /** posix path relative to the skill root, e.g. `references/api.md`. */
  path: string
  /** Absolute path on disk (never serialised). */
  absPath: string
  /** Size in bytes. */
  size: number
  /** lowercase hex SHA-256 of the file's bytes. */
  sha256: string
  /** UTF-8 decoded text (BOM stripped) when the file is text; null for binary files and invalid UTF-8. */
  text: string | null
  /** Binary files only: what the first bytes say the file is (executables are reviewed unlike media). */
  format?: 'elf' | 'pe' | 'mach-o' | 'archive' | 'media' | 'binary'
  /** Binary pickles only: the globals it imports that run commands or code when loaded (`os.system`). */
  calls?: string[]
  /** Archives only (tar, gzip, zip): the text files inside, bounded, which the scanner reads as the skill's own. */
  members?: ArchiveMember[]
}

/** A text file inside an archive a skill ships: its path in the archive and its UTF-8 text. */
export interface ArchiveMember {
  path: string
  text: string
}

/** A skill after discovery + read + frontmatter parse: the input of validators and the scanner. */
export interface SkillSource {
  /** Name from the frontmatter when it is a string, else the folder name. */
  name: string
  /** Folder name of the skill. */
  dirName: string
  /** Absolute directory. */
  dir: string
  /** posix path of the directory relative to the project root (`skills/pdf-tools`, `node_modules/pack/skills/x`). */
  relDir: string
  /** Where the skill came from, as a URI-ish string: `skills/pdf-tools`, `pkg://@acme/pack/skills/x`, `github://o/r/p@v/x`. */
  source: string
  /** All files, sorted bytewise by path. */
  files: SkillFile[]
  /** The SKILL.md entry of `files`. */
  skillMd: SkillFile
  /** Parsed frontmatter (raw, before normalisation); empty object when it could not be parsed. */
  frontmatter: Record<string, unknown>
  /** Whether the frontmatter parsed into a mapping (false on any frontmatter error). */
  frontmatterOk: boolean
  /** Markdown body of SKILL.md (after the closing `---`). */
  body: string
  /** 1-based line in SKILL.md where the body starts. */
  bodyLine: number
  /** Locate a frontmatter key (dotted path, e.g. `metadata.owner`) in SKILL.md: 1-based line/column. */
  locate: (path: string) => { line: number, column: number } | null
}

/** The capability vocabulary: what a skill may declare and the scanner may detect. */
export type Capability = 'network' | 'fs:write' | 'process' | 'env' | 'secrets' | 'dynamic-code'

export interface Suppression {
  file: string
  line: number
  rule: string
  reason: string
  /** `override`: a threat finding waived by the project's `overrides` (else a `skills-ignore-next-line` comment). */
  via?: 'override'
}

/** What the scanner returns for one skill. */
export interface ScanResult {
  /** `code: 'scan/<rule>'` diagnostics, after capability adjustment and suppressions. */
  diagnostics: Diagnostic[]
  capabilities: { declared: Capability[], detected: Capability[] }
  suppressions: Suppression[]
}

/** An override (see `Options.overrides`) that names a skill, as the manifest lists it. */
export interface ManifestOverride {
  skills: string[]
  capabilities: Capability[]
  rules: Record<string, Severity | 'off'>
  waive: Array<{ rule: string, file: string }>
  reason: string
}

export interface ManifestFile {
  path: string
  size: number
  sha256: string
}

/** A listed file of references/, examples/, scenarios/ (with its text when it is text and content is embedded). */
export interface ManifestDoc extends ManifestFile {
  text?: string
}

/** A diagnostic as the manifest records it: without the skill (implied) and the hint. */
export type ManifestFinding = Pick<
  Diagnostic,
  'code' | 'severity' | 'message' | 'file' | 'line' | 'column' | 'rule' | 'kind' | 'cwe'
>

/** The scenario object of spec §scenarios, as carried by the manifest and scored by the runtime. */
export interface Scenario {
  /** posix path relative to the skill root, e.g. `scenarios/basic.md`. */
  file: string
  prompt: string
  executes: boolean
  expected_skills: string[]
  threshold: number
  metadata: Record<string, unknown>
  /** The reference outcome: the scenario's markdown body. */
  reference: string
}

export interface SkillTree {
  references: ManifestDoc[]
  examples: ManifestDoc[]
  scenarios: ManifestDoc[]
  scripts: ManifestFile[]
  resources: ManifestFile[]
}

export interface ManifestSkill {
  name: string
  description: string
  version: string | null
  /** Source URI (see SkillSource.source). */
  source: string
  /** posix directory relative to the project root. */
  path: string
  /** Whole-artifact digest, lowercase hex (README: "Digest recipe"). */
  digest: string
  /** The same digest in ACS form. */
  integrity: { algorithm: 'sha-256', value: string }
  /** Normalised frontmatter: known keys, unrecognised keys moved under `metadata`. */
  frontmatter: Record<string, unknown>
  /** SKILL.md instructions (markdown body). */
  body: string
  /** Every file of the skill, sorted bytewise by path. */
  files: ManifestFile[]
  tree: SkillTree
  capabilities: { declared: Capability[], detected: Capability[] }
  findings: ManifestFinding[]
  suppressions: Suppression[]
  /** The profile the skill was checked with (its root's). */
  profile: Profile
  /** The project's overrides that name this skill. */
  overrides: ManifestOverride[]
  /** Parsed scenarios/*.md. */
  scenarios: Scenario[]
  /** http(s) links found in SKILL.md, references and scenarios, sorted, unique. */
  links: string[]
  /** HITL: `workload` from the frontmatter (default read). */
  workload: 'read' | 'write'
  requiresApproval: boolean
  /** Canonical URI and URN, when `app` is configured. */
  uri?: string
  urn?: string
}

/**
 * A skill as the entry module of `virtual:skills-manifest` carries it: what an agent lists and
 * registers skills with at startup (identity, digest, policy). The full entry, files and texts
 * included, loads with `getSkill(name).load()`.
 */
export interface SkillSummary extends Pick<
  ManifestSkill,
  | 'name'
  | 'description'
  | 'version'
  | 'source'
  | 'digest'
  | 'capabilities'
  | 'workload'
  | 'requiresApproval'
  | 'uri'
  | 'urn'
> {
  /** Sizes of what `load()` returns; findings by severity, severities with none left out. */
  counts: { files: number, scenarios: number, findings: Partial<Record<Severity, number>> }
}

/** The entry module's manifest: skill summaries, no discovery index (it loads on the first search). */
export interface SkillsManifestSummary extends Omit<SkillsManifest, 'skills' | 'index'> {
  skills: SkillSummary[]
}

export interface SkillsManifest {
  manifestVersion: 1
  generator: string
  /** SHA-256 of the canonical `.manifest.lock` bytes that describe this tree. */
  lockDigest: string
  profile: Profile
  skills: ManifestSkill[]
  /** JIT discovery index (issue 6), built at build time. */
  index?: unknown
}

export type Profile = 'enterprise' | 'agentskills'

export interface LockFileEntry {
  path: string
  sha256: string
  size: number
}

export interface LockSkill {
  name: string
  source: string
  version: string | null
  digest: string
  /** What the scanner detected when the lock was written: the reviewed capabilities. Absent in version 1 locks. */
  capabilities?: Capability[]
  files: LockFileEntry[]
}

export interface LockFile {
  /** 2 records capabilities; 1 is read with an upgrade message. */
  lockfileVersion: 1 | 2
  skills: LockSkill[]
}

/**
 * Augmented by the generated `skills.d.ts` (`dts` option) with one key per skill, so that skill names
 * are a literal union and a typo in `getSkill('nmae')` fails to typecheck.
 */

export interface SkillNames {}
export type SkillName = [keyof SkillNames] extends [never] ? string : Extract<keyof SkillNames, string>
