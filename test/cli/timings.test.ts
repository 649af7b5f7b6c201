import { describe, expect, it } from 'vitest'
import { makeTree, skill } from '../helpers'
import { cli } from './run-cli'

describe('check --timings', () => {
  it('prints where the check spent its time, by phase and rule, to stderr only', async () => {
    const root = makeTree({
      ...skill('fetch', { files: { 'scripts/get.js': 'fetch("https://api.example.com/v1")\n' } }),
      ...skill('plain'),
    })
    const args = ['check', '--cwd', root, '--no-cache', '--profile', 'agentskills', '--format', 'json']
    expect((await cli(['lock', '--cwd', root, '--profile', 'agentskills'])).code).toBe(0)
    const plain = await cli(args)
    const timed = await cli([...args, '--timings'])
    expect(timed.code).toBe(plain.code)
    expect(timed.stdout).toBe(plain.stdout)
    const labels = timed.stderr.trimEnd().split('\n').map(l => l.replace(/\s+[\d.]+ ms\s+[\d.]+%$/, '').trimEnd())
    expect(labels[0]).toMatch(/^phase\s+time\s+share$/)
    for (const phase of ['discover', 'list files', 'read + hash', 'frontmatter + schema', 'scan', 'lock', 'report'])
      expect(labels).toContain(phase)
    const details = ['line patterns (prose)', 'line patterns (js)', 'JavaScript AST', 'exfiltration (whole skill)']
    for (const detail of details) expect(labels).toContain(`  ${detail}`)
    expect(labels.at(-1)).toBe('total (wall, the whole audit)')
    // Off again after the run: a check without the flag prints nothing to stderr.
    expect((await cli(args)).stderr).toBe('')
  })
})
