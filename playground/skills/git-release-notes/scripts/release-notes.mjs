#!/usr/bin/env node
// Prints Markdown release notes for the commits between two refs, grouped by
// Conventional Commit type. Usage: node release-notes.mjs <from-ref> [<to-ref>]
// git runs without a shell and with argument arrays (CWE-78); refs are
// validated so they cannot be read as options (CWE-88).
import { spawnSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'

const MAX_COMMITS = 2000 // bound the work on huge ranges (CWE-400)
const REF = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/
const FIELD = '\x1f'
const RECORD = '\x1e'

const SECTIONS = [
  ['feat', 'Features'],
  ['fix', 'Bug fixes'],
  ['perf', 'Performance'],
  ['refactor', 'Refactoring'],
  ['docs', 'Documentation'],
]
const HEADER = /^(?<type>[a-z]+)(?:\((?<scope>[^)]{1,40})\))?(?<bang>!)?: (?<subject>.+)$/

function git(args) {
  const result = spawnSync('git', args, { encoding: 'utf8', shell: false, maxBuffer: 32 * 1024 * 1024 })
  if (result.error) throw new Error(`git could not start: ${result.error.message}`)
  if (result.status !== 0) throw new Error(`git ${args[0]} failed: ${result.stderr.trim()}`)
  return result.stdout
}

function checkRef(name, value) {
  if (!REF.test(value) || value.includes('..')) {
    throw new Error(`invalid ${name} ref: ${JSON.stringify(value)}`)
  }
  return value
}

export function parseCommits(raw) {
  const commits = []
  for (const record of raw.split(RECORD)) {
    const [hash, subject, body = ''] = record.replace(/^\n/, '').split(FIELD)
    if (!hash || !subject) continue
    const match = subject.match(HEADER)
    const breaking = Boolean(match?.groups.bang) || /^BREAKING[ -]CHANGE: /m.test(body)
    commits.push({
      hash: hash.slice(0, 7),
      type: match ? match.groups.type : 'other',
      scope: match?.groups.scope ?? null,
      subject: match ? match.groups.subject : subject,
      breaking,
    })
  }
  return commits
}

export function render(commits, { from, to, migrations }) {
  const lines = [`## Changes from ${from} to ${to}`, '']
  const line = (c) => `- ${c.scope ? `**${c.scope}:** ` : ''}${c.subject} (${c.hash})`
  const breaking = commits.filter((c) => c.breaking)
  if (breaking.length) lines.push('### Breaking changes', '', ...breaking.map(line), '')
  for (const [type, title] of SECTIONS) {
    const group = commits.filter((c) => c.type === type && !c.breaking)
    if (group.length) lines.push(`### ${title}`, '', ...group.map(line), '')
  }
  if (migrations.length) {
    lines.push('### Database migrations', '', ...migrations.map((file) => `- \`${file}\``), '')
  }
  const other = commits.filter((c) => !c.breaking && !SECTIONS.some(([type]) => type === c.type))
  if (other.length) lines.push(`_${other.length} other commit(s): chores, tests, CI._`, '')
  return lines.join('\n')
}

function main(argv) {
  if (argv.length < 1 || argv.length > 2) {
    process.stderr.write('usage: release-notes.mjs <from-ref> [<to-ref>]\n')
    return 2
  }
  const from = checkRef('from', argv[0])
  const to = checkRef('to', argv[1] ?? 'HEAD')
  const range = `${from}..${to}`
  const raw = git(['log', '--no-merges', `--max-count=${MAX_COMMITS}`,
    `--format=%H${FIELD}%s${FIELD}%b${RECORD}`, '--end-of-options', range])
  const migrations = git(['diff', '--name-only', '--diff-filter=A', '--end-of-options', range, '--', 'migrations'])
    .split('\n').filter(Boolean).sort()
  process.stdout.write(render(parseCommits(raw), { from, to, migrations }))
  return 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  }
}
