import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkCweMentions, CWE_CATALOG, findCweMentions, isKnownCwe } from '../../src/enterprise/cwe'
import { checkHttp429 } from '../../src/enterprise/http429'
import { checkSecurityCheckpoint } from '../../src/enterprise/security-checkpoint'
import { brief, cleanupSkills, makeSkill, scanWith } from './helpers'

afterAll(cleanupSkills)

describe('cWE catalogue data', () => {
  const data = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../data/cwe-ids.json'), 'utf8'))

  it('is MITRE CWE 4.15, sorted, unique, with the deprecated ids among the ids', () => {
    expect(CWE_CATALOG).toEqual({ version: '4.15', date: '2024-07-16' })
    expect(data.ids).toHaveLength(1427)
    expect(data.counts).toEqual({ weaknesses: 964, categories: 409, views: 54 })
    expect(data.ids).toEqual([...new Set<number>(data.ids)].sort((a, b) => a - b))
    expect(data.deprecated.every((id: number) => data.ids.includes(id))).toBe(true)
  })

  it('knows weaknesses, categories and views, and nothing else', () => {
    for (const id of [20, 22, 78, 79, 89, 295, 400, 532, 829, 918, 1426]) expect(isKnownCwe(id)).toBe(true)
    expect(isKnownCwe(1000)).toBe(true) // a view
    expect(isKnownCwe(16)).toBe(true) // a category
    expect(isKnownCwe(0)).toBe(false)
    expect(isKnownCwe(9999)).toBe(false)
  })

  it('finds CWE mentions with their offsets, in any case', () => {
    expect(findCweMentions('see CWE-79, cwe-89 and CWE-0918; not XCWE-1 or CWE-')).toEqual([
      { id: 79, text: 'CWE-79', offset: 4 },
      { id: 89, text: 'cwe-89', offset: 12 },
      { id: 918, text: 'CWE-0918', offset: 23 },
    ])
  })
})

describe('unknown CWE ids (invariant 3)', () => {
  it('flags unknown ids in any text file at the mention; ids past the catalogue only warn', () => {
    const skill = makeSkill({
      'SKILL.md': '---\nname: demo-skill\n---\n## Security\nCWE-79 and CWE-99999.\n',
      'references/a.md': 'Line one\n  mitigates CWE-1427 (prompt injection)\n',
      'scripts/run.py': '# CWE-7777\n',
      'resources/blob.bin': new Uint8Array([0, 67, 87, 69, 45, 57, 57, 57, 57]),
    })
    const list = checkCweMentions(skill, 'error')
    expect(brief(list)).toEqual([
      'quality/unknown-cwe error skills/demo-skill/SKILL.md:5:12',
      'quality/unknown-cwe warning skills/demo-skill/references/a.md:2:13',
      'quality/unknown-cwe error skills/demo-skill/scripts/run.py:1:3',
    ])
    expect(list[0].message).toBe('CWE-99999 is not a CWE id (CWE 4.15 catalogue)')
    expect(list[1].message).toBe('CWE-1427 is not in the CWE 4.15 catalogue (2024-07-16); it may be newer')
  })
})

describe('security checkpoint (invariant 3)', () => {
  const base = {
    'SKILL.md': '---\nname: demo-skill\n---\n# Demo\nCalls the API.\n',
    'scripts/x.sh': 'curl https://a.example\n',
  }

  it('warns when detected capabilities have no Security section and no CWE reference', () => {
    const list = checkSecurityCheckpoint(makeSkill(base), scanWith(['network', 'process']), 'warning')
    expect(brief(list)).toEqual(['quality/security-checkpoint warning skills/demo-skill/SKILL.md:null:null'])
    expect(list[0].message).toBe(
      'the skill\'s files use network, process but neither SKILL.md nor references/ document a security checkpoint',
    )
  })

  it('is satisfied by a Security heading in SKILL.md or a reference, or a CWE reference', () => {
    const scan = scanWith(['network'])
    expect(
      checkSecurityCheckpoint(
        makeSkill({ ...base, 'SKILL.md': '---\nname: demo-skill\n---\n## Security considerations\n' }),
        scan,
        'warning',
      ),
    ).toEqual([])
    expect(
      checkSecurityCheckpoint(
        makeSkill({ ...base, 'references/threats.md': 'Threats\n=======\n\n### Network security\n' }),
        scan,
        'warning',
      ),
    ).toEqual([])
    expect(
      checkSecurityCheckpoint(
        makeSkill({ ...base, 'references/notes.md': 'Guard against SSRF (`CWE-918`).\n' }),
        scan,
        'warning',
      ),
    ).toEqual([])
  })

  it('does not count "Security" outside headings, in code blocks or in examples', () => {
    const skill = makeSkill({
      ...base,
      'SKILL.md': '---\nname: demo-skill\n---\nSecurity matters.\n```\n# Security\n```\n',
      'examples/security.md': '# Security\nCWE-79\n',
    })
    expect(checkSecurityCheckpoint(skill, scanWith(['fs:write']), 'error')).toHaveLength(1)
  })

  it('asks nothing of a skill with no detected capability', () => {
    expect(checkSecurityCheckpoint(makeSkill(base), scanWith([], ['network']), 'warning')).toEqual([])
    expect(checkSecurityCheckpoint(makeSkill(base), null, 'warning')).toEqual([])
  })
})

