import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import path from 'node:path'
import { LOCKFILE_VERSION } from '../src/audit/lockfile'

/**
 * A deterministic synthetic skill corpus for benchmarks: `skills` enterprise-profile skills of ~10 files
 * each, 1-64 KB per file (SKILL.md 1-8 KB, like real ones), one binary resource per skill. Same seed,
 * same bytes. Generated once per (skills, seed, unicode) and reused: a `.complete` marker guards
 * half-written trees. ASCII unless `unicode`, which adds characters above U+00FF at the rate real skills
 * hold them (`WIDE`).
 */
export interface CorpusInfo {
  dir: string
  skills: number
  files: number
  bytes: number
  /** Every file path (absolute), for the read+hash floor. */
  paths: string[]
}

const WORDS = [
  'the a to of and for with when use run check build deploy release verify parse validate schema table',
  'column index query cache retry backoff limit token request response header status error warning log',
  'trace metric alert incident review ticket invoice ledger payment refund customer account policy',
  'compliance audit report dashboard chart export import file folder path config option flag default',
  'value type string number list map key secret rotate encrypt sign hash digest lock manifest skill',
  'agent prompt tool step guide example reference scenario expected outcome threshold score latency',
  'throughput memory budget queue worker job schedule cron batch stream event message topic partition',
  'consumer producer cluster node pod service gateway route endpoint client server session cookie auth',
  'user role permission group team owner reviewer approver draft publish archive restore backup',
  'snapshot migrate rollback upgrade patch version semver changelog commit branch merge tag pipeline',
  'stage artifact container image registry scan vulnerability dependency license notice',
].join(' ').split(' ')

function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Characters above U+00FF that real skills use, by frequency: in anthropics/skills, obra/superpowers and
 * vercel-labs/agent-skills, 1.7 per 1,000 characters (1.4 in this pool), most of them em-dashes, arrows,
 * box drawing and check marks, and 60-81% of their text is in files that hold one (JavaScript strings of
 * two-byte units).
 */
const WIDE = ['—', '—', '—', '—', '—', '—', '—', '—', '—', '—', '—', '—', '→', '→', '─', '✅', '❌', '…', '–', '≥']

/** A pool of prose built once; files are slices of it, so generation costs I/O, not string building. */
function prosePool(random: () => number, size: number, unicode: (() => number) | null): string {
  const parts: string[] = []
  let length = 0
  while (length < size) {
    const words = 8 + Math.floor(random() * 14)
    let sentence = ''
    for (let i = 0; i < words; i++) sentence += `${WORDS[Math.floor(random() * WORDS.length)]} `
    // About one line in six gets a character above U+00FF after a word (drawn from a stream of its own:
    // the words are the same with and without).
    if (unicode && unicode() < 0.16) {
      const at = sentence.indexOf(' ', Math.floor(unicode() * (sentence.length - 1)))
      if (at > 0)
        sentence = `${sentence.slice(0, at)} ${WIDE[Math.floor(unicode() * WIDE.length)]}${sentence.slice(at)}`
    }
    const line = `${sentence.trim()}.\n`
    parts.push(random() < 0.08 ? `\n## ${line}\n` : line)
    length += line.length
  }
  return parts.join('')
}

