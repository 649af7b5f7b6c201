import { describe, expect, it } from 'vitest'
import { analyzeMarkdown, githubSlug, maskCode } from '../../src/core/markdown'

const dests = (md: string): string[] => analyzeMarkdown(md).links.map(l => `${l.kind}:${l.dest}`)

describe('markdown links', () => {
  it('finds inline links and images, with titles, angle brackets, balanced parens and escapes', () => {
    const md = '[a](one.md) ![b](img/two.png "Two") [c](<with space.md>) '
      + '[d](p_(1).md \'t\') [e](x.md (paren title)) [f](a\\)b.md)'
    expect(dests(md)).toEqual([
      'link:one.md',
      'image:img/two.png',
      'link:with space.md',
      'link:p_(1).md',
      'link:x.md',
      'link:a)b.md',
    ])
  })

  it('reports the offset of each destination', () => {
    const md = 'x\n  see [guide](references/guide.md)'
    const [link] = analyzeMarkdown(md).links
    expect(link.offset).toBe(md.indexOf('references/guide.md'))
  })

  it('ignores links in fenced code (backticks and tildes, any indentation), inline code and comments', () => {
    const md = [
      '```md',
      '[fenced](a.md)',
      '```',
      '1. step',
      '   ~~~',
      '   [indented fence](b.md)',
      '   ~~~',
      'text `[code](c.md)` and ``[double `tick`](d.md)``',
      '<!-- [comment](e.md) -->',
      '[real](f.md)',
    ].join('\n')
    expect(dests(md)).toEqual(['link:f.md'])
  })

  it('treats an unclosed fence as running to the end, and a longer closing fence as closing', () => {
    expect(dests('````\n[a](a.md)\n```\n[b](b.md)\n````\n[c](c.md)')).toEqual(['link:c.md'])
    expect(dests('```\n[a](a.md)\n')).toEqual([])
  })

  it('ignores the frontmatter block', () => {
    expect(dests('---\ndescription: "[x](fm.md)"\n---\n[y](body.md)')).toEqual(['link:body.md'])
  })

  it('handles reference definitions, autolinks, raw HTML and bare URLs once each', () => {
    const md = [
      'Use [the guide][g] and [other].',
      '',
      '[g]: references/guide.md "Guide"',
      '[other]: <references/other file.md>',
      '[web]: <https://def.example/a>',
      '',
      '<https://auto.example/x>, https://bare.example/p). [https://text.example](https://dest.example)',
      '<a href="html.md">h</a> <img src=\'pic.png\' alt="">',
    ].join('\n')
    expect(dests(md)).toEqual([
      'definition:references/guide.md',
      'definition:references/other file.md',
      'definition:https://def.example/a',
      'autolink:https://auto.example/x',
      'bare:https://bare.example/p',
      'link:https://dest.example',
      'html:html.md',
      'html:pic.png',
    ])
  })

  it('does not take escaped brackets, empty destinations or reference usages as links', () => {
    expect(dests('\\[no](a.md) [empty]() [label][undefined] [shortcut]')).toEqual([])
  })

  it('keeps a code span that never closes literal', () => {
    expect(dests('a ` b [x](x.md)')).toEqual(['link:x.md'])
  })

  it('blanks code without moving offsets', () => {
    const md = 'a `code` b\r\n```\nfence\n```\n'
    const masked = maskCode(md)
    expect(masked.length).toBe(md.length)
    expect(masked).toBe('a        b \n   \n     \n   \n')
  })

  it('stays linear on hostile input', () => {
    const hostile
      = '['.repeat(50_000) + ']('.repeat(50_000) + '`'.repeat(3) + '`` '.repeat(30_000) + '<a '.repeat(30_000)
    const result = analyzeMarkdown(hostile)
    expect(result.links).toEqual([])
  })
})

describe('headings and GitHub slugs', () => {
  it('slugs like GitHub: lowercase, punctuation and emoji dropped, spaces to hyphens', () => {
    expect(githubSlug('Status codes & what to do')).toBe('status-codes--what-to-do')
    expect(githubSlug('Hello *World* 🎉')).toBe('hello-world-')
    expect(githubSlug('Use `fetch()` with [Retry-After](https://x.example)')).toBe('use-fetch-with-retry-after')
    expect(githubSlug('__init__ and snake_case')).toBe('init-and-snake_case')
    expect(githubSlug('Ünïcode Überschrift')).toBe('ünïcode-überschrift')
    expect(githubSlug('v1.2 (beta): notes')).toBe('v12-beta-notes')
  })

  it('collects ATX and setext headings, numbers duplicates, adds explicit anchors', () => {
    const md = [
      '# Title #',
      'Intro',
      '',
      'Setext One',
      '===',
      '',
      '## Title',
      '## Title',
      '',
      '- item',
      '---',
      '<a name="custom-anchor"></a>',
      '<div id="box"></div>',
      '```',
      '# not a heading',
      '```',
    ].join('\n')
    const result = analyzeMarkdown(md)
    expect(result.headings.map(h => `${h.level}:${h.text}`)).toEqual(['1:Title', '1:Setext One', '2:Title', '2:Title'])
    expect([...result.anchors]).toEqual(['title', 'setext-one', 'title-1', 'title-2', 'custom-anchor', 'box'])
  })
})