describe('hTTP 429 resilience (invariant 4)', () => {
  const skillMd = '---\nname: demo-skill\n---\n# Demo\n'

  it('warns at each script or example that makes requests without handling 429', () => {
    const skill = makeSkill({
      'SKILL.md': skillMd,
      'scripts/get.sh': '#!/bin/sh\nset -e\ncurl -s https://api.example/items\n',
      'examples/client.ts': 'const r = await fetch(url)\n',
      'examples/py.py': 'import requests\nrequests.get(url)\n',
      'examples/retry.ts':
        'const r = await fetch(url)\nif (r.status === 429) await sleep(r.headers.get("Retry-After"))\n',
      'examples/notes.txt': 'Handles many requests.\n',
    })
    const list = checkHttp429(skill, null, 'warning')
    expect(brief(list)).toEqual([
      'quality/http-429 warning skills/demo-skill/examples/client.ts:1:17',
      'quality/http-429 warning skills/demo-skill/examples/py.py:2:1',
      'quality/http-429 warning skills/demo-skill/scripts/get.sh:3:1',
    ])
    expect(list[0].message).toBe(
      'examples/client.ts makes HTTP requests (`fetch(`) but neither it nor the instructions handle HTTP 429',
    )
    expect(brief(checkHttp429(skill, null, 'error'))[0]).toBe(
      'quality/http-429 error skills/demo-skill/examples/client.ts:1:17',
    )
  })

  it('accepts 429 handling described in the instructions', () => {
    for (const evidence of [
      'On HTTP 429, wait.',
      'Honour the Retry-After header.',
      'Use exponential back-off.',
      'Too Many Requests: slow down.',
    ]) {
      const skill = makeSkill({ 'SKILL.md': `${skillMd}${evidence}\n`, 'scripts/get.sh': 'curl https://a.example\n' })
      expect(checkHttp429(skill, null, 'warning')).toEqual([])
    }
    const reference = makeSkill({
      'SKILL.md': skillMd,
      'references/retry.md': 'Use backoff.\n',
      'scripts/get.sh': 'wget https://a.example\n',
    })
    expect(checkHttp429(reference, null, 'warning')).toEqual([])
  })

  it('does not take numbers containing 429 for the status', () => {
    const skill = makeSkill({
      'SKILL.md': `${skillMd}Port 14290, ratio 0.429.\n`,
      'scripts/get.py': 'import httpx\nhttpx.get(u)\n',
    })
    expect(brief(checkHttp429(skill, null, 'warning'))).toEqual([
      'quality/http-429 warning skills/demo-skill/scripts/get.py:2:1',
    ])
  })

  it('requires evidence somewhere when only the scanner saw network use', () => {
    const skill = makeSkill({ 'SKILL.md': skillMd, 'scripts/net.py': 'import socket\n' })
    expect(brief(checkHttp429(skill, scanWith(['network']), 'warning'))).toEqual([
      'quality/http-429 warning skills/demo-skill/SKILL.md:null:null',
    ])
    expect(checkHttp429(skill, scanWith(['fs:write']), 'warning')).toEqual([])
    const handled = makeSkill({ 'SKILL.md': skillMd, 'scripts/net.py': '# sleeps on 429\n' })
    expect(checkHttp429(handled, scanWith(['network']), 'warning')).toEqual([])
  })
})
