/**
 * Plugin figures on a synthetic corpus (bench/corpus.ts): re-audit after one edited file, the cost of a
 * rebuild when nothing changed, the entry module vs the lazy per-skill modules, and a Vite build with
 * and without the plugin. `npm run bench` calls `runPluginBench`; `tsx bench/plugin.ts [dir]` runs it alone.
 */
import { Buffer } from 'node:buffer'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import skills from '../plugins/vite'
import { indexModule, mainModule, skillModule } from '../src/plugin/codegen'
import { createSkillsContext } from '../src/plugin/context'
import { ALIAS_ID, VIRTUAL_ID } from '../src/plugin/ids'
import { generateCorpus } from './corpus'

export interface PluginBenchOptions {
  /** A corpus from `generateCorpus` (a folder holding `skills/`); generated there when missing. */
  corpusDir: string
  /** Edits measured for the re-audit median. @default 9 */
  edits?: number
  /** Also run the two Vite builds (the slow part). @default true */
  vite?: boolean
}

const ms = (n: number): string => `${n.toFixed(n < 10 ? 1 : 0)} ms`
const kb = (n: number): string => `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now()
  const value = await fn()
  return [performance.now() - start, value]
}

/** Edits `file`, measures `measure`, and always puts the original bytes back (the corpus is shared). */
async function withEdit<T>(file: string, edit: (text: string) => string, measure: () => Promise<T>): Promise<T> {
  const original = fs.readFileSync(file)
  try {
    fs.writeFileSync(file, edit(original.toString('utf8')))
    return await measure()
  }
  finally {
    fs.writeFileSync(file, original)
  }
}

export async function runPluginBench({
  corpusDir,
  edits = 9,
  vite = true,
}: PluginBenchOptions): Promise<Record<string, string>> {
  if (!fs.existsSync(path.join(corpusDir, 'skills')))
    generateCorpus(corpusDir, { skills: 1000 })
  // lock off: the corpus may have no lock, and the bench must not write one into a shared corpus.
  // agentskills: the synthetic frontmatter doesn't satisfy every enterprise enum, and a failing audit fails the build.
  // No persistent cache: these are the figures of a first build.
  const options = { root: corpusDir, lock: false as const, profile: 'agentskills' as const, cache: false }
  const figures: Record<string, string> = {}

  const ctx = createSkillsContext(options)
  const [cold, first] = await time(() => ctx.audit())
  const names = first.manifest.skills.map(s => s.name)
  figures['skills / files audited'] = `${first.stats.skills} / ${first.stats.files}`
  figures['audit result'] = first.ok ? 'ok' : `${first.diagnostics.filter(d => d.severity === 'error').length} errors`
  figures['cold audit (first buildStart)'] = ms(cold)

  // The content-keyed cache: one edited file re-reads only its skill.
  const edited: number[] = []
  const reused: number[] = []
  for (let i = 0; i < edits; i++) {
    const file = path.join(
      corpusDir,
      first.manifest.skills[(i * 97) % names.length].path,
      i % 2 ? 'SKILL.md' : 'references/guide.md',
    )
    const [took, audit] = await withEdit(
      file,
      text => `${text}\nEdited for the benchmark (${i}).\n`,
      async () => {
        ctx.markChanged(file)
        return time(() => ctx.audit())
      },
    )
    edited.push(took)
    reused.push(audit.stats.reused)
    ctx.markChanged(file)
    await ctx.audit()
  }
  figures['re-audit after markChanged(1 file), median'] = `${ms(median(edited))} (target <= 50 ms)`
  figures['skills reused on that re-audit'] = `${Math.min(...reused)} of ${names.length}`

  const [idle] = await time(() => ctx.audit())
  figures['rebuild, nothing changed (webpack/Rollup buildStart)'] = ms(idle)
  ctx.markAllChanged()
  const [walk] = await time(() => ctx.audit())
  figures['rebuild, full stat walk (esbuild buildStart)'] = ms(walk)

  // What the entry module carries vs the per-skill modules loaded on demand.
  const audit = await ctx.audit()
  const entry = Buffer.byteLength(mainModule(audit.manifest))
  const lazy
    = audit.manifest.skills.reduce((n, s) => n + Buffer.byteLength(skillModule(s)), 0)
      + Buffer.byteLength(indexModule(audit.manifest))
  figures['virtual entry module / all modules']
    = `${kb(entry)} / ${kb(entry + lazy)} (${((100 * entry) / (entry + lazy)).toFixed(1)}%)`

  if (vite) {
    try {
      Object.assign(figures, await viteBuilds(corpusDir, options.profile))
    }
    catch (error) {
      // Keep the figures above: a broken build is reported, not thrown.
      figures['vite builds'] = `failed: ${
        String((error as Error).message)
          .split('\n')
          .find(l => l.trim() && !l.startsWith('Build failed')) ?? ''
      }`
    }
  }
  return figures
}

/** The same app built by Vite with the plugin, and with a stub serving an empty module instead. */
async function viteBuilds(corpusDir: string, profile: 'agentskills'): Promise<Record<string, string>> {
  const { build } = await import('vite')
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-bench-'))
  try {
    fs.writeFileSync(
      path.join(app, 'main.js'),
      [
        `import manifest, { getSkill } from '${VIRTUAL_ID}'`,
        'export const count = manifest.skills.length',
        'export const load = name => getSkill(name)?.load()',
        '',
      ].join('\n'),
    )
    const stub = {
      name: 'stub-skills',
      resolveId: (id: string) => (id === VIRTUAL_ID || id.startsWith(ALIAS_ID) ? '\0stub' : null),
      load: (id: string) =>
        id === '\0stub' ? 'export default { skills: [] }\nexport const getSkill = () => undefined\n' : null,
    }
    const run = async (label: string, plugin: unknown): Promise<[number, Map<string, number>]> => {
      const outDir = path.join(app, label)
      const [took] = await time(() =>
        build({
          configFile: false,
          root: app,
          logLevel: 'silent',
          plugins: [plugin as never],
          build: { outDir, minify: false, lib: { entry: 'main.js', formats: ['es'], fileName: 'main' } },
        }),
      )
      const sizes = new Map<string, number>()
      for (const file of fs.readdirSync(outDir)) {
        if (file.endsWith('.mjs') || file.endsWith('.js'))
          sizes.set(file, fs.statSync(path.join(outDir, file)).size)
      }
      return [took, sizes]
    }
    const [without] = await run('without', stub)
    const [withPlugin, sizes] = await run(
      'with',
      skills({ root: app, roots: [path.join(corpusDir, 'skills')], lock: false, profile, cache: false }),
    )
    const total = [...sizes.values()].reduce((a, b) => a + b, 0)
    const entry = sizes.get('main.mjs') ?? sizes.get('main.js') ?? 0
    return {
      'vite build, plugin disabled (stub module)': ms(without),
      'vite build with the plugin (cold audit included)': ms(withPlugin),
      'vite entry chunk / all chunks':
        `${kb(entry)} / ${kb(total)} in ${sizes.size} chunks (${((100 * entry) / total).toFixed(1)}%)`,
    }
  }
  finally {
    fs.rmSync(app, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '.corpus/s1000')
  for (const [name, value] of Object.entries(await runPluginBench({ corpusDir: dir })))
    console.log(`${name.padEnd(56)} ${value}`)
}
