import { describe, expect, it } from 'vitest'
import {
  indexSkillModuleId,
  LOAD_FILTER,
  parseVirtual,
  postingsModuleId,
  RESOLVE_FILTER,
  resolvedSkillId,
  resolveVirtual,
  RUNTIME_FILTER,
  skillModuleId,
} from '../../../src/plugin/ids'

describe('virtual module ids', () => {
  it('resolve both public forms and their sub-paths to one \\0 id', () => {
    expect(resolveVirtual('virtual:skills-manifest')).toBe('\0virtual:skills-manifest')
    expect(resolveVirtual('~skills-manifest')).toBe('\0virtual:skills-manifest')
    expect(resolveVirtual('virtual:skills-manifest/skill/a')).toBe('\0virtual:skills-manifest/skill/a')
    expect(
      ['virtual:skills-manifest', '~skills-manifest/index', 'virtual:skills-manifest/runtime'].every(id =>
        RESOLVE_FILTER.test(id),
      ),
    ).toBe(true)
    expect(
      ['virtual:skills-manifestx', '~skills-manifest-2', './~skills-manifest', 'skills-manifest'].some(id =>
        RESOLVE_FILTER.test(id),
      ),
    ).toBe(false)
    expect(LOAD_FILTER.test('\0virtual:skills-manifest/skill/a')).toBe(true)
    expect(LOAD_FILTER.test('virtual:skills-manifest')).toBe(false)
    expect(RUNTIME_FILTER.test('~skills-manifest/runtime')).toBe(true)
    expect(RUNTIME_FILTER.test('~skills-manifest/skill/runtime')).toBe(false)
  })

  it('round-trip hostile skill names without path segments, loader syntax or queries', () => {
    for (const name of ['pdf-tools', '..', 'a!b', 'x\'y(z)*~.', 'ünï/cøde?#', '%E0%A4%A']) {
      const id = skillModuleId(name)
      expect(id.slice('~skills-manifest/skill/'.length)).toMatch(/^[\w%-]+$/)
      expect(resolveVirtual(id)).toBe(resolvedSkillId(name))
      expect(parseVirtual(resolvedSkillId(name))).toEqual({ kind: 'skill', name })
    }
  })

  it('parse the other modules, and never throw on a malformed id', () => {
    expect(parseVirtual('\0virtual:skills-manifest')).toEqual({ kind: 'main' })
    expect(parseVirtual('\0virtual:skills-manifest?v=123')).toEqual({ kind: 'main' })
    expect(parseVirtual('\0virtual:skills-manifest/index')).toEqual({ kind: 'index' })
    expect(parseVirtual('\0virtual:skills-manifest/loaders')).toEqual({ kind: 'loaders' })
    expect(parseVirtual(resolveVirtual(postingsModuleId(12)))).toEqual({ kind: 'postings', shard: 12 })
    expect(parseVirtual(resolveVirtual(indexSkillModuleId('x\'y(z)*~.')))).toEqual({
      kind: 'index-skill',
      name: 'x\'y(z)*~.',
    })
    // Content-keyed part ids (what the index head imports): the key is not part of the name or shard.
    expect(postingsModuleId(7, '0a1b2c')).toBe('~skills-manifest/index/postings/0a1b2c/7')
    expect(parseVirtual(resolveVirtual(postingsModuleId(7, '0a1b2c')))).toEqual({ kind: 'postings', shard: 7 })
    expect(indexSkillModuleId('a/b', '0a1b2c')).toBe('~skills-manifest/index/skill/0a1b2c/a%2Fb')
    expect(parseVirtual(resolveVirtual(indexSkillModuleId('a/b', '0a1b2c')))).toEqual({
      kind: 'index-skill',
      name: 'a/b',
    })
    expect(parseVirtual('\0virtual:skills-manifest/index/postings/xyz/7')).toEqual({ kind: 'unknown' })
    expect(parseVirtual('\0virtual:skills-manifest/index/postings/-1')).toEqual({ kind: 'unknown' })
    expect(parseVirtual('\0virtual:skills-manifest/index/postings/1e3')).toEqual({ kind: 'unknown' })
    expect(parseVirtual('\0virtual:skills-manifest/index/skill/%E0%A4%A')).toEqual({ kind: 'unknown' })
    expect(parseVirtual('\0virtual:skills-manifest/skill/%E0%A4%A')).toEqual({ kind: 'unknown' })
    expect(parseVirtual('\0virtual:skills-manifest/other')).toEqual({ kind: 'unknown' })
  })
})
