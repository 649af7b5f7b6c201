import type { SkillsManifest } from '../../src/core/types'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { afterEach, describe, expect, it } from 'vitest'
import { dtsTarget, generateDts } from '../../src/plugin/dts'

const REPO = path.resolve(import.meta.dirname, '../..')

/**
 * What `tsc --noEmit -p <dir>` reports, TypeScript reading the project's tsconfig (its `extends` included),
 * with the package's types mapped to their source: the files it compiles (relative) and the errors.
 */
function tsc(dir: string): { files: string[], errors: string[] } {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, 'tsconfig.json'),
    {
      noEmit: true,
      skipLibCheck: true,
      types: [],
      paths: { 'unplugin-skills/runtime': [path.join(REPO, 'src/runtime/index.ts')] },
    },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: d => expect.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  )!
  expect(parsed.errors).toEqual([])
  const program = ts.createProgram(parsed.fileNames, parsed.options)
  const rel = (file: string): string => path.relative(dir, file).split(path.sep).join('/')
  const files = parsed.fileNames.map(rel)
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter(d => d.file && !rel(d.file.fileName).startsWith('..'))
    .map(d => `${rel(d.file!.fileName)}:${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: TS${d.code}`)
  return { files, errors }
}

// TypeScript's `${configDir}` template, not a JavaScript one.
const CONFIG_DIR = '$' + '{configDir}'

