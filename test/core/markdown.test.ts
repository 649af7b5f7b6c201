import type { SkillFile } from '../../src/core/types'
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeMarkdown, markdownOf } from '../../src/core/markdown'
import { checkLinks } from '../../src/enterprise/links'
import { findFences } from '../../src/scanner/markdown'
import { markdownBlocks } from '../../src/search/chunk'
import { brief, cleanupSkills, makeSkill } from '../enterprise/helpers'

afterAll(cleanupSkills)

/** Fences as `open-close` line pairs (0-based), `+` when unclosed. */
function fences(md: string): string[] {
  return analyzeMarkdown(md).fences.map(f => `${f.openLine}-${f.closeLine}${f.closed ? '' : '+'}`)
}

describe('fenced code blocks (CommonMark)', () => {
  it('reads the fence, its info string and its offsets', () => {
    const md = 'intro\n```js title="x" {1,3}\ncode\n```\nafter'
    expect(analyzeMarkdown(md).fences).toEqual([
      {
        openLine: 1,
        closeLine: 3,
        closed: true,
        start: 6,
        end: md.indexOf('\nafter'),
        column: 0,
        char: '`',
        length: 3,
        info: 'js title="x" {1,3}',
      },
    ])
    // Spaces and tabs around the info string are not part of it.
    expect(analyzeMarkdown('~~~ \t py  \t\n~~~').fences[0]!.info).toBe('py')
  })

  it('takes at most 3 spaces of indentation: 4 spaces or a tab make indented code', () => {
    expect(fences('   ```\n   x\n   ```')).toEqual(['0-2'])
    expect(fences('    ```\n    x\n    ```')).toEqual([])
    expect(fences('\t```\n\tx\n\t```')).toEqual([])
    // A closing fence indented 4 spaces is content.
    expect(fences('```\n    ```\nx\n```')).toEqual(['0-3'])
  })

  it('closes only at the same character, at least as long, followed by nothing but spaces and tabs', () => {
    expect(fences('~~~\n```\nx\n```\n~~~')).toEqual(['0-4'])
    expect(fences('```\n~~~\n```')).toEqual(['0-2'])
    expect(fences('````\n```\nx\n`````\n')).toEqual(['0-3'])
    expect(fences('```\n```js\n``` x\n``` {\n``` \t\n')).toEqual(['0-4'])
    expect(analyzeMarkdown('````\n```\n').fences[0]).toMatchObject({ length: 4, closed: false })
  })

  it('runs an unclosed fence to the end of the text', () => {
    const md = 'a\n```py\nx\n'
    expect(analyzeMarkdown(md).fences).toEqual([
      { openLine: 1, closeLine: 3, closed: false, start: 2, end: 10, column: 0, char: '`', length: 3, info: 'py' },
    ])
    expect(md.length).toBe(10)
  })

  it('refuses a backtick in a backtick fence\'s info string, not in a tilde fence\'s', () => {
    expect(fences('``` `x`\ny\n```')).toEqual(['2-2+'])
    expect(fences('~~~ `x`\ny\n~~~')).toEqual(['0-2'])
    expect(analyzeMarkdown('~~~ `x`\n~~~').fences[0]!.info).toBe('`x`')
  })

  it('reads fences in list items relative to the item, including one opening on the marker\'s line', () => {
    expect(fences('1. Step:\n\n    ```bash\n    cmd\n    ```\ntext')).toEqual(['2-4'])
    expect(fences('- a\n  - b\n\n      ```js\n      x\n      ```')).toEqual(['3-5'])
    expect(analyzeMarkdown('1. a\n2. ```sh\n   x\n   ```\n').fences).toEqual([
      { openLine: 1, closeLine: 3, closed: true, start: 8, end: 25, column: 3, char: '`', length: 3, info: 'sh' },
    ])
    expect(fences('-\t```\n  x\n  ```')).toEqual(['0-2'])
    // Out of the list (after a blank line and a paragraph), 4 spaces are indented code again.
    expect(fences('- a\n\npara\n\n    ```js\n    x\n    ```')).toEqual([])
    // A lazy paragraph line keeps the item open; an empty item does not survive a blank line.
    expect(fences('- a\nlazy\n    ```\n    x\n    ```')).toEqual(['2-4'])
    expect(fences('-\n\n     ```\n     x\n     ```')).toEqual([])
  })

  it('keeps what skill authors write: a dedented line stays in the fence, blockquotes and HTML hide none', () => {
    // CommonMark would end the list item (and the fence) at `# comment`.
    expect(fences('- run:\n  ```bash\n  x\n# comment\n  ```\ntext')).toEqual(['1-4'])
    expect(fences('1. a\n   ```\n   x\n```\ntext')).toEqual(['1-3'])
    expect(fences('> ```\n> x\n> ```')).toEqual([])
    expect(fences('<Good>\n```ts\nx\n```\n</Good>')).toEqual(['1-3'])
  })

  it('starts after the frontmatter, ends lines at \\n or \\r\\n only', () => {
    expect(fences('---\ndescription: |\n  ```\n---\n```\ny\n```')).toEqual(['4-6'])
    const crlf = '```\r\nx\r\n```\r\nafter'
    expect(analyzeMarkdown(crlf).fences[0]).toMatchObject({ closeLine: 2, closed: true, end: 11 })
    expect(fences('a\r```\nx')).toEqual([])
    expect(fences('a\u2028```\nx')).toEqual([])
  })
})

