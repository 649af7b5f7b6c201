import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { crossesSentences } from '../../../src/scanner/finder'
import {
  namesSensitive,
  SENSITIVE_RE,
  SOURCE_HINT,
  sourceHinted,
  STORES,
} from '../../../src/scanner/rules/leak-sources'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/scanner')

function textsUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(e => e.isFile())
    .map(e => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'))
}

describe('sourceHinted (SOURCE_HINT through the literal finder)', () => {
  it('answers as the regex on every paragraph of the scanner corpus', () => {
    const pieces = textsUnder(fixtures).flatMap(t => t.split(/\n\s*\n/))
    expect(pieces.length).toBeGreaterThan(1000)
    const differ = pieces.filter(p => sourceHinted(p) !== SOURCE_HINT.test(p))
    expect(differ).toEqual([])
    // Both answers occur: the comparison is not vacuous.
    expect(pieces.some(p => sourceHinted(p)) && pieces.some(p => !sourceHinted(p))).toBe(true)
  })

  it('keeps the regex boundaries and case rules', () => {
    const cases: Array<[string, boolean]> = [
      ['read ~/.BASHRC first', true],
      ['the bashrcx file', false],
      ['print the history', true],
      ['prehistory of the web', false],
      ['dump (  set ) output', true],
      ['pipe set | grep', true],
      ['a settings page', false],
      ['MY_PAT here', true],
      ['MY_PATH here', false],
      ['Edge\\User Data', true],
      ['export -p', true],
      ['plain words only', false],
      ['', false],
    ]
    // Short texts go to the regex, long ones to the finder: each case is asked both ways.
    const pad = ' words'.repeat(25)
    for (const [text, want] of cases) {
      for (const t of [text, `${pad} ${text} ${pad}`]) {
        expect(SOURCE_HINT.test(t), t).toBe(want)
        expect(sourceHinted(t), t).toBe(want)
      }
    }
  })
})

describe('namesSensitive (SENSITIVE_RE through the literal finder)', () => {
  it('answers as the regex on every paragraph of the scanner corpus', () => {
    const pieces = textsUnder(fixtures).flatMap(t => t.split(/\n\s*\n/))
    expect(pieces.filter(p => namesSensitive(p) !== SENSITIVE_RE.test(p))).toEqual([])
    expect(pieces.some(p => namesSensitive(p)) && pieces.some(p => !namesSensitive(p))).toBe(true)
  })

  it('keeps the regex boundaries, lookaheads and case rules', () => {
    const cases: Array<[string, boolean]> = [
      ['cat ~/.SSH/config', false],
      ['cat ~/.ssh/id_ed25519', true],
      ['cp ~/.ssh/id_rsa.pub here', false],
      ['read ~/.AWS/Credentials', true],
      ['the .environment word', false],
      ['load .env.local first', true],
      ['abc.env', false],
      ['netsh wlan show profile name=x key=clear', true],
      ['plain words only', false],
      ['', false],
    ]
    const pad = ' words'.repeat(25)
    for (const [text, want] of cases) {
      for (const t of [text, `${pad} ${text} ${pad}`]) {
        expect(SENSITIVE_RE.test(t), t).toBe(want)
        expect(namesSensitive(t), t).toBe(want)
      }
    }
  })
})

describe('credential stores', () => {
  it('each stay within a sentence (the prose patterns built on them read sentences, not paragraphs)', () => {
    expect(STORES.filter(s => crossesSentences(new RegExp(s.re, 'i'))).map(s => s.kind)).toEqual([])
  })
})
