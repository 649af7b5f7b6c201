import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../src/core/frontmatter'

/** What a parse says: the data, where the body starts, and each problem as `code line:column`. */
function outcome(text: string): { data: unknown, bodyLine: number, problems: string[] } {
  const r = parseFrontmatter(text)
  return { data: r.data, bodyLine: r.bodyLine, problems: r.diagnostics.map(d => `${d.code} ${d.line}:${d.column}`) }
}

describe('parseFrontmatter', () => {
  it('reads the block and says where the body starts', () => {
    expect(outcome('---\nname: a\ndescription: "b: c"\n---\n# A\n')).toEqual({
      data: { name: 'a', description: 'b: c' },
      bodyLine: 5,
      problems: [],
    })
    expect(outcome('\uFEFF---\r\nname: a\r\n---\r\nbody')).toEqual({ data: { name: 'a' }, bodyLine: 4, problems: [] })
  })

  it('reports an empty block, blank or comments only, as empty', () => {
    for (const text of ['---\n---\n', '---\n\n  \n---\nx', '---\n# only a comment\n  # another\n---\n']) {
      expect(outcome(text).problems, text).toEqual(['frontmatter/empty 2:1'])
    }
  })

  it('refuses a block whose end is ambiguous, at the first line that starts with ---', () => {
    expect(outcome('---\nname: a\n---x: 1\nb: 2\n---\nbody\n').problems).toEqual(['frontmatter/delimiter 3:1'])
    expect(outcome('---\nname: a\n----\n---\n').problems).toEqual(['frontmatter/delimiter 3:1'])
  })

  it('reports a missing, unterminated, executable or foreign block', () => {
    expect(outcome('# no frontmatter\n').problems).toEqual(['frontmatter/missing 1:1'])
    expect(outcome('----\nname: a\n----\n').problems).toEqual(['frontmatter/missing 1:1'])
    expect(outcome('---\nname: a\n').problems).toEqual(['frontmatter/unterminated 1:1'])
    expect(outcome('---js\n{ name: require("fs") }\n---\n').problems).toEqual(['frontmatter/executable 1:4'])
    expect(outcome('---toml\nname = "a"\n---\n').problems).toEqual(['frontmatter/language 1:4'])
  })

  it('positions YAML errors in the file and rejects what is not a mapping', () => {
    expect(outcome('---\nname: a\nname: b\n---\n').problems).toEqual(['frontmatter/duplicate-key 3:1'])
    expect(outcome('---\n- a\n- b\n---\n').problems).toEqual(['frontmatter/not-a-map 2:1'])
    expect(outcome('---\njust text\n---\n').problems).toEqual(['frontmatter/not-a-map 2:1'])
    expect(outcome('---\nwhen: 2024-01-01\n---\n').data).toEqual({ when: '2024-01-01' })
  })
})
