import { afterAll, describe, expect, it } from 'vitest'
import { checkLinks } from '../../src/enterprise/links'
import { brief, cleanupSkills, makeSkill } from './helpers'

afterAll(cleanupSkills)

const files = {
  'references/guide.md':
    '# Guide\n\n## Status codes & what to do\n\n## Setup\n## Setup\n'
    + '<a name="legacy"></a>\nBack to [the skill](../SKILL.md).\n',
  'references/deep/nested.md': 'Up: [guide](../guide.md#setup-1) and [tricky](../../references/./guide.md).\n',
  'examples/run.py': 'print("hi")\n',
  'scripts/My Script.sh': 'echo\n',
}

describe('link resolution (invariant 5)', () => {
  it('accepts links that resolve inside the skill, with anchors, ./, ../, percent-encoding and directories', () => {
    const skill = makeSkill({
      ...files,
      'SKILL.md': [
        '---',
        'name: demo-skill',
        '---',
        '# Demo',
        '## Usage',
        '[guide](references/guide.md) [codes](./references/guide.md#status-codes--what-to-do)',
        '[dup](references/guide.md#setup-1) [legacy](references/guide.md#legacy) [top](#top) [self](#usage)',
        '![py](examples/run.py#L1) [script](scripts/My%20Script.sh) [spaces](<scripts/My Script.sh>)',
        '[dir](references/) [query](references/guide.md?plain=1#setup) [case-insensitive](#Usage)',
        '[file url](file://SKILLDIR/references/guide.md)',
        '[mail](mailto:a@b.example) <https://b.example/z> [web](https://a.example/x) https://a.example/x',
      ].join('\n'),
    })
    // Re-read SKILL.md with the real directory substituted into the file:// URL.
    const md = skill.skillMd
    md.text = md.text!.replace('file://SKILLDIR', `file://${skill.dir}`)
    const report = checkLinks(skill, 'error')
    expect(brief(report.diagnostics)).toEqual([])
    expect(report.links).toEqual(['https://a.example/x', 'https://b.example/z'])
  })

  it('reports broken targets, escapes, absolute paths and missing anchors at the link', () => {
    const skill = makeSkill({
      ...files,
      'SKILL.md': [
        '---',
        'name: demo-skill',
        '---',
        'See [missing](references/nope.md) and [case](references/Guide.md).',
        '[escape](../other-skill/SKILL.md) [deep escape](references/../../x.md)',
        '[abs](/etc/passwd) [win](C:\\skills\\x.md) [proto](//cdn.example/x.js)',
        '[anchor](references/guide.md#no-such-heading) [self anchor](#nowhere)',
        '[outside](file:///etc/hosts) [remote host](file://server/share/x.md)',
        '[bad escape](references/%E0%A4%A.md)',
      ].join('\n'),
    })
    const report = checkLinks(skill, 'error')
    expect(brief(report.diagnostics)).toEqual([
      'link/broken error skills/demo-skill/SKILL.md:4:15',
      'link/broken error skills/demo-skill/SKILL.md:4:46',
      'link/escape error skills/demo-skill/SKILL.md:5:10',
      'link/escape error skills/demo-skill/SKILL.md:5:49',
      'link/absolute error skills/demo-skill/SKILL.md:6:7',
      'link/absolute error skills/demo-skill/SKILL.md:6:26',
      'link/absolute error skills/demo-skill/SKILL.md:6:50',
      'link/anchor error skills/demo-skill/SKILL.md:7:10',
      'link/anchor error skills/demo-skill/SKILL.md:7:61',
      'link/escape error skills/demo-skill/SKILL.md:8:11',
      'link/escape error skills/demo-skill/SKILL.md:8:44',
      'link/broken error skills/demo-skill/SKILL.md:9:14',
    ])
    const [missing, caseHint] = report.diagnostics
    expect(missing.message).toBe('link `references/nope.md`: no file `references/nope.md` in the skill')
    expect(caseHint.hint).toBe('Paths are case-sensitive: did you mean `references/guide.md`?')
    expect(report.diagnostics[7].hint).toBe(
      'Anchors in references/guide.md: #guide, #legacy, #setup, #setup-1, #status-codes--what-to-do',
    )
    expect(report.diagnostics.every(d => d.skill === 'demo-skill')).toBe(true)
  })

  it('checks references and scenarios too, relative to the linking file, but not examples', () => {
    const skill = makeSkill({
      ...files,
      'references/guide.md': '# Guide\n[back](../SKILL.md) [sibling](other.md)\n',
      'scenarios/s.md': '---\nprompt: x\n---\nSee [ref](../references/guide.md#guide) and [bad](guide.md).\n',
      'examples/readme.md': '[ignored](nowhere.md)\n',
    })
    expect(brief(checkLinks(skill, 'error').diagnostics)).toEqual([
      'link/anchor error skills/demo-skill/references/deep/nested.md:1:13',
      'link/broken error skills/demo-skill/references/guide.md:2:31',
      'link/broken error skills/demo-skill/scenarios/s.md:4:51',
    ])
  })

  it('checks reference-style definitions where they are defined', () => {
    const skill = makeSkill({
      ...files,
      'SKILL.md':
        '---\nname: demo-skill\n---\nRead [the guide][g] and [docs].\n\n[g]: references/guide.md#setup\n[docs]: <docs/missing.md> "Docs"\n[site]: https://site.example\n',
    })
    const report = checkLinks(skill, 'error')
    expect(brief(report.diagnostics)).toEqual(['link/broken error skills/demo-skill/SKILL.md:7:10'])
    expect(report.links).toEqual(['https://site.example'])
  })

  it('resolves Claude\'s {baseDir} placeholder against the skill root', () => {
    const skill = makeSkill({
      ...files,
      'references/deep/nested.md':
        'See [guide]({baseDir}/references/guide.md#setup) and [gone]({baseDir}/references/gone.md).\n',
    })
    expect(brief(checkLinks(skill, 'error').diagnostics)).toEqual([
      'link/broken error skills/demo-skill/references/deep/nested.md:1:61',
    ])
  })

  it('ignores links in code', () => {
    const skill = makeSkill({
      ...files,
      'SKILL.md': '---\nname: demo-skill\n---\n```md\n[x](missing.md)\n```\nInline `[y](missing.md)`.\n',
    })
    expect(checkLinks(skill, 'error').diagnostics).toEqual([])
  })

  it('uses the given severity (warnings in the agentskills profile)', () => {
    const skill = makeSkill({ 'SKILL.md': '---\nname: demo-skill\n---\n[x](missing.md)\n' })
    expect(brief(checkLinks(skill, 'warning').diagnostics)).toEqual([
      'link/broken warning skills/demo-skill/SKILL.md:4:5',
    ])
  })

  it('caps the problems listed per file', () => {
    const skill = makeSkill({ 'SKILL.md': `---\nname: demo-skill\n---\n${'[x](missing.md)\n'.repeat(130)}` })
    const list = checkLinks(skill, 'error').diagnostics
    expect(list).toHaveLength(101)
    expect(list[100].message).toBe('30 more link problems in this file are not listed')
  })
})
