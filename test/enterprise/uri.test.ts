import type { ParsedSkillUri } from '../../src/enterprise/uri'
import { describe, expect, it } from 'vitest'
import { formatCastorUri, formatSkillUri, isUriError, parseSkillUri, skillUrn } from '../../src/enterprise/uri'

function code(uri: string): string {
  const r = parseSkillUri(uri)
  return isUriError(r) ? r.code : 'ok'
}

describe('parseSkillUri: valid URIs of every scheme', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    [
      'castor://skills/retailcortex.com/payments/payment-gateway/1.0.0',
      { scheme: 'castor', domain: 'retailcortex.com', category: 'payments', name: 'payment-gateway', version: '1.0.0' },
    ],
    [
      'castor://skills/engineering/integrations/api-rate-limit-client/v1.3.0-rc.1',
      {
        scheme: 'castor',
        domain: 'engineering',
        category: 'integrations',
        name: 'api-rate-limit-client',
        version: 'v1.3.0-rc.1',
      },
    ],
    [
      'cstr://skills/build/tools/bazel/2.0.0',
      { scheme: 'cstr', domain: 'build', category: 'tools', name: 'bazel', version: '2.0.0' },
    ],
    [
      'cstr://build/tools/bazel/2.0.0',
      { scheme: 'cstr', domain: 'build', category: 'tools', name: 'bazel', version: '2.0.0' },
    ],
    ['github://anthropics/skills', { scheme: 'github', owner: 'anthropics', repo: 'skills', path: '', ref: null }],
    [
      'github://acme-co/agent.skills/skills/pdf%20tools@v1.2.0',
      { scheme: 'github', owner: 'acme-co', repo: 'agent.skills', path: 'skills/pdf tools', ref: 'v1.2.0' },
    ],
    ['github://o/r/p@release/2.x', { scheme: 'github', owner: 'o', repo: 'r', path: 'p', ref: 'release/2.x' }],
    [
      'github://o/r@9fceb02d0ae598e95dc970b74767f19372d61af8',
      { scheme: 'github', owner: 'o', repo: 'r', path: '', ref: '9fceb02d0ae598e95dc970b74767f19372d61af8' },
    ],
    [
      'mod://github.com/acme/skills@v1.4.2',
      { scheme: 'mod', module: 'github.com/acme/skills', version: 'v1.4.2', path: '' },
    ],
    [
      'mod://github.com/acme/skills/v2@v2.0.1/skills/go-lint',
      { scheme: 'mod', module: 'github.com/acme/skills/v2', version: 'v2.0.1', path: 'skills/go-lint' },
    ],
    [
      'mod://example.com/legacy@v3.0.0+incompatible',
      { scheme: 'mod', module: 'example.com/legacy', version: 'v3.0.0+incompatible', path: '' },
    ],
    [
      'maven://com.acme.skills:skill-pack:1.2.0',
      { scheme: 'maven', groupId: 'com.acme.skills', artifactId: 'skill-pack', version: '1.2.0', path: '' },
    ],
    [
      'maven://com.acme:skills:1.0-SNAPSHOT/META-INF/skills',
      { scheme: 'maven', groupId: 'com.acme', artifactId: 'skills', version: '1.0-SNAPSHOT', path: 'META-INF/skills' },
    ],
    ['pkg://skill-pack', { scheme: 'pkg', name: 'skill-pack', scope: null, version: null, path: '' }],
    [
      'pkg://@acme/skill-pack/skills',
      { scheme: 'pkg', name: '@acme/skill-pack', scope: 'acme', version: null, path: 'skills' },
    ],
    [
      'pkg://@acme/skill-pack@2.1.0/skills/x',
      { scheme: 'pkg', name: '@acme/skill-pack', scope: 'acme', version: '2.1.0', path: 'skills/x' },
    ],
    ['pkg://lodash.skills@next', { scheme: 'pkg', name: 'lodash.skills', scope: null, version: 'next', path: '' }],
    ['file:///srv/skills/', { scheme: 'file', path: '/srv/skills', relative: false }],
    ['file://localhost/srv/my%20skills', { scheme: 'file', path: '/srv/my skills', relative: false }],
    ['file:///C:/work/skills', { scheme: 'file', path: 'C:/work/skills', relative: false }],
    ['file://./skills', { scheme: 'file', path: './skills', relative: true }],
    ['file:///', { scheme: 'file', path: '/', relative: false }],
  ]
  for (const [uri, expected] of cases) {
    it(uri, () => {
      const parsed = parseSkillUri(uri)
      expect(parsed).toEqual({ ok: true, uri, ...expected })
      // The canonical form parses back to the same parts.
      const again = parseSkillUri(formatSkillUri(parsed as ParsedSkillUri))
      expect({ ...again, uri }).toEqual(parsed)
    })
  }
})

