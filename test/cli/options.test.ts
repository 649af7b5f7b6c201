import { describe, expect, it } from 'vitest'
import { makeTree, skill } from '../helpers'
import { cli } from './run-cli'

function withConfig(config: Record<string, unknown>): string {
  return makeTree({ 'skills.config.json': JSON.stringify({ ci: false, ...config }), ...skill('a') })
}

async function problems(config: Record<string, unknown>): Promise<{ code: number, lines: string[] }> {
  const { code, stderr } = await cli(['check', '--cwd', withConfig(config)])
  return { code, lines: stderr.trimEnd().split('\n') }
}

describe('invalid options in a config file', () => {
  it('a bad severity fails with the path, the value and what is allowed', async () => {
    expect(await problems({ scanner: { rules: { child_process: 'warn' } } })).toEqual({
      code: 2,
      lines: [
        '[unplugin-skills] invalid options (skills.config.json):',
        '  scanner.rules.child_process: "warn" is not allowed; expected "error" or "warning" or "info" or "off"',
      ],
    })
  })
  it('a bad profile says what was meant', async () => {
    expect((await problems({ profile: 'Enterprise' })).lines[1]).toBe(
      '  profile: "Enterprise" is not allowed; expected "enterprise" or "agentskills" (did you mean "enterprise"?)',
    )
    expect((await problems({ profile: 'strict-enterprise' })).lines[1]).toBe(
      '  profile: "strict-enterprise" is not allowed; expected "enterprise" or "agentskills"',
    )
  })
  it('an unknown key names its near miss', async () => {
    const { code, lines } = await problems({ profil: 'agentskills', rots: ['skills'] })
    expect(code).toBe(2)
    expect(lines.slice(1).map(l => l.replace(/ \(known: .*\)$/, ''))).toEqual([
      '  profil: unknown option; did you mean "profile"?',
      '  rots: unknown option; did you mean "roots"?',
    ])
  })
  it('an unknown rule id (bare or as `scan/<rule>`) names its near miss', async () => {
    expect((await problems({ scanner: { rules: { 'child_proces': 'info', 'scan/network_acces': 'off' } } })).lines)
      .toEqual([
        '[unplugin-skills] invalid options (skills.config.json):',
        '  scanner.rules.child_proces: unknown rule "child_proces"; did you mean "child_process"?',
        '  scanner.rules.network_acces: unknown rule "network_acces"; did you mean "network_access"?',
      ])
  })
  it('a value of the wrong type fails', async () => {
    expect((await problems({ strict: 'yes', workers: 'two' })).lines.slice(1)).toEqual([
      '  strict: "yes" is not allowed; expected a boolean',
      '  workers: "two" is not allowed; expected an integer',
    ])
  })
  it('accepts rule ids with the `scan/` prefix, and a string `roots` as one root', async () => {
    const { code, stdout } = await cli([
      'check',
      '--cwd',
      withConfig({ roots: 'skills', lock: false, scanner: { rules: { 'scan/fs_write': 'off' } } }),
      '--format',
      'json',
    ])
    expect(code).toBe(0)
    expect(JSON.parse(stdout).skills).toEqual(['a'])
  })
})

describe('two config files', () => {
  it('check, build and lock warn that one is ignored, and still pass', async () => {
    const root = makeTree({
      'skills.config.ts': 'export default { ci: false }\n',
      'skills.config.json': '{ "profile": "bogus" }',
      ...skill('a'),
    })
    const warning = 'warning config/ignored skills.config.json found skills.config.ts and skills.config.json: '
      + 'using skills.config.ts, skills.config.json is ignored'
    const locked = await cli(['lock', '--cwd', root, '--no-color'])
    expect(locked.code).toBe(0)
    expect(locked.stderr).toContain(`${warning.replace(' found', '\n  found')}\n`)
    const checked = await cli(['check', '--cwd', root, '--no-color'])
    expect(checked.code).toBe(0)
    expect(checked.stdout).toContain(warning)
    expect(checked.stdout.trimEnd().split('\n').at(-1)).toBe('⚠ 0 errors, 1 warning, 0 notes in 1 skill')
    const built = await cli(['build', '--cwd', root, '--no-color'])
    expect(built.code).toBe(0)
    expect(built.stderr).toContain(warning)
    // Named explicitly, the file is the only one read: nothing to warn about (and its bad profile fails).
    expect((await cli(['check', '--cwd', root, '-c', 'skills.config.json'])).code).toBe(2)
  })
})
