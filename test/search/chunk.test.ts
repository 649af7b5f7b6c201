import { afterEach, describe, expect, it } from 'vitest'
import { CHUNK_MAX, CHUNK_OVERLAP, chunkSkill, markdownBlocks, slidingWindows } from '../../src/search/chunk'
import { skillMd, tempDir, writeSkill } from './helpers'

let cleanup = () => {}
afterEach(() => cleanup())

describe('slidingWindows', () => {
  it('caps windows at 900 characters with exactly 80 characters of overlap', () => {
    const windows = slidingWindows(2000)
    expect(windows).toEqual([
      [0, 900],
      [820, 1720],
      [1640, 2000],
    ])
    for (let i = 1; i < windows.length; i++) expect(windows[i - 1][1] - windows[i][0]).toBe(CHUNK_OVERLAP)
  })
  it('keeps short text whole and empty text empty', () => {
    expect(slidingWindows(900)).toEqual([[0, 900]])
    expect(slidingWindows(0)).toEqual([])
  })
})

describe('markdownBlocks', () => {
  it('splits at headings outside code fences and packs small sections', () => {
    const text = '# A\none\n```\n# not a heading\n```\n## B\ntwo\n'
    expect(markdownBlocks(text, 40, 5).map(([s, e]) => text.slice(s, e))).toEqual([
      '# A\none\n```\n# not a heading\n```\n',
      '## B\ntwo\n',
    ])
    expect(markdownBlocks(text).map(([s, e]) => text.slice(s, e))).toEqual([text])
  })
  it('reads fences as the scanner does: a shorter run closes no fence, a list item\'s fence may be indented', () => {
    const text = '# A\n````md\n```\n# in fence\n````\n1. step\n\n    ```sh\n# in shell\n    ```\n## B\n'
    // One 69-character section cut into windows, then `## B`; no block starts at a heading in a fence.
    expect(markdownBlocks(text, 20, 0).map(([s]) => s)).toEqual([0, 20, 40, 60, text.indexOf('## B')])
  })
  it('does not split at a heading inside an HTML comment', () => {
    const text = '# A\none\n<!--\n# hidden\n-->\n# B\n'
    expect(markdownBlocks(text, 20, 0).map(([s]) => s)).toEqual([0, 20, text.indexOf('# B')])
  })
  it('windows an oversized section', () => {
    const text = `# Big\n${'word '.repeat(400)}`
    const blocks = markdownBlocks(text)
    expect(blocks.length).toBe(3)
    for (const [s, e] of blocks) expect(e - s).toBeLessThanOrEqual(CHUNK_MAX)
  })
})

describe('chunkSkill', () => {
  it('itemises summary, instruction blocks, each trigger, references and examples', async () => {
    const t = tempDir()
    cleanup = t.cleanup
    const skill = await writeSkill(t.dir, 'demo', {
      'SKILL.md': skillMd(
        {
          name: 'demo',
          description: 'Does demos.',
          tags: ['a', 'b'],
          category: 'tools',
          triggers: ['run the demo', 'show me'],
        },
        `# Demo\n\n## Steps\n1. One.\n\n## Long\n${'x'.repeat(1000)}\n`,
      ),
      'references/guide.md': '# Guide\ntext\n',
      'examples/run.sh': 'echo demo\n',
      'scripts/setup.sh': 'echo not indexed\n',
    })
    const chunks = chunkSkill(skill)
    expect(chunks.map(c => [c.kind, c.source])).toEqual([
      ['summary', 'frontmatter'],
      ['instructions', 'SKILL.md'],
      ['instructions', 'SKILL.md'],
      ['instructions', 'SKILL.md'],
      ['trigger', 'frontmatter'],
      ['trigger', 'frontmatter'],
      ['reference', 'references/guide.md'],
      ['example', 'examples/run.sh'],
    ])
    expect(chunks[0].text).toBe('demo\nDoes demos.\na, b\ntools')
    expect(chunks[4].text).toBe('run the demo')
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX)
      if (!c.inline) {
        expect(c.text).toBe(
          (c.source === 'SKILL.md'
            ? skill.body
            : skill.tree.references.concat(skill.tree.examples).find(d => d.path === c.source)!.text!
          ).slice(c.start, c.end),
        )
      }
    }
  })
  it('survives hostile frontmatter values without throwing', async () => {
    const t = tempDir()
    cleanup = t.cleanup
    const skill = await writeSkill(t.dir, 'odd', { 'SKILL.md': '---\nname: odd\ntriggers: {a: 1}\ntags: 42\n---\n' })
    skill.frontmatter.triggers = [null, 3, { x: 1 }, 'ok'] as unknown as string[]
    ;(skill as { description: unknown }).description = undefined
    const chunks = chunkSkill(skill)
    expect(chunks.map(c => [c.kind, c.text])).toEqual([
      ['summary', 'odd'],
      ['trigger', '3'],
      ['trigger', 'ok'],
    ])
  })
})

describe('chunkSkill text budget', () => {
  it('indexes a small skill whole and a large one only as far as the budget, body first', async () => {
    const t = tempDir()
    cleanup = t.cleanup
    const body = `# Big\n\n${'alpha '.repeat(300)}\n`
    const skill = await writeSkill(t.dir, 'big', {
      'SKILL.md': skillMd({ name: 'big', description: 'A large skill.', triggers: ['go big'] }, body),
      'references/appendix.md': `# Appendix\n\n${'omega '.repeat(2000)}\n`,
      'examples/one.md': 'example text\n',
    })
    const whole = chunkSkill(skill, 1e9)
    expect(whole.filter(c => c.kind === 'reference').map(c => c.end).at(-1)).toBe(skill.tree.references[0].text!.length)
    expect(whole.some(c => c.kind === 'example')).toBe(true)

    // The budget: all of the body (1,808 characters), then the first 192 characters of the reference, no example.
    expect(skill.body.length).toBe(1808)
    const cut = chunkSkill(skill, 2000)
    expect(cut.map(c => [c.kind, c.source, c.start, c.end])).toEqual([
      ['summary', 'frontmatter', 0, 18],
      ['instructions', 'SKILL.md', 0, 900],
      ['instructions', 'SKILL.md', 820, 1720],
      ['instructions', 'SKILL.md', 1640, 1808],
      ['trigger', 'frontmatter', 0, 6],
      ['reference', 'references/appendix.md', 0, 192],
    ])
    // The frontmatter is indexed whatever the budget.
    expect(chunkSkill(skill, 0).map(c => c.kind)).toEqual(['summary', 'trigger'])
    expect(chunkSkill(skill).length).toBeLessThan(whole.length)
  })
})
