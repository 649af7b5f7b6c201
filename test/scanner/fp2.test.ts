import { describe, expect, it } from 'vitest'
import { hitsOf } from './helpers'

// The last false positives issue 18 measured on real skills, each written as a skill of ours, beside the attack
// that the loosened rule must still catch.
describe('false positives on real skills, round 2', () => {
  it('knows popular packages that are one edit from each other', () => {
    expect(
      hitsOf('typosquatting', {
        'SKILL.md': '# t\n\n```bash\nnpm install -g aws-cdk\nuv pip install psycopg\n```\n',
      }),
    ).toEqual([])
  })
  it('still reports a one-edit imitation', () => {
    expect(hitsOf('typosquatting', { 'SKILL.md': '# t\n\n```bash\nnpm install -g aws-sdkk\npip install psycopg3\n```\n' }))
      .toEqual(['error typosquatting SKILL.md:4:16', 'error typosquatting SKILL.md:5:13'])
  })
})
