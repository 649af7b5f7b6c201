import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanSkill } from '../../src/scanner/index'
import { CORPUS, loadSkill } from './corpus'

// Full scanner output (every finding, column, excerpt, capability, suppression) on the labelled corpus,
// recorded with the scanner before the prefilter rewrite: speed work must not change a single byte.
const golden = JSON.parse(fs.readFileSync(new URL('./golden.json', import.meta.url), 'utf8')) as Record<string, unknown>

describe('scanner output on the labelled corpus', () => {
  it('is byte-identical to the recorded output', () => {
    const out: Record<string, unknown> = {}
    for (const group of ['malicious', 'benign']) {
      const base = path.join(CORPUS, group)
      for (const a of fs.readdirSync(base).sort()) {
        const dirs
          = group === 'benign'
            ? [a]
            : fs
                .readdirSync(path.join(base, a))
                .sort()
                .map(b => `${a}/${b}`)
        for (const d of dirs)
          out[`${group}/${d}`] = scanSkill(loadSkill(path.join(base, d)), { maxTextSize: 1024 * 1024 })
      }
    }
    expect(Object.keys(out)).toEqual(Object.keys(golden))
    for (const key of Object.keys(golden)) expect(JSON.stringify(out[key]), key).toBe(JSON.stringify(golden[key]))
  })
})
