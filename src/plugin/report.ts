import type { AuditResult } from '../audit/engine'
import type { Diagnostic } from '../core/types'
import path from 'node:path'
import { formatReport, plural, PREFIX } from '../core/format'
import { isInside } from '../core/fs'

export type LogLevel = 'error' | 'warn' | 'info'

/** Where a plugin instance prints. */
export interface Host {
  /** The bundler's warning channel: it adds its own tag and level word. */
  warn?: (message: string) => void
  info?: (message: string) => void
  /**
   * A logger that prints lines as given (Vite's dev server): the report goes there at the level of its worst
   * problem, with our prefix, instead of as a plugin warning (`warning: error ...`, a `Plugin:` line).
   */
  log?: (level: LogLevel, message: string) => void
}

/** `84 warnings in 8 skills that match .manifest.lock (...)`: what a build against a matching lock prints. */
function knownWarnings(known: readonly Diagnostic[], lockFile: string): string {
  const skills = new Set(known.map(d => d.skill)).size
  return `${plural(known.length, 'warning')} in ${plural(skills, 'skill')} that match ${lockFile}: `
    + '`npx unplugin-skills check` lists them'
}

/**
 * The skills whose locked entry matches them: their files are the ones reviewed when the lock was written, so
 * their warnings are counted in one line (`check` lists them). A lock that was just written, is missing or
 * unreadable vouches for none.
 */
function matchingSkills(audit: AuditResult): Set<string> {
  const { status, drift } = audit.lock
  if (status !== 'ok' && status !== 'unchanged' && status !== 'drift')
    return new Set()
  const drifted = new Set(drift.map(d => d.name))
  return new Set(audit.manifest.skills.map(s => s.name).filter(name => !drifted.has(name)))
}

const keyOf = (d: Diagnostic): string => JSON.stringify([d.code, d.severity, d.file, d.line, d.column, d.message])

/** What kind of report one is. */
interface Printing {
  /** The first report of this plugin instance (a later one follows a change). */
  first: boolean
  /** `skills audit after a change to pdf-tools:`; empty for a first report. */
  heading: string
  dev: boolean
  /** The host prints our lines as written (Vite's dev logger): a first report has a heading too. */
  lines: boolean
}

/**
 * The plugin's report of an audit. The first lists the problems of skills the lock doesn't vouch for; each
 * later one (a watch rebuild, a dev edit) is the whole state again, never only what is new: a report that
 * showed the last edited skill alone would have a table and a summary that deny the others' problems.
 * Each result is printed once, and a result whose problems are those already printed is not printed again.
 */
export function createReporter() {
  let last: AuditResult | null = null
  let reports = 0
  /** The problems of the last report printed; null before the first, or after a failure was thrown. */
  let printed: string | null = null
  /** Paths changed since the last report: its heading names their skills. */
  const changed = new Set<string>()

  /** `pdf-tools and .manifest.lock`: what the changes touched, by skill (in the audit or the one before). */
  function touched(audit: AuditResult, root: string): string {
    const skills = new Map<string, string>()
    for (const s of [...(last?.manifest.skills ?? []), ...audit.manifest.skills])
      skills.set(path.resolve(root, s.path), s.name)
    const names = new Set<string>()
    for (const file of changed) {
      for (const [dir, name] of skills) {
        if (isInside(dir, file))
          names.add(name)
      }
      if (file === path.resolve(root, audit.lock.file))
        names.add(audit.lock.file)
    }
    return names.size ? ` to ${joined([...names].sort())}` : ''
  }

  return {
    /** Records a path that changed: the next report says which skills it re-checked. */
    changed(file: string): void {
      changed.add(path.resolve(file))
    },
    /** After a thrown failure: the next result is reported whatever it holds. */
    reset(): void {
      printed = null
      last = null
    },
    /**
     * Prints `audit` unless it was printed already. `dev`: errors are listed (nothing throws), and lock drift,
     * a warning there, is said to fail a build. `notices` are one-line notes printed after it.
     */
    report(audit: AuditResult, host: Host, context: { dev: boolean, root: string, notices: string[] }): void {
      if (audit === last)
        return
      const first = reports++ === 0
      const heading = first ? '' : `skills audit after a change${touched(audit, context.root)}:`
      last = audit
      changed.clear()
      const keys = audit.diagnostics.map(keyOf).join('\n')
      const same = keys === printed
      printed = keys
      const { log } = host
      const line = (level: LogLevel, channel: ((m: string) => void) | undefined) => (m: string): void =>
        // eslint-disable-next-line no-console -- no host channel: the line is printed with our prefix
        log ? log(level, `${PREFIX} ${m}`) : channel ? channel(m) : console[level](`${PREFIX} ${m}`)
      // Hosts have no info channel: lock notices (and a report of no problems) are printed, not warned.
      const info = line('info', host.info)
      const report = same ? null : print(audit, { first, heading, dev: context.dev, lines: Boolean(log) })
      if (report)
        line(report.level, report.level === 'info' ? host.info : host.warn)(report.text)
      for (const d of audit.diagnostics) {
        if (d.code === 'lock/created' || d.code === 'lock/updated')
          info(d.message)
      }
      for (const notice of context.notices.splice(0)) info(notice)
    },
  }
}

/** `a, b and c`. */
function joined(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/**
 * One report: the problems listed (errors first), the table and summary of all, then one-line notes; at the
 * level of its worst problem. Null when there is nothing to say.
 */
function print(audit: AuditResult, how: Printing): { level: LogLevel, text: string } | null {
  const { dev } = how
  const shown = audit.diagnostics.filter(d => d.severity === 'warning' || (d.severity === 'error' && dev))
  const matching = matchingSkills(audit)
  const known = shown.filter(d => d.severity === 'warning' && d.skill && matching.has(d.skill))
  const list = known.length ? shown.filter(d => !known.includes(d)) : shown
  const parts: string[] = []
  // A first report of a clean state says nothing; a later one says the problems are gone.
  if (list.length || !how.first) {
    const skills = audit.manifest.skills.map(s => ({ name: s.name, capabilities: s.capabilities.detected }))
    const options = { sources: audit.sources, skills, repeats: 1, counted: audit.diagnostics }
    parts.push(formatReport(list, audit.stats.skills, options).trimEnd())
  }
  if (known.length)
    parts.push(knownWarnings(known, audit.lock.file))
  if (dev && audit.lock.status === 'drift') {
    const n = audit.lock.drift.length
    parts.push(
      `${plural(n, 'skill')} ${n === 1 ? 'differs' : 'differ'} from ${audit.lock.file}: a warning in dev, an error `
      + 'in a build (review, then run `npx unplugin-skills lock`)',
    )
  }
  if (!parts.length)
    return null
  // Our own lines in a logger of lines (Vite's) open with a heading; a host's warning has the host's.
  const heading = how.heading || (how.lines && list.length ? 'skills audit:' : '')
  const text = heading ? `${heading}\n\n${parts.join('\n')}` : parts.join('\n')
  const level = audit.diagnostics.some(d => d.severity === 'error')
    ? 'error'
    : audit.diagnostics.some(d => d.severity === 'warning') ? 'warn' : 'info'
  return { level, text }
}
