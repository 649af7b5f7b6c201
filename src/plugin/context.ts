import type { AuditResult } from '../audit/engine'
import type { Options } from '../core/options'
import type { Diagnostic } from '../core/types'
import type { DtsTarget } from './dts'
import type { Host } from './report'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { SkillsEngine } from '../audit/engine'
import { ConfigError, loadConfigSync } from '../core/config'
import { formatReport, PREFIX } from '../core/format'
import { isInside, writeIfChanged } from '../core/fs'
import { OptionsError } from '../core/validate-options'
import { indexModule, indexSkillModule, loadersModule, mainModule, postingsModule, skillModule } from './codegen'
import { dtsTarget, generateDts } from './dts'
import { parseVirtual, RESOLVED_ID, resolvedSkillId, sharedModuleIds } from './ids'
import { createReporter } from './report'

/** An error whose printed form is the report itself: no stack trace under a diagnostics list. */
export class SkillsAuditError extends Error {
  constructor(report: string) {
    super(report)
    this.name = 'SkillsAuditError'
    // Hosts print the message, then `stack` minus its head: Rollup strips `name: message\n`, Rolldown (and so
    // Vite) `name: message`. With the newline both leave nothing, so the report is printed once.
    this.stack = `${this.name}: ${report}\n`
  }