describe('parseSkillUri: malformed URIs become structured errors', () => {
  const cases: Array<[unknown, string]> = [
    ['', 'uri/empty'],
    [null, 'uri/empty'],
    [`pkg://${'a'.repeat(3000)}`, 'uri/too-long'],
    ['pkg://a b', 'uri/invalid-char'],
    ['github://o/r\n', 'uri/invalid-char'],
    ['skills/pdf', 'uri/no-scheme'],
    ['github:o/r', 'uri/no-scheme'],
    ['s3://bucket/skills', 'uri/unknown-scheme'],
    ['castor://retailcortex.com/payments/x/1.0.0', 'uri/segments'],
    ['castor://skills/retailcortex.com/payments/x', 'uri/segments'],
    ['castor://skills/Retail.com/payments/x/1.0.0', 'uri/domain'],
    ['castor://skills/-bad-.com/payments/x/1.0.0', 'uri/domain'],
    ['castor://skills/a.com/Pay_ments/x/1.0.0', 'uri/category'],
    ['castor://skills/a.com/p/x--y/1.0.0', 'uri/name'],
    ['castor://skills/a.com/p/x/1.0', 'uri/version'],
    ['cstr://a.com/p/x', 'uri/segments'],
    ['github://o', 'uri/segments'],
    ['github://-o/r', 'uri/owner'],
    ['github://o--o/r', 'uri/owner'],
    ['github://o/../x', 'uri/repo'],
    ['github://o/r/a//b', 'uri/path'],
    ['github://o/r/a/../../etc', 'uri/path'],
    ['github://o/r/a%2F..', 'uri/path'],
    ['github://o/r/%E0%A4%A', 'uri/encoding'],
    ['github://o/r@', 'uri/ref'],
    ['github://o/r@a..b', 'uri/ref'],
    ['github://o/r@main.lock', 'uri/ref'],
    ['mod://github.com/acme/skills', 'uri/version'],
    ['mod://github.com/acme/skills@1.0.0', 'uri/version'],
    ['mod://github.com/acme/skills@v2.0.0', 'uri/version'],
    ['mod://github.com/acme/skills/v2@v1.0.0', 'uri/version'],
    ['mod://localpkg/x@v1.0.0', 'uri/module'],
    ['mod://github.com/.hidden@v1.0.0', 'uri/module'],
    ['maven://com.acme:skills', 'uri/coordinates'],
    ['maven://com.acme:skills:jar:1.0', 'uri/coordinates'],
    ['maven://com..acme:skills:1.0', 'uri/coordinates'],
    ['maven://com.acme:skills:-1', 'uri/version'],
    ['pkg://@acme', 'uri/package'],
    ['pkg://@ACME/x', 'uri/package'],
    ['pkg://.hidden', 'uri/package'],
    ['pkg://Express', 'uri/package'],
    ['pkg://x@^1.0.0', 'uri/version'],
    ['pkg://x/../y', 'uri/path'],
    ['file://server/share', 'uri/host'],
    ['file:///a%00b', 'uri/path'],
    ['file:///a%ZZ', 'uri/encoding'],
  ]
  for (const [uri, expected] of cases) {
    it(`${JSON.stringify(uri).slice(0, 60)} -> ${expected}`, () => {
      const result = parseSkillUri(uri as string)
      expect(result.ok).toBe(false)
      expect(code(uri as string)).toBe(expected)
      if (isUriError(result))
        expect(result.message.length).toBeGreaterThan(10)
    })
  }

  it('names the scheme so a caller can look up a custom resolver', () => {
    expect(parseSkillUri('s3://bucket/skills')).toEqual({
      ok: false,
      code: 'uri/unknown-scheme',
      message:
        'unknown scheme `s3://` (known: castor, cstr, github, mod, maven, pkg, file; others need a `resolvers` entry)',
      uri: 's3://bucket/skills',
      scheme: 's3',
    })
  })
})

describe('formatCastorUri and skillUrn', () => {
  it('formats the canonical castor URI', () => {
    expect(
      formatCastorUri({
        domain: 'engineering',
        category: 'integrations',
        name: 'api-rate-limit-client',
        version: '1.3.0',
      }),
    ).toBe('castor://skills/engineering/integrations/api-rate-limit-client/1.3.0')
    expect(formatCastorUri({ domain: 'a.com', category: 'c', name: 'n', version: '1.0.0' }, 'cstr')).toBe(
      'cstr://skills/a.com/c/n/1.0.0',
    )
    const bad = formatCastorUri({ domain: 'a.com', category: 'C', name: 'n', version: '1.0.0' })
    expect(isUriError(bad) && bad.code).toBe('uri/category')
  })

  it('builds the spec example URN, v-prefixing the version once', () => {
    expect(
      skillUrn({ domain: 'retailcortex.com', app: 'checkout-agent', skill: 'payment-gateway', version: '1.0.0' }),
    ).toBe('urn:castor:skill:retailcortex.com:checkout-agent:payment-gateway:v1.0.0')
    expect(
      skillUrn({ domain: 'retailcortex.com', app: 'checkout-agent', skill: 'payment-gateway', version: 'v1.0.0' }),
    ).toBe('urn:castor:skill:retailcortex.com:checkout-agent:payment-gateway:v1.0.0')
  })

  it('validates the domain as a DNS name and the names as a-z0-9-', () => {
    const codeOf = (parts: Parameters<typeof skillUrn>[0]): string => {
      const r = skillUrn(parts)
      return isUriError(r) ? r.code : 'ok'
    }
    const ok = { domain: 'retailcortex.com', app: 'checkout-agent', skill: 'pay', version: '1.0.0' }
    expect(codeOf(ok)).toBe('ok')
    expect(codeOf({ ...ok, domain: 'localhost' })).toBe('uri/domain')
    expect(codeOf({ ...ok, domain: 'RetailCortex.com' })).toBe('uri/domain')
    expect(codeOf({ ...ok, domain: '10.0.0.1' })).toBe('uri/domain')
    expect(codeOf({ ...ok, domain: 'a_b.com' })).toBe('uri/domain')
    expect(codeOf({ ...ok, domain: `${'a'.repeat(64)}.com` })).toBe('uri/domain')
    expect(codeOf({ ...ok, app: 'Checkout' })).toBe('uri/app')
    expect(codeOf({ ...ok, skill: 'pay:ment' })).toBe('uri/name')
    expect(codeOf({ ...ok, version: 'latest' })).toBe('uri/version')
  })
})
