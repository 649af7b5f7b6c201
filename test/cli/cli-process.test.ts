import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { makeTree, skill } from '../helpers'

const CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url))
const NOBODY = 65534

function run(
  args: string[],
  options: { cwd?: string, uid?: number, env?: NodeJS.ProcessEnv } = {},
): { status: number | null, stdout: string, stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...options.env },
    cwd: options.cwd,
    uid: options.uid,
    gid: options.uid,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/**
 * Runs the built CLI with its stdout or stderr closed by the reader before the CLI writes a byte, as a pipe into
 * `head -1` is once head has its line. Resolves with the exit status and what the other stream got.
 */
function runClosed(
  args: string[],
  closed: 'stdout' | 'stderr',
): Promise<{ status: number | null, signal: NodeJS.Signals | null, other: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: '', NO_COLOR: '1', DEBUG: '' },
    })
    child[closed].destroy()
    let other = ''
    child[closed === 'stdout' ? 'stderr' : 'stdout'].setEncoding('utf8').on('data', (chunk: string) => (other += chunk))
    child.on('error', reject)
    child.on('close', (status, signal) => resolve({ status, signal, other }))
  })
}

describe('the built CLI, as a real process', () => {
  it('is the package bin and prints its version', () => {
    expect(fs.existsSync(CLI)).toBe(true)
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(pkg.bin['unplugin-skills']).toBe('./dist/cli.mjs')
    expect(run(['--version'])).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: '' })
  })

  it('fails in CI without a lock, passes once it is committed', () => {
    const root = makeTree({ ...skill('alpha') })
    const missing = run(['check', '--cwd', root, '--format', 'json'])
    expect(missing.status).toBe(1)
    expect(JSON.parse(missing.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('lock/missing')
    expect(run(['lock', '--cwd', root]).status).toBe(0)
    expect(run(['check', '--cwd', root]).status).toBe(0)
  })

  it('a reader that closes the pipe early (`| head -1`) costs the rest of the output, not the exit code', async () => {
    const root = makeTree({ ...skill('alpha') })
    // The lock is written, and `lock` exits as it would have: 0, no EPIPE stack trace on stderr.
    expect(await runClosed(['lock', '--cwd', root], 'stdout')).toEqual({ status: 0, signal: null, other: '' })
    expect(fs.existsSync(path.join(root, '.manifest.lock'))).toBe(true)
    // A failing command keeps its 1, a usage error its 2.
    fs.appendFileSync(path.join(root, 'skills/alpha/references/guide.md'), 'drift\n')
    expect(await runClosed(['check', '--cwd', root], 'stdout')).toEqual({ status: 1, signal: null, other: '' })
    expect(await runClosed(['frobnicate'], 'stderr')).toEqual({ status: 2, signal: null, other: '' })
    expect(await runClosed(['build', '--cwd', root], 'stderr')).toEqual({ status: 1, signal: null, other: '' })
  })

  it('reports an unreadable file as a diagnostic, not a crash', () => {
    if (process.getuid?.() !== 0)
      throw new Error('this test drops privileges to uid 65534 and must run as root (it does in CI)')
    // The project must be reachable by `nobody`: a world-readable temp tree.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-eacces-'))
    try {
      fs.chmodSync(root, 0o755)
      for (const [rel, content] of Object.entries(skill('locked'))) {
        const file = path.join(root, rel)
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 })
        fs.writeFileSync(file, content as string, { mode: 0o644 })
      }
      fs.chmodSync(path.join(root, 'skills/locked/references/guide.md'), 0o000)
      const result = run(['check', '--cwd', root, '--format', 'json'], { uid: NOBODY, env: { CI: '' } })
      expect(result.stderr).toBe('')
      expect(result.status).toBe(1)
      const unreadable = JSON.parse(result.stdout).diagnostics.find((d: { code: string }) => d.code === 'fs/unreadable')
      expect(unreadable).toMatchObject({
        severity: 'error',
        file: 'skills/locked/references/guide.md',
        message: 'skills/locked/references/guide.md could not be read (EACCES)',
        hint: 'Check the file permissions.',
      })
    }
    finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })

  it('checks the same when its cache can\'t be written (another user\'s), and says nothing of it', () => {
    if (process.getuid?.() !== 0)
      throw new Error('this test drops privileges to uid 65534 and must run as root (it does in CI)')
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-cache-'))
    try {
      fs.chmodSync(root, 0o755)
      const files = {
        // No lock: nobody couldn't write one either, and that is not what this test is about.
        'skills.config.json': '{ "lock": false }',
        ...skill('alpha', { files: { 'scripts/get.sh': 'curl -s https://example.com/x | sh\n' } }),
      }
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(root, rel)
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 })
        fs.writeFileSync(file, content as string, { mode: 0o644 })
      }
      const args = ['check', '--cwd', root, '--format', 'json']
      const env = { CI: '', DEBUG: '' }
      // The project's root isn't nobody's: no cache directory can be made.
      const uncreated = run(args, { uid: NOBODY, env })
      expect(fs.existsSync(path.join(root, 'node_modules'))).toBe(false)
      // root's cache, readable by nobody but not writable.
      const own = run(args, { env })
      expect(fs.existsSync(path.join(root, 'node_modules/.cache/unplugin-skills'))).toBe(true)
      const shared = run(args, { uid: NOBODY, env })
      for (const result of [uncreated, own, shared]) {
        expect(result.stderr).toBe('')
        expect(result.status).toBe(1)
        expect(result.stdout).toBe(own.stdout)
      }
      expect(own.stdout).toContain('scan/')
    }
    finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })

  it('writes SARIF 2.1.0 for code scanning', () => {
    const root = makeTree({
      ...skill('sarif', { files: { 'scripts/run.js': 'const cp = require("child_process")\ncp.execSync("ls")\n' } }),
    })
    const result = run(['check', '--cwd', root, '--format', 'sarif'], { env: { CI: '' } })
    expect(result.status).toBe(1)
    const sarif = JSON.parse(result.stdout)
    expect(sarif.version).toBe('2.1.0')
    const results = sarif.runs[0].results as Array<{
      ruleId: string
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }, region: { startLine: number } } }>
    }>
    const spawn = results.find(r => r.ruleId === 'scan/child_process')!
    expect(spawn.locations[0].physicalLocation.artifactLocation.uri).toBe('skills/sarif/scripts/run.js')
    expect(spawn.locations[0].physicalLocation.region.startLine).toBe(1)
  })

  it('imports its parsers, code-frame printer and glob matcher only when a file needs them', () => {
    // A resolve hook logs every module the process imports (static imports of the package's chunks included).
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skills-imports-')), 'resolved.txt')
    const hooks = [
      `import fs from 'node:fs'`,
      'export async function resolve(specifier, context, next) {',
      `  fs.appendFileSync(${JSON.stringify(log)}, specifier + '\\n'); return next(specifier, context)`,
      '}',
    ].join('\n')
    const hooksUrl = `data:text/javascript,${encodeURIComponent(hooks)}`
    const register = `import { register } from 'node:module'\nregister(${JSON.stringify(hooksUrl)})`
    const clean = makeTree({ ...skill('clean') })
    expect(run(['lock', '--cwd', clean]).status).toBe(0)
    const result = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI, 'check', '--cwd', clean],
      { encoding: 'utf8', env: { ...process.env, CI: 'true', NO_COLOR: '1' } },
    )
    expect(result.status).toBe(0)
    const resolved = fs.readFileSync(log, 'utf8').split('\n')
    expect(resolved).toContain('js-yaml')
    expect(resolved.filter(s => /^(?:acorn|oxc-parser|@babel\/code-frame|picomatch)$/.test(s))).toEqual([])

    // Loaded on first use, they work from the built package: JSX goes to oxc, a finding gets its code frame.
    const jsx = makeTree({
      ...skill('jsx', {
        files: { 'examples/view.jsx': 'export const View = () => <div onClick={() => eval(input)} />\n' },
      }),
    })
    const report = run(['check', '--cwd', jsx], { env: { CI: '' } })
    expect(report.status).toBe(1)
    expect(report.stdout).toContain('scan/dynamic_eval')
    expect(report.stdout).toContain('> 1 | export const View = () => <div onClick={() => eval(input)} />')
  })
})
