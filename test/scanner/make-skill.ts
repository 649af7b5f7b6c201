import type { SkillFile, SkillSource } from '../../src/core/types'
import { createHash } from 'node:crypto'
import { binaryFacts } from '../../src/audit/read'
import { compareBytewise } from '../../src/core/diagnostics'

/**
 * Builds an in-memory SkillSource: `{ 'SKILL.md': '...', 'scripts/a.js': '...' }` (Uint8Array values are
 * binary files).
 */
export function makeSkill(
  files: Record<string, string | Uint8Array>,
  frontmatter: Record<string, unknown> = {},
  name = 'demo',
): SkillSource {
  const list: SkillFile[] = Object.keys(files)
    .sort(compareBytewise)
    .map((path) => {
      const value = files[path]!
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value
      return {
        path,
        absPath: `/virtual/skills/${name}/${path}`,
        size: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        text: typeof value === 'string' ? value : null,
        ...(typeof value === 'string' ? {} : binaryFacts(value, path)),
      }
    })
  const skillMd = list.find(f => f.path === 'SKILL.md') ?? {
    path: 'SKILL.md',
    absPath: `/virtual/skills/${name}/SKILL.md`,
    size: 0,
    sha256: createHash('sha256').digest('hex'),
    text: '',
  }
  return {
    name,
    dirName: name,
    dir: `/virtual/skills/${name}`,
    relDir: `skills/${name}`,
    source: `skills/${name}`,
    files: list,
    skillMd,
    frontmatter,
    frontmatterOk: true,
    body: skillMd.text ?? '',
    bodyLine: 1,
    locate: () => null,
  }
}

export const DEFAULT_SCANNER = { maxTextSize: 1024 * 1024 }
