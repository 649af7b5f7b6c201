import RandExp from 'randexp'
import { describe, expect, it } from 'vitest'
import { RULE_MODULES } from '../../src/scanner/rules/index'
import { anchorTokens } from '../../src/scanner/text-scan'

/**
 * A line pattern runs only on lines where its anchor hit, and an anchor token is matched at a word's start:
 * a pattern whose matches can start inside a word (`isAllowInsecureProtocol`, `GIT_SSL_NO_VERIFY`) or take a form
 * the anchor leaves out (`yarn global add`) silently never fires there. Strings generated from each pattern's
 * own regex must all meet its anchor.
 */

/** A small seeded generator (mulberry32): the samples are the same on every run. */
function seeded(seed: number): (a: number, b: number) => number {
  let s = seed >>> 0
  return (a, b) => {
    s = (s + 0x6D2B79F5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296
    return a + Math.floor(r * (b - a + 1))
  }
}

const SAMPLES = 300

/** A generator of a regex's strings, or null for what randexp does not read (lookbehinds). */
function generator(re: RegExp): RandExp | null {
  try {
    return new RandExp(new RegExp(re.source, re.flags.replace('g', '')))
  }
  catch {
    return null
  }
}

/**
 * Samples of a pattern's regex, each alone and inside a line. Runs of spaces become one: anchors are literal
 * tokens with single spaces (`gem install`), as commands are written. Classes such as `[^\n]` are drawn from
 * letters and digits, so that they do not invent the punctuation that makes a sample unlike any real line.
 */
function samples(re: RegExp, seed: number): string[] | null {
  const gen = generator(re)
  if (!gen)
    return null
  gen.max = 3
  gen.randInt = seeded(seed)
  for (const [from, to] of [[0, 47], [58, 64], [91, 96], [123, 65535]] as const)
    gen.defaultRange.subtract(from, to)
  const out: string[] = []
  for (let i = 0; i < SAMPLES; i++) {
    const s = gen.gen().replace(/ +/g, ' ')
    out.push(s, `a ${s} b`)
  }
  return out
}

/**
 * Patterns whose regex allows a form no real line takes, so their anchor leaves it out on purpose, each with
 * the form (a sample starting with it is not checked).
 */
const NARROWED: Record<string, RegExp> = {
  // An XMRig wallet after `-u` with no space, and `-a,algo`: the regex's optional space, never written.
  crypto_mining: /^(?:a )?(?:-u[48]|-a,|--algo(?:rithm)?,)/i,
}

describe('line-pattern anchors', () => {
  const patterns = RULE_MODULES.flatMap(mod => mod.patterns.map((p, i) => ({ rule: mod.meta.id, i, p })))

  it('reads every rule\'s patterns (randexp supports most of them)', () => {
    const unsupported = patterns.filter(({ p }) => generator(p.re) === null)
    expect(patterns.length).toBeGreaterThan(250)
    expect(unsupported.length).toBeLessThan(patterns.length / 5)
  })

  it('every string a pattern matches meets the pattern\'s anchor', () => {
    const misses: string[] = []
    for (const [n, { rule, i, p }] of patterns.entries()) {
      const anchor = new RegExp(anchorTokens(p.anchor).join('|'), 'i')
      const re = new RegExp(p.re.source, p.re.flags.replace('g', ''))
      const narrowed = NARROWED[rule]
      for (const s of samples(p.re, n + 1) ?? []) {
        if (re.test(s) && !anchor.test(s) && !narrowed?.test(s)) {
          misses.push(`${rule}[${i}] anchor ${p.anchor}: ${JSON.stringify(s.slice(0, 80))}`)
          break
        }
      }
    }
    expect(misses).toEqual([])
  })
})
