import { describe, expect, it } from 'vitest'
import { loadConfigSync } from '../../src/core/config'
import { createSkillsContext } from '../../src/plugin/context'
import { makeTree, skill } from '../helpers'

const TS_CONFIG = 'export default { ci: false, lock: false, profile: \'agentskills\' }\n'

describe('two config files in the project root', () => {
  it('reads the first in lookup order and warns, naming both, at the one left unread', () => {
    const root = makeTree({ 'skills.config.ts': TS_CONFIG, 'skills.config.json': '{ "profile": "bogus" }' })
    const { options, file, diagnostics } = loadConfigSync(root)
    expect(file?.endsWith('skills.config.ts')).toBe(true)
    expect(options.profile).toBe('agentskills')
    expect(diagnostics).toEqual([{
      code: 'config/ignored',
      severity: 'warning',
      message: 'found skills.config.ts and skills.config.json: using skills.config.ts, skills.config.json is ignored',
      file: 'skills.config.json',
      line: null,
      column: null,
      skill: null,
      hint: 'Keep one config file: move what skills.config.json sets into skills.config.ts, '
        + 'then delete skills.config.json.',
    }])
  })

  it('says nothing with one file, or with the file given', () => {
    expect(loadConfigSync(makeTree({ 'skills.config.json': '{}' })).diagnostics).toEqual([])
    const both = makeTree({ 'skills.config.ts': TS_CONFIG, 'skills.config.json': '{}' })
    expect(loadConfigSync(both, 'skills.config.json').diagnostics).toEqual([])
  })

  it('the plugins warn too, through their host', async () => {
    const root = makeTree({ 'skills.config.mjs': TS_CONFIG, 'skills.config.json': '{}', ...skill('a') })
    const context = createSkillsContext({ root })
    const warnings: string[] = []
    context.report(await context.audit(), { warn: m => warnings.push(m), info: () => {} })
    expect(warnings.join('\n')).toContain('warning config/ignored skills.config.json found skills.config.mjs and '
      + 'skills.config.json: using skills.config.mjs, skills.config.json is ignored')
  })
})