describe('hostile input stays linear', () => {
  const MB = 1024 * 1024
  const blank = (n: number): string => ' '.repeat(n)

  it('1 MB of `[`, `*_` and `>`', () => {
    for (const text of ['['.repeat(MB), '*_'.repeat(MB / 2), '>'.repeat(MB), `${'> '.repeat(100_000)}\`\`\``]) {
      const doc = analyzeMarkdown(text)
      expect(doc.fences).toEqual([])
      expect(doc.links).toEqual([])
      expect(doc.headings).toEqual([])
      expect(doc.prose).toBe(text)
    }
    const nested = analyzeMarkdown(`${'>'.repeat(100_000)} [x](x.md)`)
    expect(nested.links).toEqual([{ kind: 'link', dest: 'x.md', offset: 100_005 }])
  })

  it('1 MB of backticks is one unclosed fence, blanked', () => {
    const text = '`'.repeat(MB)
    const doc = analyzeMarkdown(text)
    expect(doc.fences).toEqual([
      { openLine: 0, closeLine: 0, closed: false, start: 0, end: MB, column: 0, char: '`', length: MB, info: '' },
    ])
    expect(doc.prose).toBe(blank(MB))
    expect(doc.links).toEqual([])
  })

  it('1 MB of fence lines and of nested list markers', () => {
    const lines = '```\n'.repeat(MB / 4)
    const doc = analyzeMarkdown(lines)
    expect(doc.fences.length).toBe(MB / 8)
    expect(doc.fences.at(-1)).toMatchObject({ openLine: MB / 4 - 2, closeLine: MB / 4 - 1, closed: true })
    // Past 32 nested items the markers are text: the fence at the end is no fence.
    expect(analyzeMarkdown(`${'- '.repeat(MB / 2)}\`\`\`js\nx`).fences).toEqual([])
    expect(analyzeMarkdown(`${'- '.repeat(10)}\`\`\`js\nx`).fences).toMatchObject([{ openLine: 0, column: 20 }])
    const indents = Array.from({ length: 50_000 }, (_, i) => `${' '.repeat((i % 40) * 2)}- item\n`).join('')
    expect(analyzeMarkdown(`${indents}\`\`\`\nx`).fences).toMatchObject([{ openLine: 50_000, closed: false }])
  })
})

describe('one analysis for the scanner, the enterprise checks and the search index', () => {
  // Every fence here is one the three earlier finders disagreed on.
  const filler = `${'words '.repeat(70)}\n`
  const sections = [
    '# outside-0\n[a](outside-0.md)\n',
    '# outside-1\n````md\n```\n# inside\n[b](inside.md)\n````\n',
    '# outside-2\n1. Step:\n\n    ```bash\n# inside\n    [c](inside.md)\n    ```\n',
    '# outside-3\n~~~ `quoted`\n# inside\n[d](inside.md)\n~~~\n',
    '# outside-4\n```\n    ```\n# inside\n[e](inside.md)\n```\n',
    '# outside-5\n[f](outside-5.md)\n',
  ]
  const text = sections.map(s => s + filler).join('')
  const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length - 1
  const lines = text.split('\n')
  const inside = lines.flatMap((l, i) => (l.includes('inside') ? [i] : []))

  it('agree on the fences of the same text', () => {
    const file = { path: 'SKILL.md', text } as SkillFile
    const scanned = findFences(file)
    expect(scanned.map(f => [f.open, f.close, f.lang])).toEqual([
      [4, 8, 'prose'],
      [13, 16, 'sh'],
      [19, 22, 'text'],
      [25, 29, 'text'],
    ])
    const fenced = (line: number): boolean => scanned.some(f => line >= f.open && line <= f.close)
    expect(inside.every(fenced)).toBe(true)
    expect(lines.some((l, i) => l.includes('outside') && fenced(i))).toBe(false)
    // The scanner and the enterprise checks read the one analysis of the file.
    expect(markdownOf(file)).toBe(markdownOf(file))
    expect(markdownOf(file)!.fences.map(f => [f.openLine, f.closeLine])).toEqual(scanned.map(f => [f.open, f.close]))

    const skill = makeSkill({ 'SKILL.md': `---\nname: demo-skill\n---\n${text}` })
    expect(brief(checkLinks(skill, 'error').diagnostics)).toEqual([
      'link/broken error skills/demo-skill/SKILL.md:5:5',
      'link/broken error skills/demo-skill/SKILL.md:36:5',
    ])

    const starts = markdownBlocks(text, 600, 0).map(([s]) => s)
    expect(starts.map(lineOf)).toEqual(lines.flatMap((l, i) => (l.startsWith('# outside') ? [i] : [])))
  })
})
