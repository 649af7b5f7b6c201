import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanSkill } from '../../src/scanner/index'
import { CORPUS, loadSkill } from './corpus'

// Full scanner output (every finding, column, excerpt, capability, suppression) on the labelled corpus: speed
// work must not change a single byte. A change of what the rules find is reviewed as this file's diff
// (`npx vitest run test/scanner/golden.test.ts -u` rewrites it; CI never does).

describe('scanner output on the labelled corpus', () => {
  it('is byte-identical to the recorded output', async () => {
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
    await expect(`${JSON.stringify(out, null, 1)}\n`).toMatchFileSnapshot('./golden.json')
  })
})
