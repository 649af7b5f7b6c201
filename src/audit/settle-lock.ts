/**
 * The lock stage: the tree as audited, compared with `.manifest.lock`, and the lock verified, created or
 * updated as the options say. Every outcome is a diagnostic, never a throw.
 *
 * Who writes the lock: `check` never (a missing lock is one notice, an error in CI); `lock` creates and
 * updates it; a build creates a missing lock (or applies `lock: 'update'`) only when its audit passes, with a
 * notice naming the file and the skill count, and never in CI. A failing build writes nothing.
 */
import type { Diagnostic } from '../core/types'
import type { LockRead, SkillDrift } from './lockfile'
import { compareBytewise, diagnostic } from '../core/diagnostics'
import { writeFileAtomic } from '../core/fs'
import { describeDrift, LOCKFILE_VERSION, removedSkill } from './lockfile'

export type LockStatus
  = | 'off'
    | 'ok'
    | 'created'
    | 'updated'
    | 'missing'
    | 'drift'
    | 'corrupt'
    | 'unchanged'
    | 'outdated'

export interface LockOutcome {
  status: LockStatus
  /** The lock's project-relative path. */
  file: string
  drift: SkillDrift[]
  /** The lock was version 1 and was rewritten as the current version. */
  upgraded?: boolean
}

/** What a skill tells the lock stage (a `ProcessedSkill` is one). */
export interface LockedSkillView {
  name: string
  location: { relDir: string }
  /** Its difference from its locked entry; null when equal, or when there was no lock to compare with. */
  drift: SkillDrift | null
}

export interface LockSettlement {
  /** The lock as read; null when the lock is off. */
  read: LockRead | null
  /** The lock's absolute path, and as diagnostics show it. */
  lockFile: string
  display: string
  /** The lock text that describes the tree as it is now (built only when written or compared). */
  text: () => string
  skills: readonly LockedSkillView[]
  /** Discovery errors or duplicate skill names: the lock must not be written, even by the `lock` command. */
  unsafe: boolean
  /** The audit has errors apart from the lock's own: a build writes no lock. */
  failing: boolean
  /** A root could not be resolved: locked skills not found may be under it, so they are not reported removed. */
  partial: boolean
  /**
   * Who settles the lock: `verify` only reads it (`check`); `lock` writes it as the tree is (the CLI's `lock`
   * command); `build` creates a missing lock, and applies `update`, when its audit passes.
   */
  by: 'verify' | 'lock' | 'build'
  /** Write the lock when it drifted (`lock: 'update'`; always for the `lock` command; never for `verify`). */
  update: boolean
  /** Replace a corrupt lock too (`lock --force`). */
  force: boolean
  /** CI never creates a missing lock. */
  ci: boolean
  /** `dev`: drift is a warning. */
  mode: 'build' | 'dev'
}

/** Settles the lock; diagnostics go to `out`. `written`: the lock file changed on disk. */
export function settleLock(input: LockSettlement, out: Diagnostic[]): { lock: LockOutcome, written: boolean } {
  const { read, display: file } = input
  if (!read)
    return { lock: { status: 'off', file, drift: [] }, written: false }
  const settle = new Settle(input, out)
  const drift = read.status === 'ok' ? driftOf(read, input.skills, input.partial) : []
  const lock
    = read.status === 'corrupt'
      ? settle.corrupt(read.diagnostic, drift)
      : read.status === 'missing'
        ? settle.missing(drift)
        : settle.drifted(read.text, drift, read.outdated)
  return { lock, written: settle.written }
}

/**
 * Every skill that differs from its locked entry, and every locked skill no longer found, by name. With a root
 * missing (`partial`), a locked skill not found is not reported: the missing root is the error to fix first,
 * and one drift per skill of the lock would bury it.
 */
function driftOf(
  read: Extract<LockRead, { status: 'ok' }>,
  skills: readonly LockedSkillView[],
  partial: boolean,
): SkillDrift[] {
  const drift: SkillDrift[] = []
  for (const s of skills) {
    if (s.drift)
      drift.push(s.drift)
  }
  if (partial)
    return drift.sort((a, b) => compareBytewise(a.name, b.name))
  const present = new Set(skills.map(s => s.name))
  for (const locked of read.lock.skills) {
    if (!present.has(locked.name))
      drift.push(removedSkill(locked))
  }
  return drift.sort((a, b) => compareBytewise(a.name, b.name))
}

/** One settlement: each outcome of the lock as read, and the writes they make. */
class Settle {
  written = false

  constructor(
    private readonly input: LockSettlement,
    private readonly out: Diagnostic[],
  ) {}

