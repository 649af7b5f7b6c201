import type { findSkills, getSkill, skills } from 'virtual:skills-manifest'
import type { Severity } from './format'
import { h } from './dom'
import {
  countBySeverity,
  fileAnchor,
  formatBytes,
  isWebLink,
  plural,
  SEVERITIES,
  severityLabel,
  shortDigest,
  skillRelativeTarget,
} from './format'
import { parseMarkdown, renderMarkdown } from './markdown'

// Types come from the virtual module's declarations (unplugin-skills/client), as in any user app.
/** A skill's summary, as the entry module lists it. */
export type Skill = (typeof skills)[number]
/** A skill's full entry, as `getSkill(name).load()` returns it. */
export type FullSkill = Awaited<ReturnType<NonNullable<ReturnType<typeof getSkill>>['load']>>
export type Match = Awaited<ReturnType<typeof findSkills>>[number]
export type SkillName = Parameters<typeof getSkill>[0]
type Doc = FullSkill['tree']['references'][number]

export type OpenSkill = (name: string) => void

const versionText = (skill: { version: string | null }): string => (skill.version ? `v${skill.version}` : 'unversioned')

/** Workload, approval, capabilities and findings (counts by severity) as a list of badges. */
function badges(
  skill: Pick<Skill, 'capabilities' | 'workload' | 'requiresApproval'>,
  counts: Partial<Record<Severity, number>>,
): HTMLUListElement {
  const { declared, detected } = skill.capabilities
  const items: HTMLLIElement[] = [
    h(
      'li',
      {
        class: `badge ${skill.workload === 'write' ? 'badge-warn' : 'badge-neutral'}`,
        title: `workload: ${skill.workload}`,
      },
      skill.workload === 'write' ? 'writes' : 'read-only',
    ),
  ]
  if (skill.requiresApproval) {
    items.push(
      h('li', { class: 'badge badge-warn', title: 'A human must approve each use (HITL)' }, 'approval required'),
    )
  }
  for (const cap of [...new Set([...declared, ...detected])].sort()) {
    const isDeclared = declared.includes(cap)
    const isDetected = detected.includes(cap)
    const title = isDeclared
      ? isDetected
        ? 'declared and used'
        : 'declared, not used by the code'
      : 'used but not declared'
    items.push(
      h(
        'li',
        {
          'class': `badge badge-cap${isDetected ? '' : ' badge-unused'}${isDeclared ? '' : ' badge-error'}`,
          title,
          'data-capability': cap,
        },
        cap,
      ),
    )
  }
  const found = SEVERITIES.filter(s => (counts[s] ?? 0) > 0)
  if (!found.length)
    items.push(h('li', { 'class': 'badge badge-ok', 'data-findings': 'none' }, 'no findings'))
  for (const severity of found) {
    items.push(
      h(
        'li',
        { 'class': `badge badge-${severity}`, 'data-findings': severity },
        severityLabel(severity, counts[severity] ?? 0),
      ),
    )
  }
  return h('ul', { class: 'badges', role: 'list' }, items)
}

export function skillCard(skill: Skill, selected: boolean, open: OpenSkill): HTMLLIElement {
  const titleId = `card-${fileAnchor(skill.name)}`
  const button = h(
    'button',
    { 'type': 'button', 'class': 'card-open', 'aria-controls': 'detail', 'aria-current': selected ? 'true' : null },
    skill.name,
  )
  button.addEventListener('click', () => open(skill.name))
  return h(
    'li',
    {},
    h(
      'article',
      { 'class': `card${selected ? ' is-selected' : ''}`, 'data-skill': skill.name, 'aria-labelledby': titleId },
      h(
        'header',
        { class: 'card-head' },
        h('h3', { class: 'card-title', id: titleId }, button),
        h('span', { class: 'skill-version' }, versionText(skill)),
      ),
      h('p', { class: 'card-desc' }, skill.description),
      h(
        'dl',
        { class: 'card-meta' },
        h(
          'div',
          {},
          h('dt', {}, 'Digest'),
          h(
            'dd',
            {},
            h('code', { class: 'skill-digest', title: `sha-256 ${skill.digest}` }, shortDigest(skill.digest)),
          ),
        ),
        h('div', {}, h('dt', {}, 'Files'), h('dd', { class: 'skill-files' }, skill.counts.files)),
        h('div', {}, h('dt', {}, 'Scenarios'), h('dd', {}, skill.counts.scenarios)),
      ),
      badges(skill, skill.counts.findings),
    ),
  )
}

