import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { secrets } from '../../../src/scanner/rules/secrets'
import { hitsOf, scan } from '../helpers'

/** Lines of random-looking base64, the same on every run (key material for the tests, never a real key). */
function material(seed: string, lines: number): string[] {
  const line = (i: number): string => createHash('sha512').update(`${seed}${i}`).digest('base64').slice(0, 70)
  return Array.from({ length: lines }, (_, i) => line(i))
}

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
  it('reads whole key blocks in files without an extension: an OpenSSH key opens with a low-entropy line', () => {
    const key = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      ...material('ssh', 5),
      '-----END OPENSSH PRIVATE KEY-----',
    ].join('\n')
    const pgp = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: release\n\n${material('pgp', 4).join('\n')}\n`
      + `-----END PGP PRIVATE KEY BLOCK-----\n`
    expect(hitsOf('secrets', {
      'resources/id_rsa': `${key}\n`,
      'resources/signing.asc': pgp,
      'SKILL.md': '# x\n\n```\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA...\n'
        + '-----END OPENSSH PRIVATE KEY-----\n```\n',
    })).toEqual(['error secrets resources/id_rsa:1:1', 'error secrets resources/signing.asc:1:1'])
  })
  it('finds credentials in URLs, netrc files and encoded keys, and skips documentation values', () => {
    const [pw, kube] = [material('pw', 1)[0]!.replace(/[+/]/g, 'x').slice(0, 20), material('kube', 3).join('')]
    expect(hitsOf('secrets', {
      'references/db.md': `# db\n\n\`postgresql://report:${pw}@db.prod.acme.io:5432/app\`\n`
        // eslint-disable-next-line no-template-curly-in-string -- a placeholder, as a skill would write it
        + '`postgres://user:password@localhost/db` and `https://user:${TOKEN}@git.example.com`\n',
      'resources/netrc': 'machine api.heroku.com login me@x.io password 03a2960f-5149e7908a9c\n',
      'resources/kube.yaml': `client-key-data: LS0tLS1CRUdJTi${kube}\n`,
      'references/keys.md':
        '# keys\n\nExample: AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q\npassword: "securePassword123"\n',
    })).toEqual([
      'error secrets references/db.md:3:2',
      'error secrets resources/kube.yaml:1:18',
      'error secrets resources/netrc:1:1',
    ])
  })
})
