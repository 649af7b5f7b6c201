import type { Buffer } from 'node:buffer'
import type { Diagnostic, SkillsManifest } from '../../../src/index'
import type { Built, Bundler } from './builds'
import type { RunResult } from './helpers'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { summarizeSkill } from '../../../src/audit/manifest'
import { builders } from './builds'
import {
  BODY_SENTENCE,
  breakApp,
  cliBuild,
  driftApp,
  engineAudit,
  errorText,
  lockApp,
  makeApp,
  OPTIONS,
  readOutputs,
  REFERENCE_SENTENCE,
  removeDir,
  runOutput,
  STACK_LINE,
} from './helpers'

/**
 * The same contract for every bundler: a real build of the fixture app, run in Node, must serve the
 * engine's manifest; the emitted JSON must be the CLI's bytes; drift and invalid skills must fail the build.
 */
export function bundlerSuite(bundler: Bundler): void {
  const build = builders[bundler]

  describe(`${bundler}: a clean build`, () => {
    let dir: string
    let built: Built
    let ran: RunResult
    let expected: { manifest: SkillsManifest, json: string }
    let cli: Buffer

    beforeAll(async () => {
      dir = makeApp(bundler)
      await lockApp(dir)
      expected = await engineAudit(dir)
      cli = await cliBuild(dir)
      built = await build(dir, OPTIONS)
      ran = await runOutput(built.entry)
    })
    afterAll(() => removeDir(dir))

    it('serves the engine manifest: summaries by default, everything after loading', () => {
      expect(expected.manifest.skills.map(s => s.name)).toEqual(['pdf-tools', 'release-notes'])
      // The entry module leaves out the discovery index too: loadManifest() fetches it lazily.
      const { index, ...head } = expected.manifest
      expect(index).toBeDefined()
      const summaries = { ...head, skills: expected.manifest.skills.map(summarizeSkill) }
      expect(ran.manifest).toEqual(summaries)
      expect(ran.skills).toEqual(summaries.skills)
      expect(ran.full).toEqual(expected.manifest)
      for (const skill of expected.manifest.skills) expect(ran.loaded[skill.name]).toEqual(skill)
      expect(ran.unknown).toBe(null)
    })

    it('keeps instruction bodies and reference texts out of the entry chunk', () => {
      const outputs = new Map([...readOutputs(built.outDir)].filter(([file]) => /\.[cm]?js$/.test(file)))
      const entry = outputs.get(path.relative(built.outDir, built.entry))!
      expect(entry).toBeDefined()
      expect(entry).not.toContain(BODY_SENTENCE)
      expect(entry).not.toContain(REFERENCE_SENTENCE)
      const lazy = [...outputs].filter(([, text]) => text.includes(BODY_SENTENCE)).map(([file]) => file)
      expect(lazy).toHaveLength(1)
      expect(outputs.get(lazy[0])).toContain(REFERENCE_SENTENCE)
    })

    it('emits skills_manifest.json, byte-identical to `unplugin-skills build`', () => {
      const emitted = fs.readFileSync(path.join(built.outDir, 'skills_manifest.json'))
      expect(emitted.equals(cli)).toBe(true)
      expect(emitted.toString('utf8')).toBe(expected.json)
    })

    it('reports no warning for a clean app', () => {
      // Unresolved imports would mean the lazily loaded runtime is broken in this bundler.
      expect(built.warnings.filter(w => w.includes('unplugin-skills') || /could not be resolved/i.test(w))).toEqual([])
    })
  })

  describe(`${bundler}: failing builds`, () => {
    const dirs: string[] = []
    afterAll(() => dirs.forEach(removeDir))

    async function failure(
      prepare: (dir: string) => Promise<void> | void,
      options = {},
    ): Promise<{ text: string, dir: string }> {
      const dir = makeApp(`${bundler}-fail`)
      dirs.push(dir)
      await prepare(dir)
      let text: string | null = null
      try {
        await build(dir, { ...OPTIONS, ...options })
      }
      catch (error) {
        text = errorText(error)
      }
      expect(text, 'the build should have failed').not.toBe(null)
      expect(fs.existsSync(path.join(dir, 'out/skills_manifest.json'))).toBe(false)
      return { text: text!, dir }
    }

    it('fails on lock drift with the drift report', async () => {
      const { text } = await failure(async (dir) => {
        await lockApp(dir)
        driftApp(dir)
      })
      expect(text).toContain('[unplugin-skills] skills audit failed')
      expect(text).toContain('lock/drift skills/pdf-tools/references/layout.md')
      expect(text).toContain('skill `pdf-tools` changed')
      expect(text).toContain('~ references/layout.md')
      expect(text).toContain('run `npx unplugin-skills lock`')
      expect(text).not.toMatch(STACK_LINE)
    })

    it('fails on an invalid skill with its diagnostic, position, code frame and hint', async () => {
      let error: Diagnostic | undefined
      const { text } = await failure(
        async (dir) => {
          breakApp(dir)
          error = (await engineAudit(dir, { ...OPTIONS, lock: false })).diagnostics.find(d => d.severity === 'error')
        },
        { lock: false },
      )
      expect(error).toMatchObject({ code: 'skill/name-mismatch', file: 'skills/broken/SKILL.md' })
      expect(text).toContain(`${error!.code} ${error!.file}:${error!.line}:${error!.column}`)
      expect(text).toContain(error!.message)
      expect(text).toContain(`> ${error!.line} | name: brokn`)
      expect(text).toContain(`hint: ${error!.hint}`)
      expect(text).not.toMatch(STACK_LINE)
    })
  })
}
