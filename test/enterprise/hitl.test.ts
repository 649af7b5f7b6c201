import { afterAll, describe, expect, it } from 'vitest'
import { checkHitl, findWriteRequests } from '../../src/enterprise/hitl'
import { brief, cleanupSkills, makeSkill, scanWith } from './helpers'

afterAll(cleanupSkills)

const at = { line: 4, column: 1 }
function skillWith(workload: unknown, files: Record<string, string> = {}) {
  return makeSkill(
    { 'SKILL.md': '---\nname: demo-skill\n---\n# Demo\n', ...files },
    {
      frontmatter: workload === undefined ? { name: 'demo-skill' } : { name: 'demo-skill', workload },
      locate: key => (key === 'workload' && workload !== undefined ? at : null),
    },
  )
}

describe('non-GET request detection', () => {
  it('finds methods, client calls and curl/wget write options', () => {
    const text = [
      'fetch(u, { method: "POST" })',
      'await fetch(u, { method: \'get\' })',
      'requests.delete(u)',
      'axios.put(u, body)',
      'curl -X PATCH https://a.example',
      'curl -s https://a.example \\',
      '  -H "x: y" \\',
      '  -d @body.json',
      'curl --request=DELETE u',
      'curl -XPOST u',
      'curl -F file=@a u',
      'curl -s https://a.example/list',
      'wget --post-data "a=1" u',
      'cache.delete(key)',
    ].join('\n')
    expect(findWriteRequests(text).map(r => r.what)).toEqual([
      'method: "POST"',
      'requests.delete(',
      'axios.put(',
      'curl -X PATCH',
      'curl -d',
      'curl --request=DELETE',
      'curl -XPOST',
      'curl -F',
      'wget --post-data',
    ])
  })
})

describe('hITL workload gate', () => {
  const writes = { 'scripts/deploy.sh': '#!/bin/sh\ncurl -X POST https://api.example/deploy\n' }

  it('a read-only skill needs no declaration and no approval', () => {
    const result = checkHitl(
      skillWith(undefined, { 'scripts/list.sh': 'curl https://api.example/items\n' }),
      scanWith(['network']),
      'enterprise',
    )
    expect(result).toEqual({ diagnostics: [], workload: 'read', requiresApproval: false, evidence: [] })
  })

  it('a write skill declared `write` passes and requires approval', () => {
    const result = checkHitl(skillWith('write', writes), scanWith(['network']), 'enterprise')
    expect(result.diagnostics).toEqual([])
    expect(result.workload).toBe('write')
    expect(result.requiresApproval).toBe(true)
    expect(result.evidence).toEqual([{ what: 'curl -X POST', file: 'scripts/deploy.sh', line: 2 }])
  })

  it('declaring `write` without writes still requires approval', () => {
    expect(checkHitl(skillWith('write'), null, 'enterprise')).toMatchObject({
      diagnostics: [],
      workload: 'write',
      requiresApproval: true,
    })
  })

  it('a skill declared `read` that writes is an error in both profiles, located at `workload`', () => {
    for (const profile of ['enterprise', 'agentskills'] as const) {
      const result = checkHitl(skillWith('read', writes), scanWith(['fs:write']), profile)
      expect(brief(result.diagnostics)).toEqual(['hitl/read-with-writes error skills/demo-skill/SKILL.md:4:1'])
      expect(result.diagnostics[0].message).toBe(
        'declared `workload: read` but the skill writes: fs:write (detected by the scanner); '
        + 'scripts/deploy.sh:2 `curl -X POST`',
      )
      expect(result.workload).toBe('read')
      // Fails closed: the evidence still gates the skill.
      expect(result.requiresApproval).toBe(true)
    }
  })

  it('an undeclared workload with writes: error in enterprise, warning in agentskills', () => {
    const skill = skillWith(undefined)
    expect(brief(checkHitl(skill, scanWith(['process']), 'enterprise').diagnostics)).toEqual([
      'hitl/undeclared-workload error skills/demo-skill/SKILL.md:null:null',
    ])
    expect(brief(checkHitl(skill, scanWith(['process']), 'agentskills').diagnostics)).toEqual([
      'hitl/undeclared-workload warning skills/demo-skill/SKILL.md:null:null',
    ])
    expect(checkHitl(skill, scanWith(['process']), 'agentskills').requiresApproval).toBe(true)
  })

  it('counts non-GET requests in SKILL.md and references, not in resources', () => {
    const inDocs = skillWith(undefined, { 'references/api.md': '```\nhttp.post(url)\n```\n' })
    expect(checkHitl(inDocs, null, 'enterprise').evidence).toEqual([
      { what: 'http.post(', file: 'references/api.md', line: 2 },
    ])
    const inResources = skillWith(undefined, { 'resources/openapi.yaml': 'method: "POST"\n' })
    expect(checkHitl(inResources, null, 'enterprise').evidence).toEqual([])
  })

  it('reports an invalid workload value in agentskills (the enterprise schema already does)', () => {
    expect(brief(checkHitl(skillWith('maybe'), null, 'agentskills').diagnostics)).toEqual([
      'hitl/invalid-workload warning skills/demo-skill/SKILL.md:4:1',
    ])
    expect(checkHitl(skillWith('maybe'), null, 'enterprise').diagnostics).toEqual([])
  })
})
