import fs from 'node:fs'
import path from 'node:path'
import matter from 'gray-matter'
import { compareBytewise } from '../diagnostics'
import { sha256Hex } from '../hash'
import { skillDigest } from '../hash'
import type { ManifestDoc, ManifestFile, ManifestSkill } from '../types'

/**
 * A minimal, engine-free reader: one skill folder -> ManifestSkill (no validation, no scan).
 * For benchmarks and tests of discovery on plain folders; the engine's `audit()` is the real path.
 */
export function readSkillFolder(dir: string, relDir = path.basename(dir)): ManifestSkill {
  const files: Array<ManifestFile & { text: string | null }> = []
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const a = path.join(abs, entry.name)
      const r = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(a, r)
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(a)
        const text = bytes.includes(0) ? null : bytes.toString('utf8').replace(/^\uFEFF/, '')
        files.push({ path: r, size: bytes.length, sha256: sha256Hex(bytes), text })
      }
    }
  }
  walk(dir, '')
  files.sort((a, b) => compareBytewise(a.path, b.path))
  const skillMd = files.find(f => f.path === 'SKILL.md')
  let data: Record<string, unknown> = {}
  let body = skillMd?.text ?? ''
  try {
    const parsed = matter(body)
    data = parsed.data && typeof parsed.data === 'object' ? parsed.data : {}
    body = parsed.content
  }
  catch {}
  const docs = (dirName: string): ManifestDoc[] => files.filter(f => f.path.startsWith(`${dirName}/`))
    .map(f => (f.text === null ? { path: f.path, size: f.size, sha256: f.sha256 } : { path: f.path, size: f.size, sha256: f.sha256, text: f.text }))
  const listed: ManifestFile[] = files.map(f => ({ path: f.path, size: f.size, sha256: f.sha256 }))
  const digest = skillDigest(listed)
  const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? null : String(v))
  return {
    name: str(data.name) ?? path.basename(dir),
    description: str(data.description) ?? '',
    version: str(data.version),
    source: relDir,
    path: relDir,
    digest,
    integrity: { algorithm: 'sha-256', value: digest },
    frontmatter: data,
    body,
    files: listed,
    tree: {
      references: docs('references'),
      examples: docs('examples'),
      scenarios: docs('scenarios'),
      scripts: docs('scripts').map(({ path: p, size, sha256 }) => ({ path: p, size, sha256 })),
      resources: docs('resources').map(({ path: p, size, sha256 }) => ({ path: p, size, sha256 })),
    },
    capabilities: { declared: [], detected: [] },
    findings: [],
    suppressions: [],
    scenarios: [],
    links: [],
    workload: data.workload === 'write' ? 'write' : 'read',
    requiresApproval: data.workload === 'write',
  }
}

/** Every direct subfolder of `root` that holds a SKILL.md, sorted bytewise. */
export function readSkillFolders(root: string): ManifestSkill[] {
  return fs.readdirSync(root, { withFileTypes: true })
    .filter(e => e.isDirectory() && fs.existsSync(path.join(root, e.name, 'SKILL.md')))
    .map(e => e.name)
    .sort(compareBytewise)
    .map(name => readSkillFolder(path.join(root, name), `${path.basename(root)}/${name}`))
}
