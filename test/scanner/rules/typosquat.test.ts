import { describe, expect, it } from 'vitest'
import { scanSkill } from '../../../src/scanner/index'
import { oneEdit, typosquat } from '../../../src/scanner/rules/typosquat'
import { hitsOf } from '../helpers'
import { DEFAULT_SCANNER, makeSkill } from '../make-skill'

function named(name: string, files: Record<string, string> = {}): string[] {
  const skill = makeSkill({ 'SKILL.md': `---\nname: ${name}\n---\n# x\n`, ...files }, { name }, name)
  return scanSkill(skill, DEFAULT_SCANNER)
    .diagnostics
    .filter(d => d.rule === 'typosquatting')
    .map(d => `${d.severity} ${d.file}:${d.line} ${d.message}`)
}

describe('typosquatting', () => {
  it('is a threat error with CWE-1357', () => {
    expect(typosquat.meta).toMatchObject({ id: 'typosquatting', kind: 'threat', severity: 'error', cwe: 'CWE-1357' })
  })
  it('measures one edit, swaps included', () => {
    expect(['skill-creater', 'skil-creator', 'skill-creatorr', 'skill-craetor'].map(n => oneEdit(n, 'skill-creator')))
      .toEqual([true, true, true, true])
    expect(oneEdit('skill-creator', 'skill-creator')).toBe(false)
    expect(oneEdit('skill-crator2', 'skill-creator')).toBe(false)
  })
  it('reports a skill name one edit from a well-known skill, not the exact name nor short names', () => {
    expect(named('frontend-desing')).toEqual([
      'error skills/frontend-desing/SKILL.md:2 skill name "frontend-desing" is one edit away from the well-known skill '
      + '"frontend-design"',
    ])
    expect(named('frontend-design')).toEqual([])
    expect(named('docs')).toEqual([])
  })
  it('reads install commands in prose, every fence and scripts, and manifests', () => {
    expect(hitsOf('typosquatting', {
      'SKILL.md': '# x\n\nRun `pip install reqeusts` first.\n\n```bash\nnpm i -D crossenv@7\n```\n',
      'scripts/setup.sh': 'python3 -m pip install --user colourama==0.4\nnpx -y expresss serve\n',
      'requirements.txt': 'urlib3==2.2\nrequests\n',
      'package.json': '{ "dependencies": { "electorn": "^28.0.0", "react": "^19.0.0" } }\n',
    })).toEqual([
      'error typosquatting SKILL.md:3:18',
      'error typosquatting SKILL.md:6:10',
      'error typosquatting package.json:1:22',
      'error typosquatting requirements.txt:1:1',
      'error typosquatting scripts/setup.sh:1:31',
      'error typosquatting scripts/setup.sh:2:8',
    ])
  })
  it('keeps legitimate neighbours of popular packages, flags, paths and script arguments', () => {
    expect(hitsOf('typosquatting', {
      'SKILL.md': [
        '```bash',
        'pip install requests boto3 boto pyyaml -r requirements-dev.txt ./local-pkg git+https://x.io/r.git',
        'npm install preact request @types/node',
        'npx vite build --mode producton',
        'uv add httpx',
        '```',
      ].join('\n'),
    })).toEqual([])
  })
})
