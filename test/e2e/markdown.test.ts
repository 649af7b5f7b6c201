import { describe, expect, it } from 'vitest'
import {
  countBySeverity,
  fileAnchor,
  isWebLink,
  severityLabel,
  shortDigest,
  skillRelativeTarget,
  textMatches,
} from '../../playground/src/format'
import { inlineText, parseInline, parseMarkdown } from '../../playground/src/markdown'

describe('playground markdown reader', () => {
  it('reads headings, paragraphs, fenced code and rules', () => {
    expect(parseMarkdown('# Title #\n\nSome *text*\ncontinued.\n\n```sh\nnpm i <x>\n```\n\n---\n')).toEqual([
      { type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] },
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Some ' },
          { type: 'em', children: [{ type: 'text', text: 'text' }] },
          { type: 'text', text: '\ncontinued.' },
        ],
      },
      { type: 'code', lang: 'sh', text: 'npm i <x>' },
      { type: 'rule' },
    ])
  })

  it('nests lists, with code and sub-lists inside items', () => {
    const md = '1. **Step** one\n   - a\n   - b\n2. Two:\n\n   ```sh\n   git log\n   ```\n3. Three\n'
    expect(parseMarkdown(md)).toEqual([
      {
        type: 'list',
        ordered: true,
        start: 1,
        items: [
          [
            {
              type: 'paragraph',
              children: [
                { type: 'strong', children: [{ type: 'text', text: 'Step' }] },
                { type: 'text', text: ' one' },
              ],
            },
            {
              type: 'list',
              ordered: false,
              start: 1,
              items: [
                [{ type: 'paragraph', children: [{ type: 'text', text: 'a' }] }],
                [{ type: 'paragraph', children: [{ type: 'text', text: 'b' }] }],
              ],
            },
          ],
          [
            { type: 'paragraph', children: [{ type: 'text', text: 'Two:' }] },
            { type: 'code', lang: 'sh', text: 'git log' },
          ],
          [{ type: 'paragraph', children: [{ type: 'text', text: 'Three' }] }],
        ],
      },
    ])
  })

  it('reads links, images, code spans and escapes as data, never as HTML', () => {
    expect(
      parseInline(
        'See [the `api`](references/api.md#x "t") ![alt](resources/a.png) \\*not em\\* <https://x.dev> <b>bold</b>',
      ),
    ).toEqual([
      { type: 'text', text: 'See ' },
      {
        type: 'link',
        href: 'references/api.md#x',
        children: [
          { type: 'text', text: 'the ' },
          { type: 'code', text: 'api' },
        ],
      },
      { type: 'text', text: ' ' },
      { type: 'image', src: 'resources/a.png', alt: 'alt' },
      { type: 'text', text: ' *not em* ' },
      { type: 'link', href: 'https://x.dev', children: [{ type: 'text', text: 'https://x.dev' }] },
      { type: 'text', text: ' <b>bold</b>' },
    ])
    expect(parseInline('snake_case_name and _em_')).toEqual([
      { type: 'text', text: 'snake_case_name and ' },
      { type: 'em', children: [{ type: 'text', text: 'em' }] },
    ])
  })

  it('stays bounded on hostile input', () => {
    const brackets = '['.repeat(100_000)
    expect(parseInline(brackets)).toEqual([{ type: 'text', text: brackets }])
    const stars = '**a*'.repeat(20_000)
    expect(inlineText(parseInline(stars)).replace(/\*/g, '')).toBe('a'.repeat(20_000))
    const ticks = '`a``'.repeat(50_000)
    expect(inlineText(parseInline(ticks)).replace(/`/g, '')).toBe('a'.repeat(50_000))
    const deep = `${'> '.repeat(50)}quote`
    // Eight levels of quotes, then the rest is text.
    let expected: unknown = { type: 'paragraph', children: [{ type: 'text', text: `${'> '.repeat(42)}quote` }] }
    for (let level = 0; level < 8; level++) expected = { type: 'quote', children: [expected] }
    expect(parseMarkdown(deep)).toEqual([expected])
    const blanks = `- item\n${'\n'.repeat(50_000)}  more`
    expect(parseMarkdown(blanks)).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [
          [
            { type: 'paragraph', children: [{ type: 'text', text: 'item' }] },
            { type: 'paragraph', children: [{ type: 'text', text: 'more' }] },
          ],
        ],
      },
    ])
  })
})

describe('playground formatting', () => {
  it('formats digests, counts and links', () => {
    expect(shortDigest('5a24db4a8a52b00f2a30f566')).toBe('5a24db4a8a52')
    expect(
      countBySeverity([{ severity: 'info' }, { severity: 'info' }, { severity: 'error' }, { severity: 'bogus' }]),
    ).toEqual({ error: 1, warning: 0, info: 2 })
    expect(severityLabel('info', 1)).toBe('1 note')
    expect(severityLabel('warning', 2)).toBe('2 warnings')
    expect(fileAnchor('references/api.md')).toBe('file-references-api-md')
    expect(skillRelativeTarget('./references/a.md#x')).toBe('references/a.md')
    expect([
      skillRelativeTarget('../etc/passwd'),
      skillRelativeTarget('/abs'),
      skillRelativeTarget('javascript:alert(1)'),
      skillRelativeTarget('//host/x'),
    ]).toEqual([null, null, null, null])
    expect([
      isWebLink('https://a.b'),
      isWebLink('mailto:x@y.z'),
      isWebLink('javascript:alert(1)'),
      isWebLink('data:text/html,x'),
    ]).toEqual([true, true, false, false])
  })

  it('ranks plain text matches when there is no discovery index', () => {
    const skills = [
      { name: 'b-skill', description: 'Retries HTTP 429 responses', frontmatter: { tags: ['http'] } },
      { name: 'a-skill', description: 'Writes HTTP docs', frontmatter: { triggers: ['document the api'] } },
      { name: 'c-skill', description: 'Nothing relevant', frontmatter: {} },
    ]
    expect(textMatches(skills, 'the HTTP 429', 3)).toEqual([
      { name: 'b-skill', score: 1 },
      { name: 'a-skill', score: 0.5 },
    ])
    expect(textMatches(skills, 'the', 3)).toEqual([])
  })
})
