import type { Finder } from '../../src/scanner/finder/prefilter'
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileGate, literalGate, requiredClasses } from '../../src/scanner/finder/gates'
import { createKernel } from '../../src/scanner/finder/kernel'
import { buildFinder, kernelActive, splitAlternatives } from '../../src/scanner/finder/prefilter'
import { CLS, CLS_START, WORD_BIT } from '../../src/scanner/finder/token-masks'
import { patchWide, WIDE_BYTE } from '../../src/scanner/finder/wide'
import { AST_TRIGGER, AST_TRIGGER_FINDER } from '../../src/scanner/js/trigger'
import { maskedSlice, maskRanges, maskViews } from '../../src/scanner/mask'
import { COMPILED } from '../../src/scanner/text-scan'
import { CORPUS } from './corpus'
import { regexHits as hitsOf } from './helpers'

const FRAGMENTS = [
  'curl ',
  '| sh',
  'rm -rf /',
  'Secret',
  'TOKEN=',
  'password: "',
  'to  the user',
  'To User',
  '\u200B',
  '\uDB40\uDC01',
  '\u0130',
  '\u212A',
  '\u017F',
  '\u00A0-k ',
  ' -k',
  '\t-e ',
  'os . system',
  'os.',
  '![x](',
  ']: http',
  '](https://x/{a}',
  '<!--',
  '<system',
  '[/INST]',
  'eval(',
  'Function(',
  'child_process',
  '\\x41',
  '"\\u0041',
  'import(',
  'require(\'x\')',
  'require(a',
  'process.env',
  'process.env.X',
  'setTimeout("',
  '[\'a\'+',
  'https',
  'https://',
  ':(){ :|:& };:',
  'SG.',
  'hooks.slack',
  'ix.io',
  'a',
  'b',
  ' ',
  '\n',
  '\r\n',
  '_',
  '-',
  '.',
  'é',
  'ÿ',
  '漢',
  'sudo ',
  'Win + R',
  'HISTFILE',
  'iex ',
  'session . post',
  'requests.get',
  'x',
  'AKIA',
  'ghp_',
  'sk-',
  ':AA',
  'dev/tcp',
  'verify = False',
  'tls',
  'net',
  'write',
  'rename(',
  'ssh',
  'wget',
  '`',
  '\'',
  '"',
  '${',
  '}',
  '/*',
  '*/',
  '//',
  '#',
  'archive',
  'without telling',
  'Ignore previous',
  'hide the',
]

/**
 * Every hit of a finder in a text, as `index:text`, overlapping ones included (each search starts one past
 * the last hit).
 */
function allHits(f: Finder, text: string): string[] {
  const out: string[] = []
  let from = 0
  for (let h = f.next(text, from); h; h = f.next(text, from)) {
    out.push(`${h.index}:${h.text}`)
    from = h.index + 1
  }
  return out
}

/** Every line of the labelled scanner corpus (the malicious samples match most patterns). */
function labelledLines(): string[] {
  const out: string[] = []
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name)
      if (e.isDirectory())
        walk(p)
      else if (!fs.readFileSync(p).includes(0))
        out.push(...fs.readFileSync(p, 'utf8').split('\n'))
    }
  }
  walk(CORPUS)
  return out
}

/** Deterministic pseudo-random texts built from token fragments (short ones, and long ones for the byte path). */
function texts(): string[] {
  let seed = 7
  const rnd = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed / 0x7FFFFFFF
  }
  const out: string[] = []
  for (let k = 0; k < 1500; k++) {
    let s = ''
    const n = 1 + Math.floor(rnd() * (k % 3 === 0 ? 60 : 12))
    for (let j = 0; j < n; j++) s += FRAGMENTS[Math.floor(rnd() * FRAGMENTS.length)]
    out.push(s)
  }
  return out
}

