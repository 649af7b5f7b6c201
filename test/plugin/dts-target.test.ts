import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dtsTarget } from '../../src/plugin/dts'

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
})
