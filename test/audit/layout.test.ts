/**
 * Discovery and the walk agree on what a nested skill is (layout.ts): a folder that lists a SKILL.md
 * file or symlink is a skill of its own and none of its parent's files, on a cold audit and a re-audit.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SkillsEngine } from '../../src/audit/engine'
import { makeTree, skill } from '../helpers'

describe('nested skills', () => {
  it('are the folders whose SKILL.md is a file or a symlink, for discovery and the walk alike', async () => {
    const root = makeTree({
      ...skill('parent'),
      // A folder named SKILL.md makes no skill: its file is the parent's.
      'skills/parent/tools/dir-named/SKILL.md/notes.md': 'Notes.\n',
      // A dangling SKILL.md link makes a skill (which reports its link): its files are not the parent's.
      'skills/parent/tools/dangling/SKILL.md': { symlink: 'nowhere.md' },
      'skills/parent/tools/dangling/notes.md': 'Notes.\n',
      'skills/parent/tools/inner/SKILL.md': '---\nname: inner\ndescription: Nested. Use when testing.\n---\n# Inner\n',
      'skills/parent/tools/inner/notes.md': 'Notes.\n',
    })
    const engine = new SkillsEngine({ root, lock: false, ci: false }, { content: false })
    const parentFiles = (r: Awaited<ReturnType<SkillsEngine['audit']>>): string[] =>
      r.manifest.skills.find(s => s.path === 'skills/parent')!.files.map(f => f.path)

    const cold = await engine.audit()
    expect(cold.manifest.skills.map(s => s.path).sort()).toEqual([
      'skills/parent',
      'skills/parent/tools/dangling',
      'skills/parent/tools/inner',
    ])
    expect(parentFiles(cold)).toEqual([
      'SKILL.md',
      'examples/basic.md',
      'references/guide.md',
      'tools/dir-named/SKILL.md/notes.md',
    ])
    expect(cold.diagnostics.filter(d => d.code === 'fs/symlink-dangling').map(d => d.file)).toEqual([
      'skills/parent/tools/dangling/SKILL.md',
    ])

    // A re-audit of the parent alone walks it again, without discovery: the same files.
    const edited = path.join(root, 'skills/parent/references/guide.md')
    fs.appendFileSync(edited, 'More.\n')
    const warm = await engine.audit({ changed: [edited] })
    expect(warm.stats.reused).toBe(2)
    expect(parentFiles(warm)).toEqual(parentFiles(cold))
  })
})
