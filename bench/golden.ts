/**
 * Golden outputs: what the CLI prints and writes for a set of skill trees, so that a restructuring can
 * prove it changed nothing. Each tree is copied into a temp project (`skills/`), then `check --format json`
 * (both profiles), `lock` and `build` run there with the built CLI (`dist/cli.mjs`).
 *
 *   npx tsx bench/golden.ts --out DIR [PACK_DIR ...]
 *   diff -r BEFORE AFTER
 *
 * The trees: the playground, the scanner fixtures (benign and malicious), the enterprise fixture, a
 * 100-skill synthetic corpus, and every PACK_DIR given (a folder of skill folders, e.g. a local copy of a
 * public pack; never committed).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { parseArgs } from 'node:util'
import { generateCorpus } from './corpus'

const here = path.dirname(new URL(import.meta.url).pathname)
const repo = path.resolve(here, '..')
const cli = path.join(repo, 'dist/cli.mjs')

const { values, positionals } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true })
if (!values.out) {
  process.stderr.write('usage: tsx bench/golden.ts --out DIR [PACK_DIR ...]\n')
  process.exit(2)
}
const out = path.resolve(values.out)
fs.mkdirSync(out, { recursive: true })

const corpusDir = path.join(repo, 'bench/.corpus/golden-100')
generateCorpus(corpusDir, { skills: 100, seed: 7 })

const trees: [name: string, dir: string][] = [
  ['playground', path.join(repo, 'playground/skills')],
  ['scanner-benign', path.join(repo, 'test/fixtures/scanner/benign')],
  ['scanner-malicious', path.join(repo, 'test/fixtures/scanner/malicious')],
  ['enterprise', path.join(repo, 'test/fixtures/enterprise/skills')],
  ['corpus-100', corpusDir],
  ...positionals.map(p => [path.basename(path.resolve(p)), path.resolve(p)] as [string, string]),
]

function run(cwd: string, args: string[]): string {
  const r = spawnSync(process.execPath, [cli, ...args, '--cwd', cwd, '--no-color'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
    maxBuffer: 1 << 30,
  })
  return `exit ${r.status}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`
}

for (const [name, dir] of trees) {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-'))
  fs.cpSync(dir, path.join(project, 'skills'), { recursive: true })
  const target = path.join(out, name)
  fs.mkdirSync(target, { recursive: true })
  const write = (file: string, text: string): void => fs.writeFileSync(path.join(target, file), text)
  write('check-enterprise.txt', run(project, ['check', '--format', 'json']))
  write('check-text.txt', run(project, ['check']))
  write('check-agentskills.txt', run(project, ['check', '--format', 'json', '--profile', 'agentskills']))
  write('lock.txt', run(project, ['lock', '--profile', 'agentskills']))
  const lock = path.join(project, '.manifest.lock')
  write('manifest.lock', fs.existsSync(lock) ? fs.readFileSync(lock, 'utf8') : '(none)\n')
  write('build.txt', run(project, ['build', '--profile', 'agentskills', '--out', 'out.json']))
  const built = path.join(project, 'out.json')
  write('skills_manifest.json', fs.existsSync(built) ? fs.readFileSync(built, 'utf8') : '(none)\n')
  fs.rmSync(project, { recursive: true, force: true })
  process.stdout.write(`${name}: ${fs.readdirSync(target).length} outputs\n`)
}
