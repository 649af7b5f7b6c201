import type { Diagnostic, ManifestDoc, ManifestFile, ManifestFinding, ManifestSkill, SkillFile, SkillsManifest, SkillTree } from './types'

const DOC_DIRS = ['references', 'examples', 'scenarios'] as const
const FILE_DIRS = ['scripts', 'resources'] as const

/** Listings of the progressive-disclosure folders; texts are embedded for docs when `content` is on. */
export function buildTree(files: readonly SkillFile[], content: boolean): SkillTree {
  const tree: SkillTree = { references: [], examples: [], scenarios: [], scripts: [], resources: [] }
  for (const file of files) {
    const top = file.path.slice(0, file.path.indexOf('/'))
    const entry: ManifestFile = { path: file.path, size: file.size, sha256: file.sha256 }
    if ((DOC_DIRS as readonly string[]).includes(top)) {
      const doc: ManifestDoc = entry
      if (content && file.text !== null) doc.text = file.text
      tree[top as typeof DOC_DIRS[number]].push(doc)
    }
    else if ((FILE_DIRS as readonly string[]).includes(top)) {
      tree[top as typeof FILE_DIRS[number]].push(entry)
    }
  }
  return tree
}

export function toFinding(d: Diagnostic): ManifestFinding {
  const finding: ManifestFinding = { code: d.code, severity: d.severity, message: d.message, file: d.file, line: d.line, column: d.column }
  if (d.rule !== undefined) finding.rule = d.rule
  if (d.cwe !== undefined) finding.cwe = d.cwe
  return finding
}

/** The manifest as written to `skills_manifest.json`: compact JSON, fixed key order, trailing newline. */
export function serializeManifest(manifest: SkillsManifest): string {
  return `${JSON.stringify(manifest)}\n`
}

/** The manifest without instruction bodies and embedded texts: what an entry chunk should carry. */
export function summarizeSkill(skill: ManifestSkill): ManifestSkill {
  const strip = (docs: ManifestDoc[]): ManifestDoc[] => docs.map(({ text: _text, ...rest }) => rest)
  return {
    ...skill,
    body: '',
    tree: { ...skill.tree, references: strip(skill.tree.references), examples: strip(skill.tree.examples), scenarios: strip(skill.tree.scenarios) },
    scenarios: skill.scenarios.map(s => ({ ...s, reference: '' })),
  }
}
