/**
 * The prefilters and anchored scans that keep the enterprise checks fast must find exactly what
 * the plain global regexes find: edge cases of each shortcut, and hostile megabyte inputs.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeMarkdown, maskCode } from '../../src/core/markdown'
import { checkEnterprise } from '../../src/enterprise'
import { findCweMentions, mentionsCwe } from '../../src/enterprise/cwe'
import { findWriteRequests } from '../../src/enterprise/hitl'
import { cleanupSkills, makeSkill, options, scanWith } from './helpers'

afterAll(cleanupSkills)

const links = (md: string): string[] => analyzeMarkdown(md).links.map(l => `${l.kind}:${l.dest}@${l.offset}`)
const headings = (md: string): string[] => analyzeMarkdown(md).headings.map(h => `${h.level}:${h.text}@${h.offset}`)

describe('line-start constructs found from their first character', () => {
  it('treats U+2028/U+2029 as line starts for headings, as a multiline regex does', () => {
    expect(headings('x\u2028# Title\n  ## Two ##\n\u2029Setext\n---\n')).toEqual([
      '1:Title@2',
      '2:Two@10',
      '2:Setext@22',
    ])
  })

  it('opens a fence only after a line break (U+2028 is none, in CommonMark), and no heading mid-line', () => {
    expect(links('a\u2028```\n[in](a.md)\n```\n[out](b.md)')).toEqual(['link:a.md@11'])
    expect(headings('a # not\n #\tyes\n    # indented code')).toEqual(['1:yes@8'])
  })

  it('finds reference definitions only at line starts, with up to three spaces', () => {
    expect(links('x [a]: no.md\n   [b]: yes.md\n    [c]: code.md')).toEqual(['definition:yes.md@21'])
  })
})

describe('inline scans', () => {
  it('pairs code spans within a paragraph only, however far apart the backticks are', () => {
    expect(links('p1 `a\n\np2\n\np3 b`\n\np4 `c` [x](x.md)')).toEqual(['link:x.md@29'])
    const far = `\`${'word '.repeat(20_000)}\n\n[x](x.md) \``
    expect(links(far)).toEqual([`link:x.md@${far.indexOf('x.md')}`])
  })

  it('honours an escaped `!` or `[` before the first bracket, and links after the last one', () => {
    expect(links('\\![a](b.md) \\\\![c](d.png) x![e](f.png)')).toEqual([
      'link:b.md@6',
      'image:d.png@19',
      'image:f.png@32',
    ])
    expect(links('\\[a](b.md) tail')).toEqual([])
    expect(links(`${'text '.repeat(10)}[a](a.md) tail ] ( more`)).toEqual(['link:a.md@54'])
  })

  it('finds bare URLs from their `://`, in any case, never inside a word or a previous URL', () => {
    const long = `http://c.example/${'y'.repeat(4100)}`
    const md = `xhttps://a.example HTTPS://A.example/x. see http://b.example/(p)) ${long}http://d.example`
    expect(links(md)).toEqual([
      'bare:HTTPS://A.example/x@19',
      'bare:http://b.example/(p)@44',
      `bare:${long.slice(0, 4103)}@66`,
    ])
  })

  it('blanks closed HTML comments only', () => {
    expect(maskCode('a<!--x-->b<!-->c-->d<!-- open')).toBe('a        b         d<!-- open')
  })
})

describe('prefilters of the request and CWE patterns', () => {
  it('mentionsCwe agrees with /cwe-/i', () => {
    for (const text of ['CWE-79', 'xcWe-', 'cwe', 'cw-e', 'c\u0301we-', 'ＣWE-1', 'we-', '-cwe', 'a-b-CwE-', '']) {
      expect(mentionsCwe(text)).toBe(/cwe-/i.test(text))
    }
    expect(findCweMentions('no mention - here')).toEqual([])
  })

  it('finds client calls in any case with any whitespace before `(`, not inside longer names', () => {
    expect(findWriteRequests('HTTPX.Put \u00A0(u)\naiohttp.post(u)\nxhttp.post(u)\nhttp.get(u)')).toEqual([
      { what: 'HTTPX.Put \u00A0(', offset: 0 },
      { what: 'aiohttp.post(', offset: 15 },
    ])
  })

  it('finds exactly the client calls the plain regex finds, on seeded random texts', () => {
    const CLIENT
      = /\b(?:requests|httpx|axios|session|aiohttp|got|ky|superagent|http|https)\.(?:post|put|patch|delete)\s*\(/gi
    let seed = 5
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
      return seed / 0x7FFFFFFF
    }
    // Texts made of call-shaped pieces, each piece drawn with near misses.
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!
    const clients = ['requests', 'HTTPX', 'got', 'xgot', 'Session', 'é', '']
    const methods = ['.post', '.PUT', '.Patch', '.delete', '.pu', '.Dele', 'post', '.p', '..put']
    const spaces = ['', ' ', '\u00A0', '\n', '\t ', 'x']
    const ends = ['(', '(', ')', '', ' (']
    let found = 0
    for (let k = 0; k < 20_000; k++) {
      let text = ''
      for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--)
        text += pick(clients) + pick(methods) + pick(spaces) + pick(ends)
      const want = [...text.matchAll(CLIENT)].map(m => ({ what: m[0].trim(), offset: m.index }))
      const got = findWriteRequests(text).filter(r => !/^(?:curl|wget)\b|method/i.test(r.what))
      expect(got, JSON.stringify(text)).toEqual(want)
      found += want.length
    }
    // The texts reach the pattern often enough to test something.
    expect(found).toBeGreaterThan(300)
  })

  it('finds explicit methods in any case with any whitespace around `:` or `=`', () => {
    expect(
      findWriteRequests('Method\u00A0: "post"\nx.method="GET"\nfetch(u, { METHOD =\t`Delete` })\nmethods: "PUT"'),
    ).toEqual([
      { what: 'Method\u00A0: "post"', offset: 0 },
      { what: 'METHOD =\t`Delete`', offset: 42 },
    ])
    expect(findWriteRequests('method "POST"\nmethod\n= \'PUT\'')).toEqual([{ what: 'method\n= \'PUT\'', offset: 14 }])
  })

  it('finds wget writes within 500 characters on the same line only', () => {
    const near = `wget ${'a'.repeat(490)} --post-data=1`
    expect(findWriteRequests(near)).toEqual([{ what: near.slice(0, -2), offset: 0 }])
    expect(findWriteRequests(`wget ${'a'.repeat(600)} --post-data=1`)).toEqual([])
    expect(findWriteRequests('wget u\n --post-data=1')).toEqual([])
  })

  it('finds curl writes only with a write option', () => {
    expect(findWriteRequests('curl u -s\ncurl https://x\ncurl -d @f u')).toEqual([{ what: 'curl -d', offset: 25 }])
  })
})

describe('hostile megabyte inputs', () => {
  const MB = 1024 * 1024
  const check = (text: string) =>
    checkEnterprise(
      makeSkill({ 'SKILL.md': `---\nname: demo-skill\n---\n${text}`, 'scripts/x.sh': text, 'references/r.md': text }),
      {
        options: options({ strict: true }),
        scan: scanWith(['network', 'process']),
        skillNames: new Set(['demo-skill']),
      },
    )

  it('a 1 MB single line of mixed syntax characters', () => {
    const line = '[a](b `c <!-- --x -- wget curl - cwe- http:// # = ( .post '.repeat(Math.ceil(MB / 56)).slice(0, MB)
    const result = check(`${line} [end](missing.md)\n`)
    expect(result.diagnostics.filter(d => d.code === 'quality/internal-error')).toEqual([])
    expect(result.diagnostics.filter(d => d.code === 'link/broken').map(d => d.message)).toContain(
      'link `missing.md`: no file `missing.md` in the skill',
    )
  })

  it('1 MB of nested brackets and parentheses', () => {
    const nested = `${'[('.repeat(MB / 4)}${')]'.repeat(MB / 4)}`
    const result = check(`${nested}\n\n[end](missing.md)\n`)
    expect(result.diagnostics.filter(d => d.code === 'quality/internal-error')).toEqual([])
    expect(result.diagnostics.filter(d => d.code === 'link/broken').map(d => d.message)).toContain(
      'link `missing.md`: no file `missing.md` in the skill',
    )
  })

  it('1 MB of unclosed comments, dashes and line starts', () => {
    for (const unit of ['<!--', '--', '\n#', '\n-', '\n[x]:', 'http://', '(', '`\n\n']) {
      const text = unit.repeat(Math.ceil(MB / unit.length))
      expect(analyzeMarkdown(text).prose.length).toBe(text.length)
      expect(findWriteRequests(text)).toEqual([])
    }
  })
})
