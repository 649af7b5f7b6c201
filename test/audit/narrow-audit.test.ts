/**
 * A stand-in (src/narrow.ts) must change nothing but speed: the labelled scanner corpus, with characters
 * above U+00FF sown through every text, audits to the same diagnostics and the same manifest (texts
 * embedded) whether every text that can is read through a stand-in or none is.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SkillsEngine } from '../../src/audit/engine'
import { compareBytewise } from '../../src/core/diagnostics'
import { NarrowText, setNarrowing } from '../../src/narrow'
import { decodeUtf8 } from '../../src/utf8'
import { makeTree } from '../helpers'
import { CORPUS } from '../scanner/corpus'

/** Characters that may stand in: punctuation, symbols, letters of other scripts, a combining mark. */
const STANDS_IN = ['—', '–', '→', '─', '✅', '❌', '…', '≥', '’', '“', '”', '€', 'α', 'Ж', '中', '한', '\u0301', '٣']
/** Characters that may not: a text holding one is decoded as it is. */
const REFUSED = ['\u3000', '\u2009', '\u2028', '\u200B', '\u017F', '\u212A', '😀']
/** Whitespace, put for spaces (between the words of anchors such as `chat\s+history`); U+00A0 may stand in. */
const SPACES = ['\u3000', '\u2009', '\u202F', '\u00A0']

function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
    return seed / 0x7FFFFFFF
  }
}

/** `text` with a character from `pool` after about one in `every` characters (never inside a surrogate pair). */
function sow(text: string, pool: string[], every: number, random: () => number): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    out += text[i]
    const high = text.charCodeAt(i) >= 0xD800 && text.charCodeAt(i) <= 0xDBFF
    if (!high && random() < 1 / every)
      out += pool[Math.floor(random() * pool.length)]
  }
  return out
}

function comment(file: string): string {
  return /\.(?:m?[jt]sx?|cjs)$/.test(file) ? '//' : /\.(?:py|sh|bash)$/.test(file) ? '#' : ''
}

/** The corpus as one project (`skills/<group>-<rule>-<sample>`), every text sown; a few texts also get a refused character. */
function sownCorpus(): { root: string, texts: string[] } {
  const random = rng(7)
  const entries: Record<string, string | Buffer> = {}
  const texts: string[] = []
  const skills: Array<[string, string]> = []
  for (const group of ['malicious', 'benign']) {
    const base = path.join(CORPUS, group)
    for (const a of fs.readdirSync(base).sort(compareBytewise)) {
      const dirs
        = group === 'benign'
          ? [a]
          : fs
              .readdirSync(path.join(base, a))
              .sort(compareBytewise)
              .map(b => `${a}/${b}`)
      for (const d of dirs) skills.push([path.join(base, d), `${group}-${d.replace('/', '-')}`])
    }
  }
  for (const [dir, name] of skills) {
    for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort(compareBytewise)) {
      const abs = path.join(dir, rel)
      if (!fs.statSync(abs).isFile())
        continue
      const bytes = fs.readFileSync(abs)
      const file = rel.split(path.sep).join('/')
      if (bytes.subarray(0, 8000).includes(0) || !bytes.equals(Buffer.from(bytes.toString('utf8'), 'utf8'))) {
        entries[`skills/${name}/${file}`] = bytes
        continue
      }
      // Markdown is never read through a stand-in (src/walk.ts): a copy as .txt is, with the prose rules.
      const copies
        = file === 'SKILL.md'
          ? [file, 'resources/SKILL.txt']
          : /\.md$/i.test(file)
            ? [file, file.replace(/\.md$/i, '.txt')]
            : [file]
      for (const copy of copies) {
        // One text in ten also holds refused characters; three in ten have wide spaces for all of theirs.
        const kind = random()
        let text = sow(bytes.toString('utf8'), kind < 0.1 ? [...STANDS_IN, ...REFUSED] : STANDS_IN, 40, random)
        if (kind > 0.7)
          text = text.replace(/ /g, () => SPACES[Math.floor(random() * SPACES.length)]!)
        // Texts under 256 bytes are decoded by Node, never through a stand-in: a trailing line makes most long enough.
        if (!copy.endsWith('.md') && text.length < 400)
          text += `\n${comment(copy)} ${sow('padding so that this text is read the way long ones are. '.repeat(8), STANDS_IN, 20, random)}\n`
        entries[`skills/${name}/${copy}`] = text
        if (!copy.endsWith('.md'))
          texts.push(text)
      }
    }
  }
  // What the corpus lacks: a suppression with its reason, and a write request, that hold such characters.
  const extra = {
    'scripts/run.sh': `#!/bin/sh\n# Cleans the build — then uploads → the report.\n# skills-ignore-next-line dangerous_shell -- reviewed — the cache → only\nsudo rm -rf /tmp/build-cache\nwget https://example.com/report — final --post-data="ok=1"\n${'# padding — to read it the way long texts are\n'.repeat(8)}`,
    'examples/use.js': `// Runs the step — and reports →\nconst step = "a — b"\neval(step + " → done")\nconst Φ = Function\nconst Ψ = () => 1\nΨ()\n${'// padding — to read it the way long texts are\n'.repeat(8)}`,
  }
  for (const [file, text] of Object.entries(extra)) {
    entries[`skills/benign-extras/${file}`] = text
    texts.push(text)
  }
  entries['skills/benign-extras/SKILL.md']
    = '---\nname: benign-extras\ndescription: Cleans a build cache and uploads a report. Use after a build.\n---\nRun `scripts/run.sh`.\n'
  return { root: makeTree(entries, 'skills-narrow-'), texts }
}

async function run(root: string): Promise<{ diagnostics: string, manifest: string }> {
  const result = await new SkillsEngine({ root, lock: false, ci: false, workers: 0 }, { content: true }).audit()
  const complete = await result.complete()
  return { diagnostics: JSON.stringify(result.diagnostics, null, 1), manifest: complete.json }
}

afterEach(() => setNarrowing(true))

describe('reading texts through a stand-in', () => {
  it('audits the sown scanner corpus exactly as reading every text whole', async () => {
    const { root, texts } = sownCorpus()
    // The forced run reads most of the corpus's other texts (code, data) through a stand-in.
    const narrowed = texts.filter(t => decodeUtf8(Buffer.from(t, 'utf8'), 0, true) instanceof NarrowText).length
    expect(narrowed).toBeGreaterThan(100)

    setNarrowing(false)
    const whole = await run(root)
    setNarrowing(true)
    const stoodIn = await run(root)
    expect(JSON.parse(whole.diagnostics).length).toBeGreaterThan(500)
    expect(stoodIn.diagnostics).toBe(whole.diagnostics)
    expect(stoodIn.manifest).toBe(whole.manifest)
  }, 60_000)
})
