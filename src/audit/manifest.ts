import type {
  Diagnostic,
  ManifestDoc,
  ManifestFile,
  ManifestFinding,
  ManifestSkill,
  Severity,
  SkillFile,
  SkillsManifest,
  SkillsManifestSummary,
  SkillSummary,
  SkillTree,
} from '../core/types'

const DOC_DIRS = ['references', 'examples', 'scenarios'] as const
const FILE_DIRS = ['scripts', 'resources'] as const

/**
 * Listings of the progressive-disclosure folders; texts are embedded for docs when `content` is on.
 * `listed` (the skill's `files` entries, same order) are reused where no text is added: one object per file.
 */
export function buildTree(files: readonly SkillFile[], content: boolean, listed?: readonly ManifestFile[]): SkillTree {
  const tree: SkillTree = { references: [], examples: [], scenarios: [], scripts: [], resources: [] }
  for (const [i, file] of files.entries()) {
    const top = file.path.slice(0, file.path.indexOf('/'))
    const embeds = content && file.text !== null && (DOC_DIRS as readonly string[]).includes(top)
    const entry: ManifestFile = (!embeds && listed?.[i]) || { path: file.path, size: file.size, sha256: file.sha256 }
    if ((DOC_DIRS as readonly string[]).includes(top)) {
      const doc: ManifestDoc = entry
      if (content && file.text !== null)
        doc.text = file.text
      tree[top as (typeof DOC_DIRS)[number]].push(doc)
    }
    else if ((FILE_DIRS as readonly string[]).includes(top)) {
      tree[top as (typeof FILE_DIRS)[number]].push(entry)
    }
  }
  return tree
}

export function toFinding(d: Diagnostic): ManifestFinding {
  const finding: ManifestFinding = {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
  }
  if (d.rule !== undefined)
    finding.rule = d.rule
  if (d.kind !== undefined)
    finding.kind = d.kind
  if (d.cwe !== undefined)
    finding.cwe = d.cwe
  return finding
}

/** The manifest as written to `skills_manifest.json`: compact JSON, fixed key order, trailing newline. */
export function serializeManifest(manifest: SkillsManifest): string {
  return `${JSON.stringify(manifest)}\n`
}

/**
 * What the entry module carries of a skill: it is parsed at every agent start (about 10 ns per byte),
 * so only what listing and registering need; the path, frontmatter, file lists, trees, findings,
 * scenarios and texts stay in the skill's lazy module.
 */
export function summarizeSkill(skill: ManifestSkill): SkillSummary {
  const findings: Partial<Record<Severity, number>> = {}
  for (const f of skill.findings) findings[f.severity] = (findings[f.severity] ?? 0) + 1
  const summary: SkillSummary = {
    name: skill.name,
    description: skill.description,
    version: skill.version,
    source: skill.source,
    digest: skill.digest,
    capabilities: skill.capabilities,
    workload: skill.workload,
    requiresApproval: skill.requiresApproval,
    counts: { files: skill.files.length, scenarios: skill.scenarios.length, findings },
  }
  if (skill.uri !== undefined)
    summary.uri = skill.uri
  if (skill.urn !== undefined)
    summary.urn = skill.urn
  return summary
}

/** The entry module's manifest: summaries, no discovery index. */
export function summarizeManifest(manifest: SkillsManifest): SkillsManifestSummary {
  const { index: _index, skills, ...head } = manifest
  return { ...head, skills: skills.map(summarizeSkill) }
}
