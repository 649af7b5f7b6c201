import type { SkillName } from './view'
import manifest, { findSkills, getSkill, skills } from 'virtual:skills-manifest'
import { h } from './dom'
import { plural, shortDigest, textMatches } from './format'
import { emptyDetail, errorDetail, loadingDetail, searchResults, skillCard, skillDetail } from './view'
import './style.css'

type Module = typeof import('virtual:skills-manifest')
interface Api {
  manifest: Module['default']
  skills: Module['skills']
  getSkill: Module['getSkill']
  findSkills: Module['findSkills']
}

/** The virtual module's current exports: replaced on HMR, so every read goes through here. */
let api: Api = { manifest, skills, getSkill, findSkills }
let selected: string | null = null
/** Whether the build carries a discovery index (learned on the first search). */
let indexReady: Promise<boolean> | null = null
let searchSeq = 0
let openSeq = 0

const $ = <T extends HTMLElement>(selector: string): T => document.querySelector<T>(selector)!
const list = $<HTMLUListElement>('#skill-list')
const detail = $<HTMLElement>('#detail')
const stats = $<HTMLElement>('#stats')
const form = $<HTMLFormElement>('#search')
const input = $<HTMLInputElement>('#search-input')
const results = $<HTMLElement>('#search-results')

function renderStats(): void {
  const { manifest, skills } = api
  const fileCount = skills.reduce((n, s) => n + s.counts.files, 0)
  const stat = (label: string, value: string | Node, title?: string): HTMLDivElement =>
    h('div', { class: 'stat', title }, h('dt', {}, label), h('dd', {}, value))
  stats.replaceChildren(
    stat('Skills', String(skills.length)),
    stat('Files', String(fileCount)),
    stat('Profile', manifest.profile),
    stat('Lock', h('code', {}, shortDigest(manifest.lockDigest)), `sha-256 of .manifest.lock: ${manifest.lockDigest}`),
    stat('Generator', manifest.generator),
  )
}

function renderList(): void {
  list.replaceChildren(...api.skills.map(skill => skillCard(skill, skill.name === selected, openSkill)))
  list.setAttribute('aria-busy', 'false')
}

/** Loads a skill's chunk on demand and shows its full entry. */
async function openSkill(name: string, { focus = true } = {}): Promise<void> {
  const handle = api.getSkill(name as SkillName)
  const seq = ++openSeq
  selected = name
  renderList()
  if (!handle) {
    detail.replaceChildren(errorDetail(name, new Error('No such skill in this build.')))
    return
  }
  detail.replaceChildren(loadingDetail(name))
  try {
    const skill = await handle.load()
    if (seq !== openSeq)
      return // a later click won
    detail.replaceChildren(skillDetail(skill, openSkill))
    detail.scrollTop = 0
    if (focus) {
      detail.querySelector<HTMLElement>('#detail-title')?.focus({ preventScroll: true })
      // Side by side the panel is already in view; stacked (narrow screens) it sits below the list.
      const { top } = detail.getBoundingClientRect()
      if (top < 0 || top > window.innerHeight * 0.6) {
        detail.scrollIntoView({
          block: 'start',
          behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
        })
      }
    }
  }
  catch (error) {
    if (seq === openSeq)
      detail.replaceChildren(errorDetail(name, error))
  }
}

/**
 * `findSkills` answers from the build-time discovery index. A skill's own name always matches when
 * the index exists, so an empty answer to that probe means this build has none.
 */
function hasIndex(): Promise<boolean> {
  const probe = api.skills[0]?.name
  return (indexReady ??= probe
    ? api.findSkills(probe, { k: 1 }).then(
        m => m.length > 0,
        () => false,
      )
    : Promise.resolve(false))
}

async function search(query: string): Promise<void> {
  const seq = ++searchSeq
  if (!query.trim()) {
    results.replaceChildren()
    return
  }
  const status = (text: string, kind = ''): HTMLParagraphElement => h('p', { class: `status ${kind}`.trim() }, text)
  results.replaceChildren(status('Searching…'))
  try {
    if (!(await hasIndex())) {
      const plain = textMatches(api.skills, query, 3)
      if (seq !== searchSeq)
        return
      results.replaceChildren(
        status(
          'JIT discovery is not available in this build (the manifest has no discovery index), '
          + 'so these are plain text matches on name, description, tags and triggers.',
          'is-warning',
        ),
        plain.length
          ? searchResults(
              plain.map(m => ({ ...m, snippet: null })),
              openSkill,
            )
          : status(`No skill mentions “${query.trim()}”.`),
      )
      return
    }
    const matches = await api.findSkills(query, { k: 3 })
    if (seq !== searchSeq)
      return
    results.replaceChildren(
      matches.length
        ? searchResults(
            matches.map(m => ({ name: m.name, score: m.score, snippet: snippetOf(m.chunks[0]?.text ?? null) })),
            openSkill,
          )
        : status(`No skill matches “${query.trim()}”.`),
    )
  }
  catch (error) {
    if (seq === searchSeq) {
      results.replaceChildren(
        status(`Search failed: ${error instanceof Error ? error.message : String(error)}`, 'is-error'),
      )
    }
  }
}

function snippetOf(text: string | null): string | null {
  return text && (text.length > 180 ? `${text.slice(0, 180).trimEnd()}…` : text).replace(/\s+/g, ' ')
}

function render(): void {
  renderStats()
  renderList()
  if (!selected)
    detail.replaceChildren(emptyDetail(api.skills.length))
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  void search(input.value)
})
input.addEventListener('search', () => void search(input.value)) // the clear button of type=search

// Relative links in the instructions point at a file of the skill: open its <details> on the way.
detail.addEventListener('click', (event) => {
  const anchor = (event.target as Element).closest?.('a[href^="#file-"]')
  const target = anchor && document.getElementById(anchor.getAttribute('href')!.slice(1))
  if (target instanceof HTMLElement)
    target.querySelector('details')?.setAttribute('open', '')
})

render()
document.title = `Skills catalog · ${plural(api.skills.length, 'skill')}`

// Dev: a skill edited on disk re-renders the catalog (and the open skill) without a page reload.
if (import.meta.hot) {
  import.meta.hot.accept('virtual:skills-manifest', (next) => {
    if (!next)
      return
    const mod = next as unknown as Module
    api = { manifest: mod.default, skills: mod.skills, getSkill: mod.getSkill, findSkills: mod.findSkills }
    indexReady = null
    render()
    if (selected && api.skills.some(s => s.name === selected)) {
      void openSkill(selected, { focus: false })
    }
    else if (selected) {
      selected = null
      render()
    }
    if (input.value.trim())
      void search(input.value)
  })
}
