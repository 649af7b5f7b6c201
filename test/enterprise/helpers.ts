import type { Options, ResolvedOptions } from '../../src/core/options'
import type { Capability, Diagnostic, ScanResult, SkillFile, SkillSource } from '../../src/core/types'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compareBytewise } from '../../src/core/diagnostics'
import { parseFrontmatter } from '../../src/core/frontmatter'
import { resolveOptions } from '../../src/core/options'

export const FIXTURES = fileURLToPath(new URL('../fixtures/enterprise', import.meta.url))

const temps: string[] = []

/** Removes every temp dir made by `makeSkill`; call from `afterAll`. */
export function cleanupSkills(): void {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

export interface MakeSkillOptions {
  /** Parsed frontmatter, given directly (default: `{ name, description }`). */
  frontmatter?: Record<string, unknown>
  name?: string
  locate?: SkillSource['locate']
}

/**
 * Writes `{ 'SKILL.md': '...', 'references/a.md': '...' }` under a fresh temp dir as
 * `skills/<name>/...`, then reads it back into a SkillSource like the engine's discovery would.
 */
export function makeSkill(files: Record<string, string | Uint8Array>, options: MakeSkillOptions = {}): SkillSource {
  const name = options.name ?? 'demo-skill'
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unplugin-skills-enterprise-'))
  temps.push(root)
  const dir = path.join(root, 'skills', name)
  for (const [rel, content] of Object.entries({ 'SKILL.md': `---\nname: ${name}\n---\n`, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), content)
  }
  return loadSkill(dir, `skills/${name}`, options)
}

/** Reads a skill directory from disk (a fixture or a temp dir) into a SkillSource. */
export function loadSkill(dir: string, relDir: string, options: MakeSkillOptions = {}): SkillSource {
  const files: SkillFile[] = []
  const walk = (abs: string, rel: string): void => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const childAbs = path.join(abs, entry.name)
      const childRel = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory())
        walk(childAbs, childRel)
      else if (entry.isFile())
        files.push(readFile(childAbs, childRel))
    }
  }
  walk(dir, '')
  files.sort((a, b) => compareBytewise(a.path, b.path))
  const skillMd = files.find(f => f.path === 'SKILL.md')
  if (!skillMd)
    throw new Error(`no SKILL.md in ${dir}`)
  const text = skillMd.text ?? ''
  const close = /^---\n[\s\S]*?\n---\n/.exec(text)
  const name = options.name ?? path.basename(dir)
  return {
    name,
    dirName: path.basename(dir),
    dir,
    relDir,
    source: relDir,
    files,
    skillMd,
    frontmatter: options.frontmatter ?? { name, description: 'A skill for tests.' },
    frontmatterOk: true,
    body: close ? text.slice(close[0].length) : text,
    bodyLine: close ? close[0].split('\n').length : 1,
    locate: options.locate ?? (() => null),
  }
}

function readFile(absPath: string, rel: string): SkillFile {
  const bytes = new Uint8Array(fs.readFileSync(absPath))
  let text: string | null = null
  if (!bytes.includes(0)) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
    }
    catch {
      text = null
    }
  }
  return {
    path: rel,
    absPath,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    text,
  }
}

export function options(overrides: Options = {}): ResolvedOptions {
  return resolveOptions({ root: os.tmpdir(), ...overrides }, {})
}

export function scanWith(detected: Capability[], declared: Capability[] = []): ScanResult {
  return { diagnostics: [], capabilities: { declared, detected }, suppressions: [] }
}

/** The fields tests compare, in a compact form: `code severity file:line:column`. */
export function brief(list: Diagnostic[]): string[] {
  return list.map(d => `${d.code} ${d.severity} ${d.file}:${d.line}:${d.column}`)
}

/** A fixture skill of test/fixtures/enterprise/skills, its frontmatter parsed by the engine's parser. */
export function loadFixture(name: string): SkillSource {
  const dir = path.join(FIXTURES, 'skills', name)
  const skill = loadSkill(dir, `skills/${name}`)
  const parsed = parseFrontmatter(skill.skillMd.text ?? '')
  return {
    ...skill,
    name: typeof parsed.data?.name === 'string' ? parsed.data.name : name,
    frontmatter: parsed.data ?? {},
    frontmatterOk: parsed.data !== null,
    body: parsed.body,
    bodyLine: parsed.bodyLine,
    locate: parsed.locate,
  }
}