  corrupt(unreadable: Diagnostic, drift: SkillDrift[]): LockOutcome {
    const { input } = this
    if (input.by === 'lock' && input.force && !input.unsafe) {
      if (this.write()) {
        const message = `replaced the unreadable lock ${input.display}`
        this.info('lock/updated', message, 'Review the diff before committing it.')
      }
      return this.outcome('updated', drift)
    }
    this.out.push(unreadable)
    return this.outcome('corrupt', drift)
  }

  missing(drift: SkillDrift[]): LockOutcome {
    const { input } = this
    if (input.ci && input.by !== 'lock') {
      this.out.push(
        diagnostic({
          code: 'lock/missing',
          severity: 'error',
          message: `${input.display} is missing, and CI never creates it`,
          file: input.display,
          hint: 'Run `npx unplugin-skills lock` locally and commit the lock file.',
        }),
      )
      return this.outcome('missing', drift)
    }
    if (input.by === 'verify') {
      // `check` verifies and never writes: outside CI a missing lock is one warning, not a failure.
      this.out.push(
        diagnostic({
          code: 'lock/missing',
          severity: 'warning',
          message: `${input.display} is missing: run \`npx unplugin-skills lock\` to create it`,
          file: input.display,
          hint: '`check` never writes the lock: `lock` does (and prints the capabilities to review), as does a build '
            + 'that passes. Commit it; in CI a missing lock is an error.',
        }),
      )
      return this.outcome('missing', drift)
    }
    if (!this.mayWrite())
      return this.outcome('missing', drift)
    if (this.write()) {
      const message = `created ${input.display} with ${input.skills.length} skill(s); commit it`
      this.info('lock/created', message, null)
    }
    return this.outcome('created', [])
  }

  drifted(lockedText: string, drift: SkillDrift[], outdated: Diagnostic | null): LockOutcome {
    const { input } = this
    if (!drift.length && !outdated)
      return this.outcome('ok', drift)
    if (!input.update) {
      if (outdated)
        this.out.push({ ...outdated, severity: input.mode === 'dev' ? 'warning' : 'error' })
      for (const d of drift) this.out.push(driftDiagnostic(d, input))
      return this.outcome(drift.length ? 'drift' : 'outdated', drift)
    }
    if (!this.mayWrite())
      return this.outcome('drift', drift)
    if (lockedText === input.text())
      return this.outcome('unchanged', [])
    if (this.write()) {
      const upgraded = outdated ? ` (upgraded to lockfileVersion ${LOCKFILE_VERSION})` : ''
      const changes = drift.length ? `:\n${drift.map(describeDrift).join('\n')}` : ''
      this.info('lock/updated', `updated ${input.display}${upgraded}${changes}`, null)
    }
    return outdated ? { ...this.outcome('updated', drift), upgraded: true } : this.outcome('updated', drift)
  }

  /**
   * Whether this settlement may write the lock: the `lock` command unless discovery failed (then it says so);
   * a build only when its audit passes (its errors are the report; the lock waits for a green build).
   */
  private mayWrite(): boolean {
    const { input } = this
    if (input.by === 'lock' && input.unsafe)
      this.refuse()
    return input.by === 'lock' ? !input.unsafe : input.by === 'build' && !input.failing
  }

  private outcome(status: LockStatus, drift: SkillDrift[]): LockOutcome {
    return { status, file: this.input.display, drift }
  }

  private write(): boolean {
    try {
      writeFileAtomic(this.input.lockFile, this.input.text())
      this.written = true
      return true
    }
    catch (error) {
      this.out.push(
        diagnostic({
          code: 'lock/write-failed',
          severity: 'error',
          message: `the lock could not be written: ${(error as Error).message}`,
          file: this.input.display,
          hint: null,
        }),
      )
      return false
    }
  }

  private refuse(): void {
    this.out.push(
      diagnostic({
        code: 'lock/not-written',
        severity: 'error',
        message: 'the lock was not written: discovery had errors or duplicate skill names',
        file: this.input.display,
        hint: 'Fix the errors above, then write the lock again.',
      }),
    )
  }

  private info(code: string, message: string, hint: string | null): void {
    this.out.push(diagnostic({ code, severity: 'info', message, file: this.input.display, hint }))
  }
}

function driftDiagnostic(d: SkillDrift, input: LockSettlement): Diagnostic {
  const first = d.files[0]
  const located = input.skills.find(s => s.name === d.name)
  const lineEndingsOnly = d.files.length > 0 && d.files.every(f => f.lineEndings)
  return diagnostic({
    code: 'lock/drift',
    severity: input.mode === 'dev' ? 'warning' : 'error',
    message: describeDrift(d),
    file: located && first ? `${located.location.relDir}/${first.path}` : input.display,
    skill: d.name,
    hint: lineEndingsOnly
      ? 'Only line endings differ (CRLF vs LF): add `* text=auto eol=lf` to .gitattributes so checkouts match the lock.'
      : 'If the change is intended, review it and run `npx unplugin-skills lock` to update the lock; otherwise restore '
        + 'the files.',
  })
}