describe('dtsTarget: where `dts: true` writes skills.d.ts', () => {
  let dir: string
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  function project(files: Record<string, string>, folders: string[] = []): string {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-dts-target-'))
    for (const folder of folders) fs.mkdirSync(path.join(dir, folder), { recursive: true })
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text)
    return dir
  }
  const at = (file: string, included = true): { file: string, included: boolean } => ({
    file: path.join(dir, file),
    included,
  })

  it('the root without a tsconfig, or when the tsconfig includes root files', () => {
    expect(dtsTarget(project({}))).toEqual(at('skills.d.ts'))
    expect(dtsTarget(project({ 'tsconfig.json': '{ "compilerOptions": {} }' }))).toEqual(at('skills.d.ts'))
    expect(dtsTarget(project({ 'tsconfig.json': '{ "include": ["src", "*.ts"] }' }, ['src']))).toEqual(
      at('skills.d.ts'),
    )
  })

  it('the first included folder: `src`, `src/**/*.ts`, through references, with comments and trailing commas', () => {
    expect(dtsTarget(project({ 'tsconfig.json': '{ "include": ["src"] }' }, ['src']))).toEqual(at('src/skills.d.ts'))
    expect(dtsTarget(project({ 'tsconfig.json': '{ "include": ["app/**/*.ts"] }' }, ['app']))).toEqual(
      at('app/skills.d.ts'),
    )
    const vite = {
      'tsconfig.json': '{\n  // solution\n  "files": [],\n  "references": [{ "path": "./tsconfig.app.json" },],\n}\n',
      'tsconfig.app.json': '{ /* app */ "compilerOptions": { "paths": { "@/*": ["./src/*"] } }, "include": ["src"] }',
    }
    expect(dtsTarget(project(vite, ['src']))).toEqual(at('src/skills.d.ts'))
  })

  it('the root, flagged as not included, when no included folder exists or matches .d.ts files', () => {
    expect(dtsTarget(project({ 'tsconfig.json': '{ "include": ["src"] }' }))).toEqual(at('skills.d.ts', false))
    expect(dtsTarget(project({ 'tsconfig.json': '{ "include": ["src/**/*.vue"] }' }, ['src']))).toEqual(
      at('skills.d.ts', false),
    )
  })

  it('follows `extends`: the nearest `include` or `files`, relative to the config that declares it', () => {
    // The report's case: a bare `extends`, the base's `include` the effective one.
    const base = '{ "compilerOptions": { "strict": true }, "include": ["src"] }'
    const extendsBase = { 'tsconfig.json': '{ "extends": "./tsconfig.base.json" }', 'tsconfig.base.json': base }
    expect(dtsTarget(project(extendsBase, ['src']))).toEqual(at('src/skills.d.ts'))
    // A chain, a base in a folder (its `include` relative to it), JSONC.
    const chain = {
      'tsconfig.json': '{ "extends": "./configs/app.json", // app\n}',
      'configs/app.json': '{ "extends": "./base.json", "compilerOptions": {} }',
      'configs/base.json': '{ /* base */ "include": ["../lib/**/*.ts",], }',
    }
    expect(dtsTarget(project(chain, ['configs', 'lib']))).toEqual(at('lib/skills.d.ts'))
    // The leaf's `include` wins over the base's.
    const leafWins = {
      'tsconfig.json': '{ "extends": "./tsconfig.base.json", "include": ["app"] }',
      'tsconfig.base.json': base,
    }
    expect(dtsTarget(project(leafWins, ['src', 'app']))).toEqual(at('app/skills.d.ts'))
    // An array (TypeScript 5): the later base wins, the earlier one's `include` overridden.
    const array = {
      'tsconfig.json': '{ "extends": ["./a.json", "./b.json"] }',
      'a.json': '{ "include": ["lib"] }',
      'b.json': base,
    }
    expect(dtsTarget(project(array, ['src', 'lib']))).toEqual(at('src/skills.d.ts'))
    // `files` in the base, no `include`: nothing covers the root or a folder.
    const filesOnly = { 'tsconfig.json': '{ "extends": "./b.json" }', 'b.json': '{ "files": ["src/main.ts"] }' }
    expect(dtsTarget(project(filesOnly, ['src']))).toEqual(at('skills.d.ts', false))
    // `${configDir}` (TypeScript 5.5): the folder of the config that extends.
    const configDir = {
      'tsconfig.json': '{ "extends": "./configs/base.json" }',
      'configs/base.json': `{ "include": ["${CONFIG_DIR}/src"] }`,
    }
    expect(dtsTarget(project(configDir, ['configs', 'src']))).toEqual(at('src/skills.d.ts'))
  })

  it('follows `extends` to a package, resolved from the tsconfig\'s folder, and in references', () => {
    const pkg = {
      'tsconfig.json': '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }',
      'tsconfig.app.json': '{ "extends": "@acme/tsconfig/app.json" }',
      'node_modules/@acme/tsconfig/package.json': '{ "name": "@acme/tsconfig", "version": "1.0.0" }',
      'node_modules/@acme/tsconfig/app.json': `{ "include": ["${CONFIG_DIR}/src"] }`,
    }
    expect(dtsTarget(project(pkg, ['src', 'node_modules/@acme/tsconfig']))).toEqual(at('src/skills.d.ts'))
    // A package base that sets no `include`: TypeScript's default, everything under the leaf.
    const node20 = {
      'tsconfig.json': '{ "extends": "@tsconfig/node20/tsconfig.json" }',
      'node_modules/@tsconfig/node20/package.json': '{ "name": "@tsconfig/node20", "version": "20.1.0" }',
      'node_modules/@tsconfig/node20/tsconfig.json': '{ "compilerOptions": { "module": "node16" } }',
    }
    expect(dtsTarget(project(node20, ['node_modules/@tsconfig/node20']))).toEqual(at('skills.d.ts'))
  })

  it('never throws on a missing, broken or circular base: the config alone, included only if it says so', () => {
    const missing = { 'tsconfig.json': '{ "extends": "./nope.json" }' }
    expect(dtsTarget(project(missing, ['src']))).toEqual(at('skills.d.ts', false))
    const missingPackage = { 'tsconfig.json': '{ "extends": "@nope/tsconfig/tsconfig.json" }' }
    expect(dtsTarget(project(missingPackage, ['src']))).toEqual(at('skills.d.ts', false))
    const broken = { 'tsconfig.json': '{ "extends": "./b.json" }', 'b.json': '{ "include": ["src"' }
    expect(() => dtsTarget(project(broken, ['src']))).not.toThrow()
    const cycle = {
      'tsconfig.json': '{ "extends": "./a.json" }',
      'a.json': '{ "extends": "./b.json", "include": ["src"] }',
      'b.json': '{ "extends": "./a.json" }',
    }
    expect(dtsTarget(project(cycle, ['src']))).toEqual(at('skills.d.ts', false))
    // The leaf's own `include` still stands when its base is missing.
    const ownInclude = { 'tsconfig.json': '{ "extends": "./nope.json", "include": ["src"] }' }
    expect(dtsTarget(project(ownInclude, ['src']))).toEqual(at('src/skills.d.ts'))
    const notJson = { 'tsconfig.json': '{ "extends": 42 }' }
    expect(() => dtsTarget(project(notJson))).not.toThrow()
  })

  it('writes where tsc looks: `getSkill(\'nmae\')` fails to typecheck through an extended `include`', () => {
    const root = project(
      {
        'tsconfig.json': '{ "extends": "./tsconfig.base.json" }',
        'tsconfig.base.json': JSON.stringify({
          compilerOptions: {
            strict: true,
            target: 'es2022',
            module: 'esnext',
            moduleResolution: 'bundler',
            lib: ['es2022'],
          },
          include: ['src'],
        }),
        'src/env.d.ts': `/// <reference path=${JSON.stringify(path.join(REPO, 'client.d.ts'))} />\n`,
        'src/app.ts': [
          `import { getSkill } from 'virtual:skills-manifest'`,
          `export const ok = getSkill('pdf-tools')`,
          `export const bad = getSkill('nmae')`,
        ].join('\n'),
      },
      ['src'],
    )
    const target = dtsTarget(root)
    expect(target).toEqual(at('src/skills.d.ts'))
    fs.writeFileSync(target.file, generateDts({ skills: [{ name: 'pdf-tools' }] } as SkillsManifest))
    expect(tsc(root)).toEqual({
      files: ['src/app.ts', 'src/env.d.ts', 'src/skills.d.ts'],
      errors: ['src/app.ts:3: TS2345'],
    })
  })
})