export function emptyDetail(count: number): HTMLElement {
  return h(
    'div',
    { class: 'placeholder' },
    h('p', { class: 'placeholder-title' }, 'Select a skill'),
    h(
      'p',
      {},
      `Pick one of the ${plural(count, 'skill')} to read its instructions. `
      + 'They are loaded on demand: each skill is its own chunk.',
    ),
  )
}

export function loadingDetail(name: string): HTMLElement {
  return h(
    'div',
    { 'class': 'placeholder', 'aria-busy': 'true' },
    h('p', { class: 'placeholder-title' }, `Loading ${name}…`),
  )
}

export function errorDetail(name: string, error: unknown): HTMLElement {
  return h(
    'div',
    { class: 'placeholder is-error', role: 'alert' },
    h('p', { class: 'placeholder-title' }, `Could not load ${name}`),
    h('p', {}, error instanceof Error ? error.message : String(error)),
  )
}

function fact(label: string, ...value: Array<Node | string>): HTMLDivElement {
  return h('div', { class: 'fact' }, h('dt', {}, label), h('dd', {}, ...value))
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function docList(docs: Doc[], kind: string): HTMLElement {
  if (!docs.length)
    return h('p', { class: 'muted' }, `No ${kind}.`)
  return h(
    'ul',
    { class: 'docs', role: 'list' },
    docs.map(doc =>
      h(
        'li',
        { id: fileAnchor(doc.path) },
        h(
          'details',
          {},
          h('summary', {}, h('code', {}, doc.path), h('span', { class: 'muted' }, formatBytes(doc.size))),
          typeof doc.text === 'string'
            ? h('pre', { class: 'doc-text' }, doc.text)
            : h('p', { class: 'muted' }, 'Binary file: not embedded.'),
        ),
      ),
    ),
  )
}

function section(id: string, title: string, ...content: Array<Node | string>): HTMLElement {
  return h('section', { 'class': 'detail-section', 'aria-labelledby': id }, h('h3', { id }, title), ...content)
}

/** The full entry of a skill, as `getSkill(name).load()` returns it. */
export function skillDetail(skill: FullSkill, open: OpenSkill): HTMLElement {
  const files = new Set(skill.files.map(f => f.path))
  const docs = new Set([...skill.tree.references, ...skill.tree.examples, ...skill.tree.scenarios].map(d => d.path))
  const link = (href: string): { href: string, external: boolean } | null => {
    if (isWebLink(href))
      return { href, external: true }
    const target = skillRelativeTarget(href)
    return target && files.has(target) ? { href: `#${fileAnchor(target)}`, external: false } : null
  }
  const fm = skill.frontmatter
  const composed = stringList(fm.composed_skills)
  const tags = stringList(fm.tags)

  const instructions = h('div', { class: 'prose' })
  instructions.append(renderMarkdown(parseMarkdown(skill.body), { headingOffset: 3, link }))

  const findings = skill.findings.length
    ? h(
        'ul',
        { class: 'findings', role: 'list' },
        skill.findings.map(f =>
          h(
            'li',
            { class: `finding finding-${f.severity}` },
            h('span', { class: `badge badge-${f.severity}` }, f.severity === 'info' ? 'note' : f.severity),
            h('code', {}, f.code),
            h('span', {}, f.message),
            f.file ? h('span', { class: 'muted' }, `${f.file}${f.line ? `:${f.line}` : ''}`) : null,
          ),
        ),
      )
    : h('p', { class: 'muted' }, 'The scanner found nothing to report.')

  const scenarios = skill.scenarios.length
    ? h(
        'ul',
        { class: 'scenarios', role: 'list' },
        skill.scenarios.map((s) => {
          const reference = h('div', { class: 'prose' })
          reference.append(renderMarkdown(parseMarkdown(s.reference), { headingOffset: 4, link }))
          return h(
            'li',
            { class: 'scenario', id: fileAnchor(s.file) },
            h('p', { class: 'scenario-file' }, h('code', {}, s.file)),
            h('blockquote', { class: 'scenario-prompt' }, s.prompt),
            h(
              'dl',
              { class: 'scenario-facts' },
              fact('Expects', s.expected_skills.length ? s.expected_skills.join(', ') : 'no skill'),
              fact('Threshold', String(s.threshold)),
              fact('Runs code', s.executes ? 'yes' : 'no'),
            ),
            h('details', {}, h('summary', {}, 'Reference outcome'), reference),
          )
        }),
      )
    : h('p', { class: 'muted' }, 'No scenarios.')

  const otherFiles = skill.files.filter(f => !docs.has(f.path))
  const fileTable = h(
    'table',
    { class: 'files' },
    h('caption', { class: 'visually-hidden' }, `Files of ${skill.name}`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Path'),
        h('th', { scope: 'col' }, 'Size'),
        h('th', { scope: 'col' }, 'SHA-256'),
      ),
    ),
    h(
      'tbody',
      {},
      skill.files.map(f =>
        h(
          'tr',
          { id: otherFiles.includes(f) ? fileAnchor(f.path) : null },
          h('td', {}, h('code', {}, f.path)),
          h('td', { class: 'num' }, formatBytes(f.size)),
          h('td', {}, h('code', { title: f.sha256 }, shortDigest(f.sha256))),
        ),
      ),
    ),
  )

  const composedButtons = composed.map((name) => {
    const button = h('button', { type: 'button', class: 'link-button' }, name)
    button.addEventListener('click', () => open(name))
    return button
  })

  return h(
    'article',
    { 'class': 'detail-body', 'data-skill': skill.name, 'aria-labelledby': 'detail-title' },
    h(
      'header',
      { class: 'detail-head' },
      h('p', { class: 'detail-source' }, h('code', { title: 'source' }, skill.source)),
      h(
        'h2',
        { id: 'detail-title', tabindex: '-1' },
        skill.name,
        ' ',
        h('span', { class: 'skill-version' }, versionText(skill)),
      ),
      h('p', { class: 'lede' }, skill.description),
      badges(skill, countBySeverity(skill.findings)),
    ),
    h(
      'dl',
      { class: 'facts' },
      fact('Digest', h('code', { class: 'digest-full' }, skill.digest)),
      fact('Files', `${skill.files.length} (${formatBytes(skill.files.reduce((n, f) => n + f.size, 0))})`),
      typeof fm.domain === 'string'
        ? fact('Domain', `${fm.domain}${typeof fm.category === 'string' ? ` / ${fm.category}` : ''}`)
        : null,
      tags.length ? fact('Tags', tags.join(', ')) : null,
      composedButtons.length ? fact('Composes', ...composedButtons.flatMap((b, i) => (i ? [', ', b] : [b]))) : null,
      typeof fm.license === 'string' ? fact('License', fm.license) : null,
    ),
    section('sec-instructions', 'Instructions', instructions),
    section('sec-findings', `Findings (${skill.findings.length})`, findings),
    section(
      'sec-references',
      `References (${skill.tree.references.length})`,
      docList(skill.tree.references, 'references'),
    ),
    section('sec-examples', `Examples (${skill.tree.examples.length})`, docList(skill.tree.examples, 'examples')),
    section('sec-scenarios', `Scenarios (${skill.scenarios.length})`, scenarios),
    section('sec-files', `Files (${skill.files.length})`, fileTable),
  )
}

export function searchResults(
  matches: Array<{ name: string, score: number, snippet: string | null }>,
  open: OpenSkill,
): HTMLOListElement {
  return h(
    'ol',
    { class: 'results' },
    matches.map((m) => {
      const button = h('button', { 'type': 'button', 'class': 'link-button result-open', 'data-skill': m.name }, m.name)
      button.addEventListener('click', () => open(m.name))
      return h(
        'li',
        {},
        h(
          'div',
          { class: 'result-head' },
          button,
          h('span', { class: 'muted result-score' }, `score ${m.score.toFixed(2)}`),
        ),
        m.snippet ? h('p', { class: 'result-snippet' }, m.snippet) : null,
      )
    }),
  )
}