describe('literal prefilter', () => {
  const corpus = texts()
  it('analyses every anchor token (no table falls back to the slow regex)', () => {
    for (const t of Object.values(COMPILED)) expect([t.finder.fast, t.finderAst.fast]).toEqual([true, true])
    expect(AST_TRIGGER_FINDER.fast).toBe(true)
  })
  it('finds exactly the hits of the combined anchor regex, in every language', () => {
    let total = 0
    for (const [lang, t] of Object.entries(COMPILED)) {
      for (const [re, finder] of [
        [t.anchor, t.finder],
        [t.anchorAst, t.finderAst],
      ] as const) {
        for (const text of corpus) {
          const want = hitsOf(re, text)
          const got: string[] = []
          let from = 0
          for (let h = finder.next(text, from); h; h = finder.next(text, from)) {
            got.push(`${h.index}:${h.text}`)
            from = h.index + h.text.length
          }
          total += want.length
          expect(got, `${lang}: ${JSON.stringify(text)}`).toEqual(want)
        }
      }
    }
    expect(total).toBeGreaterThan(10_000)
  })
  it('gives the same hits from the WebAssembly loop and the JS loop, long texts included', () => {
    expect(kernelActive()).toBe(true)
    // Texts of 64 code units and more take the byte path, those with code units above 0xFF included.
    // eslint-disable-next-line no-control-regex -- every code unit up to 0xFF, controls included
    const narrow = corpus.map(t => t.replace(/[^\x00-\xFF]/g, 'x'))
    const long = [
      narrow.join(' '),
      narrow.join('\n'),
      narrow.slice(0, 300).join(''),
      corpus.join(' '),
      corpus.slice(0, 300).join(''),
    ]
    let total = 0
    for (const t of Object.values(COMPILED)) {
      const tokens = splitAlternatives(t.anchor.source)
      const wasm = buildFinder(tokens, true)
      const js = buildFinder(tokens, true, { kernel: false })
      for (const text of [...narrow, ...corpus, ...long]) {
        const want = allHits(js, text)
        total += want.length
        expect(allHits(wasm, text)).toEqual(want)
      }
    }
    expect(total).toBeGreaterThan(10_000)
  })
  it('reads the kernel tables afresh after its memory grew (the JS loop finishes each text over them)', () => {
    // The WebAssembly loop stops two bytes before the end: a hit there (`go`) comes from the JS loop.
    const f = buildFinder(['\\bcurl\\b', 'eval\\(', 'go'], true)
    const text = `x CURL eval( curly ${'-'.repeat(100)} go`
    const want = ['2:CURL', '7:eval(', `${text.length - 2}:go`]
    expect(allHits(f, text)).toEqual(want)
    // A 16 MB text does not fit the kernel's memory yet: loading it grows the memory.
    const big = `${'ab '.repeat(16 << 18)}eval(`
    expect(allHits(buildFinder(['eval\\('], true), big)).toEqual([`${big.length - 5}:eval(`])
    expect(allHits(f, text)).toEqual(want)
  })
  it('reads a code unit above 0xFF as a non-ASCII byte, not as its low byte', () => {
    // U+2028's low byte is `(`, U+2009's a tab, U+205F's `_`: a latin1 copy alone would find `eval(`,
    // break `curl` off `rm` and join `x_y`.
    const pad = '-'.repeat(64)
    const text = `${pad} eval\u2028 curl\u2009rm x\u205Fy \u200B eval( ${pad}`
    for (const kernel of [true, false]) {
      const f = buildFinder(['eval\\(', '\\bcurl\\b', '\\brm\\b', 'x_y', '\\u200B'], true, { kernel })
      expect(allHits(f, text)).toEqual([
        `${text.indexOf('curl')}:curl`,
        `${text.indexOf('rm')}:rm`,
        `${text.indexOf('\u200B')}:\u200B`,
        `${text.indexOf('eval(')}:eval(`,
      ])
    }
  })
  it('narrows a wide text in the kernel to the bytes of its patched latin1 copy', () => {
    const kernel = createKernel(CLS, WORD_BIT, CLS_START)!
    let seed = 11
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
      return seed / 0x7FFFFFFF
    }
    const units = [
      'a',
      ' ',
      '\n',
      '\u00E9',
      '\u00FF',
      '\u0100',
      '\u0128',
      '\u2014',
      '\u2028',
      '\uD83D\uDCA1',
      '\uFFFF',
      '\u7F00',
    ]
    for (let k = 0; k < 300; k++) {
      let text = '\u2014'
      const n = Math.floor(rnd() * (k % 10 === 0 ? 5000 : 100))
      for (let i = 0; i < n; i++) text += units[Math.floor(rnd() * units.length)]
      const want = Buffer.from(text, 'latin1')
      patchWide(text, want, 0)
      expect(Buffer.from(kernel.load(text, true)!)).toEqual(want)
    }
    expect(WIDE_BYTE).toBe(0xFF)
  })
  it('answers the AST trigger test exactly', () => {
    const answers = corpus.map(text => AST_TRIGGER_FINDER.test(text))
    expect(answers).toEqual(corpus.map(text => AST_TRIGGER.test(text)))
    expect(answers.filter(Boolean).length).toBeGreaterThan(100)
  })
  it('keeps case-insensitive matching ASCII-only, like the regex without /u', () => {
    const f = buildFinder(['\\bkey', '[^a-z]x'], true)
    expect(f.next('\u212Aey KEY', 0)).toEqual({ index: 4, text: 'KEY' })
    expect(/\bkey|[^a-z]x/gi.exec('\u212Aey KEY')?.index).toBe(4)
    expect(f.next('aX bX', 0)).toEqual(null)
    expect(f.next('aX \u017FX', 0)).toEqual({ index: 3, text: '\u017FX' })
    expect(/\bkey|[^a-z]x/gi.exec('aX \u017FX')?.index).toBe(3)
    expect(buildFinder(['(?<x>a)'], true).fast).toBe(false)
    expect(buildFinder(['(?<x>a)'], true).next('ba', 0)).toEqual({ index: 1, text: 'a' })
  })
  it('splits top-level alternatives only', () => {
    expect(splitAlternatives(String.raw`a|(?:b|c)|[|]|\|`)).toEqual(['a', '(?:b|c)', '[|]', '\\|'])
  })
})

