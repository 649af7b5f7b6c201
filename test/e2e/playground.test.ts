import type { Browser, Page } from 'playwright-core'
import type { PreviewServer, ViteDevServer } from 'vite'
import type { AuditResult } from '../../src/audit/engine'
/**
 * End to end: the playground is built with its own vite.config.ts (the published `unplugin-skills/vite`
 * entry, so dist/ must be built), served with `vite preview`, and driven in Debian's Chromium.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { build, createServer, preview } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shortDigest } from '../../playground/src/format'
import { audit } from '../../src/audit/engine'
import { findSkills } from '../../src/runtime/find'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const playground = path.join(repo, 'playground')
const configFile = path.join(playground, 'vite.config.ts')
const screenshotFile = path.join(repo, 'test/.output/playground.png')
const SKILL_MODULE = '\0virtual:skills-manifest/skill/'
/** The skill the test opens, and a heading of its SKILL.md body. */
const OPENED = 'accessibility-audit'
const OPENED_HEADING = 'Accessibility audit (WCAG 2.2 AA)'
const QUERY = 'the orders API keeps answering HTTP 429 too many requests'
const WAIT = { timeout: 15_000 }

function chromiumExecutable(): string {
  let found = ''
  try {
    found = execFileSync('which', ['chromium'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  }
  catch {}
  const executable = found || '/usr/bin/chromium'
  if (!fs.existsSync(executable)) {
    throw new Error(
      `Chromium is required by the end-to-end test and was not found (\`which chromium\`, ${executable}). `
      + 'Install Debian\'s package: `apt-get install -y chromium`. '
      + 'The test drives it through playwright-core; `playwright install` is not used.',
    )
  }
  return executable
}

let outDir = ''
let server: PreviewServer | undefined
let browser: Browser | undefined
let page: Page
let baseUrl = ''
let engine: AuditResult
let complete: Awaited<ReturnType<AuditResult['complete']>>
/** Skill name -> its lazy chunk's URL path, from the build output. */
const chunkOf = new Map<string, string>()
let entryCode = ''
/** URL paths the page requested, in order. */
const requests: string[] = []
const problems: string[] = []

beforeAll(async () => {
  const executable = chromiumExecutable()
  if (!fs.existsSync(path.join(repo, 'dist/vite.mjs'))) {
    throw new Error(
      'dist/vite.mjs is missing: the playground imports the published `unplugin-skills/vite` entry. '
      + 'Run `npm run build` first.',
    )
  }
  engine = await audit({ root: playground, lock: 'verify', ci: true })
  complete = await engine.complete()
  expect(engine.diagnostics.filter(d => d.severity === 'error')).toEqual([])

  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-playground-'))
  const output = await build({ root: playground, configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } })
  const bundles = (Array.isArray(output) ? output : [output]) as Array<{
    output: Array<{ type: string, fileName: string, facadeModuleId?: string | null, isEntry?: boolean, code?: string }>
  }>
  for (const item of bundles[0].output) {
    if (item.type !== 'chunk')
      continue
    if (item.facadeModuleId?.startsWith(SKILL_MODULE))
      chunkOf.set(decodeURIComponent(item.facadeModuleId.slice(SKILL_MODULE.length)), `/${item.fileName}`)
    if (item.isEntry)
      entryCode += item.code ?? ''
  }

  server = await preview({
    root: playground,
    configFile,
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  })
  const address = server.httpServer.address()
  if (!address || typeof address === 'string')
    throw new Error('preview server has no TCP address')
  baseUrl = `http://127.0.0.1:${address.port}`

  browser = await chromium.launch({
    executablePath: executable,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
    reducedMotion: 'reduce',
  })
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.origin === baseUrl)
      requests.push(url.pathname)
  })
  page.on('console', (message) => {
    if (message.type() === 'error')
      problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', error => problems.push(`page error: ${error.message}`))
  page.on('requestfailed', request =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`))
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  await page.goto(`${baseUrl}/`)
  await page.locator('#skill-list [data-skill]').first().waitFor(WAIT)
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (outDir)
    fs.rmSync(outDir, { recursive: true, force: true })
})

describe('playground', () => {
  it('builds one lazy chunk per skill and keeps instructions out of the entry', () => {
    expect([...chunkOf.keys()].sort()).toEqual(engine.manifest.skills.map(s => s.name))
    expect(entryCode).toContain(engine.manifest.skills[0].digest)
    expect(entryCode).not.toContain(OPENED_HEADING)
  })

  it('emits the same skills_manifest.json as the engine', async () => {
    const response = await page.request.get(`${baseUrl}/skills_manifest.json`)
    expect(response.status()).toBe(200)
    expect(await response.text()).toBe(complete.json)
  })

  it('lists every skill with the engine\'s name, version and short digest', async () => {
    const cards = await page.locator('#skill-list article[data-skill]').evaluateAll(nodes =>
      nodes.map(node => ({
        name: node.querySelector('.card-open')?.textContent,
        version: node.querySelector('.skill-version')?.textContent,
        digest: node.querySelector('.skill-digest')?.textContent,
        files: node.querySelector('.skill-files')?.textContent,
      })),
    )
    expect(cards).toEqual(
      engine.manifest.skills.map(s => ({
        name: s.name,
        version: s.version ? `v${s.version}` : 'unversioned',
        digest: shortDigest(s.digest),
        files: String(s.files.length),
      })),
    )
    // Badges come from the manifest too: approval for write workloads, declared capabilities.
    const git = engine.manifest.skills.find(s => s.name === 'git-release-notes')!
    expect(git.requiresApproval).toBe(true)
    const gitBadges = await page.locator('article[data-skill="git-release-notes"] .badge').allTextContents()
    expect(gitBadges).toContain('approval required')
    expect(gitBadges).toContain('process')
    await expect.poll(() => page.locator('#stats').textContent()).toContain(shortDigest(engine.manifest.lockDigest))
  })

  it('fetches a skill\'s chunk only when it is opened, then shows its instructions', async () => {
    const skillChunks = new Set(chunkOf.values())
    expect(requests.filter(r => skillChunks.has(r))).toEqual([])
    const before = requests.length

    await page.locator(`article[data-skill="${OPENED}"] .card-open`).click()
    const heading = page.locator('#detail .prose h4', { hasText: OPENED_HEADING })
    await heading.waitFor(WAIT)
    expect(await heading.textContent()).toBe(OPENED_HEADING)

    const after = requests.slice(before).filter(r => skillChunks.has(r))
    expect(after).toEqual([chunkOf.get(OPENED)])
    expect(await page.locator(`article[data-skill="${OPENED}"] .card-open`).getAttribute('aria-current')).toBe('true')

    const skill = engine.manifest.skills.find(s => s.name === OPENED)!
    const references = await page.locator('#sec-references ~ .docs summary code').allTextContents()
    expect(references).toEqual(skill.tree.references.map(r => r.path))
    const prompts = await page.locator('#detail .scenario-prompt').allTextContents()
    expect(prompts).toEqual(skill.scenarios.map(s => s.prompt))
    expect(await page.locator('#detail .digest-full').textContent()).toBe(skill.digest)
    // Relative links in the instructions lead to the skill's own files.
    expect(await page.locator('#detail .prose a[href="#file-references-contrast-md"]').count()).toBeGreaterThan(0)
  })

  it('finds skills for a task with findSkills(query, { k: 3 })', async () => {
    // The build ships the discovery index: the page's answer is the runtime's answer over it.
    expect(complete.manifest.index).toBeDefined()
    const expected = findSkills(complete.manifest, QUERY, { k: 3 }).map(m => m.name)
    expect(expected.length).toBeGreaterThan(0)
    await page.locator('#search-input').fill(QUERY)
    await page.locator('#search button[type="submit"]').click()
    await page.locator('#search-results .result-open').first().waitFor(WAIT)
    expect(await page.locator('#search-results .result-open').allTextContents()).toEqual(expected)
    const notice = await page.locator('#search-results .status.is-warning').count()
    expect(notice).toBe(0)
  })

  it('logs no console errors and saves a screenshot', async () => {
    await page.evaluate(() => window.scrollTo(0, 0))
    fs.mkdirSync(path.dirname(screenshotFile), { recursive: true })
    await page.screenshot({ path: screenshotFile })
    expect(fs.statSync(screenshotFile).size).toBeGreaterThan(10_000)
    expect(problems).toEqual([])
  })
})

describe('playground in dev', () => {
  // A copy, so the test can edit a skill without touching the committed playground.
  let copy = ''
  let dev: ViteDevServer | undefined
  let devPage: Page

  beforeAll(async () => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-playground-dev-'))
    for (const entry of ['index.html', 'src', 'skills', '.manifest.lock'])
      fs.cpSync(path.join(playground, entry), path.join(copy, entry), { recursive: true })
    dev = await createServer({
      root: copy,
      configFile,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, strictPort: false },
    })
    await dev.listen()
    const address = dev.httpServer!.address()
    if (!address || typeof address === 'string')
      throw new Error('dev server has no TCP address')
    devPage = await browser!.newPage()
    devPage.on('pageerror', error => problems.push(`dev page error: ${error.message}`))
    devPage.on('console', (message) => {
      if (message.type() === 'error')
        problems.push(`dev console: ${message.text()}`)
    })
    await devPage.goto(`http://127.0.0.1:${address.port}/`)
    await devPage.locator('#skill-list [data-skill]').first().waitFor(WAIT)
  })

  afterAll(async () => {
    await devPage?.close()
    await dev?.close()
    if (copy)
      fs.rmSync(copy, { recursive: true, force: true })
  })

  it('re-renders the list and the open skill on HMR, without a reload', async () => {
    await devPage.evaluate(() => Object.assign(window, { __sameDocument: true }))
    await devPage.locator('article[data-skill="incident-postmortem"] .card-open').click()
    await devPage.locator('#detail .prose h4', { hasText: 'Blameless incident postmortems' }).waitFor(WAIT)

    const edit = (skill: string, from: string, to: string): void => {
      const file = path.join(copy, 'skills', skill, 'SKILL.md')
      const text = fs.readFileSync(file, 'utf8')
      expect(text).toContain(from)
      fs.writeFileSync(file, text.replace(from, to))
    }
    edit('accessibility-audit', 'description: Audits web pages', 'description: Edited live. Audits web pages')
    const card = devPage.locator('article[data-skill="accessibility-audit"] .card-desc')
    await expect.poll(() => card.textContent(), WAIT).toMatch(/^Edited live\. Audits web pages/)

    edit('incident-postmortem', '# Blameless incident postmortems', '# Blameless incident postmortems, edited')
    await devPage.locator('#detail .prose h4', { hasText: 'Blameless incident postmortems, edited' }).waitFor(WAIT)
    expect(await devPage.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
    expect(problems).toEqual([])
  })
})