  /** `console.error(error)` and `util.inspect` (webpack's callback, the Vite CLI) print the report alone. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.message
  }
}

/** The error a failed audit raises: `shown` with code frames, then the summary line of everything found. */
function auditFailure(audit: AuditResult, shown: readonly Diagnostic[]): SkillsAuditError {
  const options = { sources: audit.sources, repeats: 1, counted: audit.diagnostics }
  const report = formatReport(shown, audit.stats.skills, options)
  return new SkillsAuditError(`${PREFIX} skills audit failed\n\n${report}`)
}

function dtsNotice(dts: DtsTarget, root: string): string {
  const rel = path.relative(root, dts.file).split(path.sep).join('/')
  return dts.included
    ? `created ${rel}: skill names as types for getSkill() and findSkills()`
    : `created ${rel}: skill names as types; add "${rel}" to your tsconfig's "include" to use them`
}

/** The error a build fails with: every problem but notes, errors first (see formatReport). Null when none. */
function buildError(audit: AuditResult): SkillsAuditError | null {
  if (!audit.diagnostics.some(d => d.severity === 'error'))
    return null
  return auditFailure(audit, audit.diagnostics.filter(d => d.severity !== 'info'))
}

/**
 * The engine of a plugin instance: `skills.config.*` in the project root (the file the CLI reads), with the inline
 * plugin options over it. A bad config or option fails the build with its message, never a stack trace.
 */
function createEngine(inline: Options, projectRoot: string): { engine: SkillsEngine, dts: DtsTarget | null } {
  try {
    const dir = inline.root ?? projectRoot
    const { options: fileOptions, file, diagnostics } = loadConfigSync(dir)
    const source = file ? `${path.basename(file)} and plugin options` : 'plugin options'
    const engine = new SkillsEngine({ ...fileOptions, ...inline, root: inline.root ?? fileOptions.root ?? dir }, {
      content: true,
      source,
      diagnostics,
    })
    // `dts: true` goes where the tsconfig looks; a path is the user's choice.
    const { dts } = engine.options
    const chosen = (inline.dts ?? fileOptions.dts) === true
    return { engine, dts: !dts ? null : chosen ? dtsTarget(engine.options.root) : { file: dts, included: true } }
  }
  catch (error) {
    if (error instanceof ConfigError || error instanceof OptionsError)
      throw new SkillsAuditError(`${PREFIX} ${error.message}`)
    throw error
  }
}

/** What one virtual module depends on: its host must watch these to rebuild it. */
export interface ModuleDeps {
  files: string[]
  dirs: string[]
}

/**
 * Everything a plugin instance knows, created once per instance. The bundler hooks only call this:
 * audit (cached by file stamps; only touched skills are re-read), serve modules, report.
 */
export function createSkillsContext(options: Options = {}) {
  let root = options.root
  let engine: SkillsEngine | null = null
  let result: AuditResult | null = null
  let running: Promise<AuditResult> | null = null
  let pending: Set<string> | null = null
  let full = false
  let dev = false
  const reporter = createReporter()
  /** Vite's dev server logger: reports are printed through it (see Host.log). */
  let logger: Host['log']
  /** Postings shards served so far (their ids are numbered): invalidated with the index on changes. */
  let servedShards = 0
  // Per audit: each skill's own files and dirs, so a skill module only depends on its skill.
  const depsByAudit = new WeakMap<AuditResult, Map<string, ModuleDeps>>()

  let dts: DtsTarget | null = null
  /** One-line notices (a created skills.d.ts) printed by the next report. */
  const notices: string[] = []

  const getEngine = (): SkillsEngine => {
    if (!engine)
      ({ engine, dts } = createEngine(options, root ?? process.cwd()))
    return engine
  }

  async function run(): Promise<AuditResult> {
    const changed = full || !result ? undefined : pending ? [...pending] : []
    pending = null
    full = false
    const next = await getEngine().audit({ mode: dev ? 'dev' : 'build', changed })
    result = next
    getEngine()
    if (dts) {
      const created = !fs.existsSync(dts.file)
      writeIfChanged(dts.file, generateDts(next.manifest))
      if (created)
        notices.push(dtsNotice(dts, getEngine().options.root))
    }
    return next
  }

  function skillDeps(audit: AuditResult): Map<string, ModuleDeps> {
    let map = depsByAudit.get(audit)
    if (map)
      return map
    map = new Map()
    const { root: projectRoot } = getEngine().options
    const dirs = audit.manifest.skills.map(s => path.resolve(projectRoot, s.path))
    for (const dir of dirs) map.set(dir, { files: [], dirs: [] })
    // Walk up from each path to its skill: O(paths x depth), not O(paths x skills).
    const owner = (p: string): ModuleDeps | undefined => {
      for (let dir = p; ; dir = path.dirname(dir)) {
        const deps = map!.get(dir)
        if (deps || path.dirname(dir) === dir)
          return deps
      }
    }
    for (const file of audit.watch.files) owner(path.dirname(file))?.files.push(file)
    for (const dir of audit.watch.dirs) owner(dir)?.dirs.push(dir)
    depsByAudit.set(audit, map)
    return map
  }

  return {
    get options() {
      return getEngine().options
    },
    get dev() {
      return dev
    },
    /** Only before the first audit: the bundler's root, unless the user gave one. */
    setRoot(dir: string | undefined) {
      if (!engine && !options.root && dir)
        root = path.resolve(dir)
    },
    setDev(value: boolean) {
      dev = value
    },
    /** The logger every report prints through from now on (Vite's, in dev), whatever channel a hook offers. */
    setLogger(log: Host['log']) {
      logger = log
    },
    /** The current audit, re-run first when files changed (serialised: one audit at a time). */
    async audit(): Promise<AuditResult> {
      // eslint-disable-next-line no-unmodified-loop-condition -- the audit awaited clears `running` when it ends
      while (running) await running
      if (result && !pending && !full)
        return result
      running = run()
      try {
        return await running
      }
      finally {
        running = null
      }
    },
    /** Records a changed path; returns whether it concerns the skills. */
    markChanged(file: string): boolean {
      const abs = path.resolve(file)
      if (!getEngine().isRelevant(abs)) {
        return false
      }
      ;(pending ??= new Set()).add(abs)
      reporter.changed(abs)
      return true
    },
    /** The next audit walks every skill again (stat only for unchanged ones): for hosts that don't say what changed. */
    markAllChanged() {
      if (result)
        full = true
    },
    /**
     * Prints the audit's report (through the host where it has a channel) and, outside dev, throws on errors.
     * Each distinct result is reported once, however often buildStart runs (see createReporter).
     */
    report(audit: AuditResult, host: Host = {}): void {
      const failure = dev ? null : buildError(audit)
      if (failure) {
        reporter.reset()
        throw failure
      }
      const context = { dev, root: getEngine().options.root, notices }
      reporter.report(audit, logger ? { log: logger } : host, context)
    },
    /** The error a build fails with (its report holds warnings too), or null when the audit has no errors. */
    buildError,
    /** The dev-time error for the virtual module: the overlay shows it; the server keeps running. */
    devError(audit: AuditResult): SkillsAuditError | null {
      const errors = audit.diagnostics.filter(d => d.severity === 'error')
      return errors.length ? auditFailure(audit, errors) : null
    },
    /** Source of a resolved virtual id, or null when it isn't one of ours. */
    async moduleCode(id: string, audit: AuditResult): Promise<string | null> {
      const mod = parseVirtual(id)
      if (mod.kind === 'main')
        return mainModule(audit.manifest)
      // The discovery index is built on demand (and cached by content): only when a bundle includes it.
      if (mod.kind === 'index')
        return indexModule((await audit.complete()).manifest)
      if (mod.kind === 'loaders')
        return loadersModule(audit.manifest)
      if (mod.kind === 'postings') {
        servedShards = Math.max(servedShards, mod.shard + 1)
        return postingsModule((await audit.complete()).manifest, mod.shard)
      }
      if (mod.kind === 'index-skill')
        return indexSkillModule((await audit.complete()).manifest, mod.name)
      if (mod.kind === 'skill') {
        const skill = audit.manifest.skills.find(s => s.name === mod.name)
        return skill ? skillModule(skill) : `export default undefined\n`
      }
      return null
    },
    /** The files and dirs a virtual module is built from: a skill module depends on its skill only. */
    moduleDeps(id: string, audit: AuditResult): ModuleDeps {
      const mod = parseVirtual(id)
      const lock = getEngine().options.lockFile
      if (mod.kind === 'skill') {
        const skill = audit.manifest.skills.find(s => s.name === mod.name)
        const own = skill && skillDeps(audit).get(path.resolve(getEngine().options.root, skill.path))
        // An unknown name still watches the roots: the skill may appear later.
        return own ? { files: [...own.files, lock], dirs: own.dirs } : { files: [lock], dirs: audit.watch.dirs }
      }
      // Content-addressed (see postingsModuleId): the index head, which watches everything, names new parts.
      if (mod.kind === 'postings' || mod.kind === 'index-skill')
        return { files: [], dirs: [] }
      return audit.watch
    },
    /**
     * Resolved ids of the modules to invalidate after `files` changed: the entry, loaders and discovery
     * modules, the touched skills.
     */
    affectedModules(files: readonly string[]): string[] {
      const ids = [RESOLVED_ID, ...sharedModuleIds(result?.manifest.skills.map(s => s.name) ?? [], servedShards)]
      const { root: projectRoot } = getEngine().options
      for (const skill of result?.manifest.skills ?? []) {
        const dir = path.resolve(projectRoot, skill.path)
        if (files.some(f => isInside(dir, path.resolve(f))))
          ids.push(resolvedSkillId(skill.name))
      }
      return ids
    },
    get last() {
      return result
    },
  }
}

export type SkillsContext = ReturnType<typeof createSkillsContext>

/** Absolute path of the browser runtime next to this build of the plugin (dist/runtime.mjs, or src in tests). */
export function runtimeEntry(): string {
  const here = path.dirname(fileURLToPath(import.meta.url))
  return path.basename(here) === 'plugin'
    ? path.resolve(here, '../runtime/index.ts')
    : path.resolve(here, 'runtime.mjs')
}
