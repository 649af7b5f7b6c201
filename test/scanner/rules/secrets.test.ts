import { describe, expect, it } from 'vitest'
import { secrets } from '../../../src/scanner/rules/secrets'
import { hitsOf, scan } from '../helpers'

const GH = `ghp_${'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4'}`

describe('secrets', () => {
  it('is an error with CWE-798', () => {
    expect(secrets.meta).toMatchObject({ id: 'secrets', severity: 'error', cwe: 'CWE-798' })
  })
  it('finds tokens and private keys, and redacts the excerpt', () => {
    const r = scan({
      'scripts/a.py': `TOKEN = "${GH}"\nDB_PASSWORD = "Xk9mQ2vL8pR4wZt7"\n`,
      'resources/k.pem':
        `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n`
        + `-----END RSA PRIVATE KEY-----\n`,
      'SKILL.md': '# x\n\nkey AKIAZ7Q3M5N8P2R4T6V8\n',
    })
    expect(r.diagnostics.map(d => `${d.rule} ${d.file}:${d.line}`)).toEqual([
      'secrets skills/demo/SKILL.md:3',
      'secrets skills/demo/resources/k.pem:1',
      'secrets skills/demo/scripts/a.py:1',
      'secrets skills/demo/scripts/a.py:2',
    ])
    expect(r.diagnostics[2]!.excerpt).toBe('ghp_aB…****')
    expect(JSON.stringify(r)).not.toContain(GH)
  })
  it('ignores placeholders', () => {
    expect(
      hitsOf('secrets', {
        'SKILL.md':
          '# x\n\nsk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx sk-... AKIAIOSFODNN7EXAMPLE\n'
          + 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n'
          + 'SLACK=xoxb-your-token password: "your-password"\n```\n-----BEGIN RSA PRIVATE KEY-----\n...\n```\n',
        // eslint-disable-next-line no-template-curly-in-string -- a config placeholder, as a skill would write it
        'resources/c.json': '{ "password": "${DB_PASSWORD}", "api_key": "<your-api-key>" }\n',
      }),
    ).toEqual([])
  })
})