export function generateCorpus(
  dir: string,
  { skills = 1000, seed = 42, unicode = false }: { skills?: number, seed?: number, unicode?: boolean } = {},
): CorpusInfo {
  const marker = path.join(dir, '.complete')
  const stamp = `${skills}:${seed}${unicode ? ':unicode' : ''}`
  const complete = fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === stamp
  if (!complete)
    fs.rmSync(dir, { recursive: true, force: true })
  // A lock of an older lockfileVersion is written again by the bench's first audit.
  const lock = path.join(dir, '.manifest.lock')
  const current = `"lockfileVersion": ${LOCKFILE_VERSION}`
  if (complete && fs.existsSync(lock) && !fs.readFileSync(lock, 'utf8').includes(current))
    fs.rmSync(lock)
  const random = rng(seed)
  const pool = prosePool(random, 256 * 1024, unicode ? rng(seed + 1) : null)
  const binary = Buffer.alloc(128 * 1024)
  for (let i = 0; i < binary.length; i++) binary[i] = Math.floor(random() * 256)
  const slice = (min: number, max: number): string => {
    const size = min + Math.floor(random() * (max - min))
    const start = Math.floor(random() * (pool.length - size))
    return pool.slice(start, start + size)
  }
  const info: CorpusInfo = { dir, skills, files: 0, bytes: 0, paths: [] }
  const root = path.join(dir, 'skills')
  for (let i = 0; i < skills; i++) {
    const name = `skill-${String(i).padStart(5, '0')}`
    const skillDir = path.join(root, name)
    const domain = WORDS[i % 37]
    const verb = WORDS[i % WORDS.length]
    const noun = WORDS[(i * 7) % WORDS.length]
    const files: Record<string, string | Buffer> = {
      'SKILL.md': [
        '---',
        `name: ${name}`,
        `description: Synthetic skill ${i} to ${verb} ${noun} records for benchmarks.`,
        `version: 1.${i % 10}.0`,
        `domain: ${domain}`,
        `category: ${WORDS[(i * 3) % 41]}`,
        `tags: [${WORDS[i % 13]}, ${WORDS[(i + 5) % 17]}]`,
        'triggers:',
        `  - "${WORDS[i % 11]} the ${WORDS[(i + 2) % 19]}"`,
        '---',
        `# Skill ${i}`,
        '',
        'See [the guide](references/guide.md).',
        '',
        slice(1024, 8 * 1024),
      ].join('\n'),
      'references/guide.md': `# Guide\n\n${slice(1024, 64 * 1024)}`,
      'references/api.md': `# API\n\n${slice(1024, 64 * 1024)}`,
      'examples/example.md': `# Example\n\n${slice(1024, 64 * 1024)}`,
      'examples/usage.js': jsFile(slice(1024, 64 * 1024)),
      'scripts/setup.sh': `#!/bin/sh\nset -eu\n${slice(1024, 64 * 1024)
        .split('\n')
        .map(l => `# ${l}`)
        .join('\n')}\necho done\n`,
      'scripts/helper.py': `"""Helper."""\n${slice(1024, 64 * 1024)
        .split('\n')
        .map(l => `# ${l}`)
        .join('\n')}\nprint("ok")\n`,
      'resources/data.json': `${JSON.stringify({ name, rows: slice(1024, 64 * 1024).split('\n') })}\n`,
      'resources/blob.bin': binarySlice(binary, random),
      'scenarios/basic.md': [
        '---',
        `prompt: "${WORDS[i % 23]} the ${WORDS[(i + 1) % 29]}"`,
        'executes: false',
        `expected_skills: [${name}]`,
        'threshold: 0.1',
        'metadata: {}',
        '---',
        slice(1024, 16 * 1024),
      ].join('\n'),
    }
    for (const [rel, content] of Object.entries(files)) {
      const file = path.join(skillDir, rel)
      if (!complete) {
        fs.mkdirSync(path.dirname(file), { recursive: true })
        fs.writeFileSync(file, content)
      }
      info.files++
      info.bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.length
      info.paths.push(file)
    }
  }
  if (!complete)
    fs.writeFileSync(marker, stamp)
  return info
}

/** Benign JavaScript of about the size of `text`: functions over data, no I/O. */
function jsFile(text: string): string {
  const lines = text.split('\n').filter(Boolean)
  const body = lines
    .map(
      (l, i) =>
        `export function step${i}(input) {\n  // ${l}\n`
        + `  return input.map((value) => value + ${i}).filter(Boolean)\n}\n`,
    )
    .join('\n')
  return `// Synthetic example\n${body}`
}

function binarySlice(pool: Buffer, random: () => number): Buffer {
  const size = 1024 + Math.floor(random() * 63 * 1024)
  const start = Math.floor(random() * (pool.length - size))
  return pool.subarray(start, start + size)
}
