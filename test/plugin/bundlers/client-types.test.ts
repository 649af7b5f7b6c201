import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builders } from './builds'
import { makeApp, OPTIONS, removeDir, REPO } from './helpers'

const run = promisify(execFile)

/** A browser-only tsconfig: no @types/node, every .d.ts checked. */
const COMPILER = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2022', 'DOM'],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  types: ['unplugin-skills/client'],
}

/** App code a user writes: names from the module go back into getSkill. */
const GOOD = `import manifest, { findSkills, getSkill, skills } from 'virtual:skills-manifest'
export const first = getSkill(skills[0]!.name)
export const fromManifest = getSkill(manifest.skills[0]!.name)
export async function find(): Promise<string | undefined> {
  const [hit] = await findSkills('pdf')
  const skill = hit && (await getSkill(hit.name)?.load())
  return skill?.name
}
`

/** The package as an app installs it: node_modules/unplugin-skills is this repo (client.d.ts, dist/). */
function project(dir: string, tsconfigs: Record<string, object>): void {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true })
  fs.symlinkSync(REPO, path.join(dir, 'node_modules/unplugin-skills'))
  for (const [file, config] of Object.entries(tsconfigs))
    fs.writeFileSync(path.join(dir, file), `${JSON.stringify(config, null, 2)}\n`)
}

/** `tsc -p` in a child process: its error lines, the project's own paths relative. */
async function tsc(dir: string, config = 'tsconfig.json'): Promise<string[]> {
  const bin = path.join(REPO, 'node_modules/typescript/bin/tsc')
  const out = await run(process.execPath, [bin, '-p', config], { cwd: dir }).then(
    r => r.stdout,
    (error: { stdout: string }) => error.stdout,
  )
  return out.split('\n').filter(line => line.includes('error TS'))
}

describe('client types', () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach(removeDir))

  it('check alone in a browser-only tsconfig with skipLibCheck off', async () => {
    const dir = makeApp('client-types')
    dirs.push(dir)
    project(dir, { 'tsconfig.json': { compilerOptions: COMPILER, include: ['src'] } })
    fs.mkdirSync(path.join(dir, 'src'))
    fs.writeFileSync(path.join(dir, 'src/main.ts'), GOOD)
    expect(await tsc(dir)).toEqual([])
  })
})

describe('dts: true in a Vite-style project (tsconfig.app.json includes src)', () => {
  let dir: string
  beforeAll(async () => {
    dir = makeApp('dts-vite')
    project(dir, {
      'tsconfig.json': { files: [], references: [{ path: './tsconfig.app.json' }, { path: './tsconfig.node.json' }] },
      'tsconfig.app.json': { compilerOptions: COMPILER, include: ['src'] },
      'tsconfig.node.json': { compilerOptions: { ...COMPILER, types: [] }, include: ['vite.config.ts'] },
    })
    fs.mkdirSync(path.join(dir, 'src'))
    fs.writeFileSync(path.join(dir, 'src/main.ts'), GOOD)
    await builders.vite(dir, { ...OPTIONS, lock: false, dts: true })
  })
  afterAll(() => removeDir(dir))

  it('writes src/skills.d.ts, where the app tsconfig looks', () => {
    expect(fs.existsSync(path.join(dir, 'src/skills.d.ts'))).toBe(true)
    expect(fs.existsSync(path.join(dir, 'skills.d.ts'))).toBe(false)
  })

  it('types names from skills and findSkills with the name union: they compile, a wrong name fails', async () => {
    expect(await tsc(dir, 'tsconfig.app.json')).toEqual([])
    fs.writeFileSync(
      path.join(dir, 'src/bad.ts'),
      `import { getSkill } from 'virtual:skills-manifest'\nexport const bad = getSkill('pdf-tool')\n`,
    )
    const errors = await tsc(dir, 'tsconfig.app.json')
    fs.rmSync(path.join(dir, 'src/bad.ts'))
    expect(errors).toEqual([
      `src/bad.ts(2,29): error TS2345: Argument of type '"pdf-tool"' is not assignable to parameter of type `
      + `'keyof SkillNames'.`,
    ])
  })

  it('honours an explicit dts path', async () => {
    await builders.vite(dir, { ...OPTIONS, lock: false, dts: 'types/skills.d.ts' })
    expect(fs.readFileSync(path.join(dir, 'types/skills.d.ts'), 'utf8')).toContain('"pdf-tools": true')
  })
})
