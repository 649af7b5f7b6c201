import { describe, expect, it } from 'vitest'
import { declaredCapabilities } from '../../src/scanner/index'
import { hits, scan } from './helpers'

describe('declaredCapabilities', () => {
  it('maps allowed-tools strings and lists onto the vocabulary', () => {
    expect(declaredCapabilities({ 'allowed-tools': 'Bash(git commit:*) Read WebFetch' })).toEqual({
      capabilities: ['network', 'process'],
      unknown: [],
    })
    expect(declaredCapabilities({ 'allowed-tools': ['Write', 'MultiEdit', 'Grep'] })).toEqual({
      capabilities: ['fs:write'],
      unknown: [],
    })
    expect(declaredCapabilities({ 'allowed-tools': 'Bash(curl:*)' })).toEqual({
      capabilities: ['network', 'process'],
      unknown: [],
    })
  })
  it('reads capabilities lists and strings, reporting unknown words', () => {
    expect(declaredCapabilities({ capabilities: ['secrets', 'network', 'gpu'] })).toEqual({
      capabilities: ['network', 'secrets'],
      unknown: ['gpu'],
    })
    expect(declaredCapabilities({ metadata: { capabilities: 'fs:write env' } })).toEqual({
      capabilities: ['fs:write', 'env'],
      unknown: [],
    })
    expect(declaredCapabilities({ capabilities: 42 })).toEqual({ capabilities: [], unknown: [] })
  })
})

describe('capability adjustment', () => {
  const files = { 'scripts/a.js': 'await fetch(\'https://x.example\')\n' }
  it('keeps the rule severity when detected but not declared', () => {
    expect(scan(files).capabilities).toEqual({ declared: [], detected: ['network'] })
    expect(hits(files)).toEqual(['error network_access scripts/a.js:1:7'])
  })
  it('reports a declared use as info', () => {
    const r = scan(files, { capabilities: ['network'] })
    expect(r.diagnostics.map(d => [d.severity, d.message])).toEqual([
      ['info', 'makes a network request (declared capability "network")'],
    ])
    expect(r.capabilities).toEqual({ declared: ['network'], detected: ['network'] })
  })
  it('reports declared but unused capabilities and unknown words', () => {
    expect(hits({ 'SKILL.md': '# x\n' }, { capabilities: ['fs:write', 'gpu', 'env'] })).toEqual([
      'warning unknown-capability SKILL.md:null:null',
      'info unused-capability SKILL.md:null:null',
      'info unused-capability SKILL.md:null:null',
    ])
  })
  it('turns denied capabilities into errors even when declared', () => {
    expect(
      hits(
        { 'scripts/w.js': 'require(\'fs\').writeFileSync(\'a\', \'b\')\n' },
        { 'allowed-tools': 'Write' },
        { deny: ['fs:write'] },
      ),
    ).toEqual(['error fs_write scripts/w.js:1:1'])
  })
})