describe('required classes of line patterns', () => {
  it('hold for every match: a subject without one of them cannot match', () => {
    const corpus = texts()
    let matched = 0
    for (const t of Object.values(COMPILED)) {
      for (const c of t.patterns) {
        for (const text of corpus) {
          const re = new RegExp(c.re.source, c.re.flags.replace('g', ''))
          const m = re.exec(text)
          if (!m)
            continue
          matched++
          for (const r of c.requires)
            expect(r.test(m[0]), `${c.re.source} / ${r.source} on ${JSON.stringify(m[0])}`).toBe(true)
        }
      }
    }
    expect(matched).toBeGreaterThan(500)
  })
  it('literal gates hold for every match of every line pattern (on the labelled corpus lines too)', () => {
    const lines = [...texts(), ...labelledLines()]
    let matched = 0
    let gated = 0
    for (const t of Object.values(COMPILED)) {
      for (const c of t.patterns) {
        const g = literalGate(c.re)
        if (g === null)
          continue
        gated++
        const pass = compileGate(g)
        // The scan's form tests a required literal first: the same answers on every line.
        const first = compileGate(g, c.anchor)
        const re = new RegExp(c.re.source, c.re.flags.replace('g', ''))
        for (const text of lines) {
          const lower = text.toLowerCase()
          if (first(lower) !== pass(lower))
            expect.fail(`${c.re.source}: the two forms differ on ${JSON.stringify(text)}`)
          const m = re.exec(text)
          if (!m)
            continue
          matched++
          expect(pass(m[0].toLowerCase()), `${c.re.source} on ${JSON.stringify(m[0])}`).toBe(true)
        }
      }
    }
    expect(gated).toBeGreaterThan(60)
    expect(matched).toBeGreaterThan(1000)
  })
  it('tests an any-of of literals as includes would, whatever characters the literals hold', () => {
    const literals = ['a+rwx', 'c.d', '(x)', 'p|q', 'back\\slash', '$home', '[ab]', 'x?y', '^z', 'w{2}', '/etc/']
    const gate = compileGate({ any: literals })
    const texts = [...literals.map(l => `so ${l} here`), 'aarwx', 'cxd', 'x', 'p', 'q', 'ab', 'y', 'z', 'ww', 'etc', '']
    for (const text of texts)
      expect(gate(text), text).toBe(literals.some(l => text.includes(l)))
  })

  it('derives gates: literals in sequence, alternatives as any-of, nothing from optional parts', () => {
    expect(literalGate(/\b(?:aws_?secret|SecretAccessKey)["']?\s*[:=]/i)).toEqual({
      any: [{ all: ['aws', 'secret'] }, 'secretaccesskey'],
    })
    expect(literalGate(/\bchmod\s+(?:0?777|a\+rwx)\b/)).toEqual({ all: ['chmod', { any: ['777', 'a+rwx'] }] })
    expect(literalGate(/x|y?/)).toBe(null)
    expect(literalGate(/(a)\1/)).toBe(null)
    expect(literalGate(/[\u200B]/u)).toBe(null)
    expect(compileGate({ all: ['ab', { any: ['cd', 'ef'] }] })('xx ab ef')).toBe(true)
    expect(compileGate({ all: ['ab', { any: ['cd', 'ef'] }] })('xx ab e f')).toBe(false)
    // With the anchor: `access` is required by both branches (inside `secretaccesskey`), and is not the anchor's word.
    const aws = compileGate({ any: [{ all: ['aws', 'secret', 'access', 'key'] }, 'secretaccesskey'] }, /\bsecret/i)
    expect(['aws secret access key', 'secretaccesskey', 'aws secret key', 'secret access'].map(aws)).toEqual([
      true,
      true,
      false,
      false,
    ])
  })
  it('derives the pipe of `curl ... | sh` and nothing from unknown syntax', () => {
    expect(requiredClasses(/\bcurl\b[^|\n]{0,300}\|\s*sh\b/i).map(r => r.source)).toEqual([
      '[\\x43\\x63]',
      '[\\x55\\x75]',
      '[\\x52\\x72]',
      '[\\x4c\\x6c]',
      '[\\x7c]',
      '[\\x53\\x73]',
      '[\\x48\\x68]',
    ])
    expect(requiredClasses(/(a)\1/)).toEqual([])
    expect(requiredClasses(/x|y?/)).toEqual([])
  })
})

describe('masked slices', () => {
  it('equal slices of the fully masked views', () => {
    const samples: Array<[string, 'js' | 'py' | 'sh']> = [
      // eslint-disable-next-line no-template-curly-in-string -- JavaScript source with a template literal
      ['const a = \'x\' // c\n/* b\nc */ `t${\'u\'}v` + "w\\"" // é\n', 'js'],
      ['x = """doc\nstring""" # c\nprint(\'a#b\') # tail\n', 'py'],
      // eslint-disable-next-line no-template-curly-in-string -- shell source with a parameter expansion
      ['echo "$(curl x)" # c\nA=\'q\' ${#a} x#y\n', 'sh'],
    ]
    for (const [text, lang] of samples) {
      const views = maskViews(text, lang)
      const ranges = maskRanges(text, lang)
      for (let a = 0; a <= text.length; a++) {
        for (let b = a; b <= text.length; b++) {
          expect(maskedSlice(text, ranges.code, a, b)).toBe(views.code.slice(a, b))
          expect(maskedSlice(text, ranges.noComments, a, b)).toBe(views.noComments.slice(a, b))
        }
      }
    }
  })
})
