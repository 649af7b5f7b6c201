import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildRealCorpus } from '../../bench/discovery-corpus'
import { tempDir } from './helpers'

const t = tempDir()
afterAll(() => t.cleanup())

function skill(dir: string, name: string, extra: Record<string, string> = {}): void {
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: "${name}"\ndescription: Test.\n---\n# ${name}\n`)
  for (const [rel, text] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), text)
  }
}

describe('the realistic corpus script', () => {
  it('copies every skill once, first name wins, and keeps the labelled queries of the skills copied', () => {
    const packs = path.join(t.dir, 'packs')
    skill(path.join(packs, 'one', 'pdf'), 'pdf', { 'references/forms.md': 'forms\n' })
    skill(path.join(packs, 'one', 'nested', 'docx'), 'docx')
    skill(path.join(packs, 'two', 'skills', 'pdf'), 'pdf')
    skill(path.join(packs, 'two', 'skills', 'unlabelled'), 'unlabelled')
    fs.mkdirSync(path.join(packs, 'two', '.git'), { recursive: true })
    fs.writeFileSync(path.join(packs, 'two', '.git', 'HEAD'), 'ref\n')
    const out = path.join(t.dir, 'corpus')
    const report = buildRealCorpus([path.join(packs, 'one'), path.join(packs, 'two')], out)
    expect(report.skills).toBe(3)
    expect(report.duplicates).toEqual([path.join('skills', 'pdf')])
    expect(report.queries).toBe(2)
    expect(report.missing.length).toBe(255)
    expect(fs.readdirSync(path.join(out, 'skills')).sort()).toEqual(['docx', 'pdf', 'unlabelled'])
    expect(fs.readFileSync(path.join(out, 'skills', 'pdf', 'references', 'forms.md'), 'utf8')).toBe('forms\n')
    const queries = JSON.parse(fs.readFileSync(path.join(out, 'queries.json'), 'utf8')) as Array<{ expected: string }>
    expect(queries.map(q => q.expected)).toEqual(['docx', 'pdf'])
  })
})
