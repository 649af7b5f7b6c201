import type { ViteDevServer } from 'vite'
import type { Logged } from './server'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { breakApp, engineAudit, lockApp, makeApp, removeDir, STACK_LINE } from '../bundlers/helpers'
import { MAIN, skillUrl, startServer, until } from './server'

describe('vite dev server', () => {
  let dir: string
  let server: ViteDevServer
  let get: (url: string) => Promise<{ status: number, text: string }>
  const logged: Logged[] = []
  const warned = (): string[] => logged.filter(l => l.level !== 'info').map(l => l.message)

  beforeAll(async () => {
    dir = makeApp('dev')
    await lockApp(dir)
    ;({ server, get } = await startServer(dir, logged))
  })
  afterAll(async () => {
    await server?.close()
    removeDir(dir)
  })

  it('serves the virtual module and the current skills_manifest.json', async () => {
    const main = await get(MAIN)
    expect(main.status).toBe(200)
    expect(main.text).toContain('Extract text and tables from PDF files')
    expect(main.text).not.toContain('Keep page numbers next to each extracted block.')
    const json = await get('/skills_manifest.json')
    expect(json.status).toBe(200)
    expect(json.text).toBe((await engineAudit(dir)).json)
  })

  it('updates the entry module when a SKILL.md changes, and lock drift stays a warning', async () => {
    const file = path.join(dir, 'skills/release-notes/SKILL.md')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('grouped by user impact', 'grouped by audience'))
    await until(async () => (await get(MAIN)).text.includes('grouped by audience'), 'the edited description')
    expect((await get(MAIN)).status).toBe(200)
    expect(warned().some(m => m.includes('lock/drift') && m.includes('skill `release-notes` changed'))).toBe(true)
  })

  it('updates a skill module when its body changes', async () => {
    expect((await get(skillUrl('pdf-tools'))).text).toContain('Keep page numbers next to each extracted block.')
    const file = path.join(dir, 'skills/pdf-tools/SKILL.md')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Keep page numbers', 'Always keep page numbers'))
    await until(
      async () => (await get(skillUrl('pdf-tools'))).text.includes('Always keep page numbers'),
      'the edited body',
    )
  })

  it('picks up a new skill folder and a removed one without a restart', async () => {
    const added = path.join(dir, 'skills/meeting-notes')
    fs.mkdirSync(added)
    fs.writeFileSync(
      path.join(added, 'SKILL.md'),
      [
        '---',
        'name: meeting-notes',
        'description: Summarise a meeting into decisions and owners. Use after a call.',
        '---',
        '# Meeting notes',
        '',
        'List decisions first.',
        '',
      ].join('\n'),
    )
    await until(async () => (await get(MAIN)).text.includes('Summarise a meeting into decisions'), 'the new skill')
    expect((await get(skillUrl('meeting-notes'))).text).toContain('List decisions first.')

    fs.rmSync(path.join(dir, 'skills/release-notes'), { recursive: true })
    await until(async () => !(await get(MAIN)).text.includes('release-notes'), 'the removed skill to disappear')
    const json = JSON.parse((await get('/skills_manifest.json')).text) as { skills: Array<{ name: string }> }
    expect(json.skills.map(s => s.name)).toEqual(['meeting-notes', 'pdf-tools'])
  })
})

describe('vite dev server with an invalid skill', () => {
  let dir: string
  let server: ViteDevServer
  let get: (url: string) => Promise<{ status: number, text: string }>
  const logged: Logged[] = []
  const warned = (): string[] => logged.filter(l => l.level !== 'info').map(l => l.message)

  beforeAll(async () => {
    dir = makeApp('dev-invalid')
    await lockApp(dir)
    breakApp(dir)
    ;({ server, get } = await startServer(dir, logged))
  })
  afterAll(async () => {
    await server?.close()
    removeDir(dir)
  })

  it('serves the errors instead of a manifest at /skills_manifest.json', async () => {
    const res = await get('/skills_manifest.json')
    expect(res.status).toBe(500)
    const body = JSON.parse(res.text) as { ok: boolean, diagnostics: Array<{ code: string, file: string }> }
    expect(body.ok).toBe(false)
    expect(body.diagnostics.map(d => `${d.code} ${d.file}`)).toContain('skill/name-mismatch skills/broken/SKILL.md')
  })

  it('starts anyway, prints the error, and serves it to the overlay', async () => {
    expect(server.httpServer!.listening).toBe(true)
    expect(warned().some(m => m.includes('skill/name-mismatch skills/broken/SKILL.md:2'))).toBe(true)
    const main = await get(MAIN)
    expect(main.status).toBe(500)
    expect(main.text).toContain('skill/name-mismatch')
    await expect(server.environments.client.transformRequest('virtual:skills-manifest')).rejects.toThrow(
      /skills audit failed[\s\S]*name `brokn` differs from its folder `broken`[\s\S]*hint: Rename the folder/,
    )
    const error = await server.environments.client.transformRequest('virtual:skills-manifest').catch((e: Error) => e)
    expect(String((error as Error).stack)).not.toMatch(STACK_LINE)
  })

  it('recovers once the skill is fixed', async () => {
    const file = path.join(dir, 'skills/broken/SKILL.md')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('name: brokn', 'name: broken'))
    await until(async () => (await get(MAIN)).status === 200, 'the module to load again')
    expect((await get(MAIN)).text).toContain('Fails the audit on purpose.')
  })
})
