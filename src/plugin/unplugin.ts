import type { UnpluginFactory, UnpluginOptions } from 'unplugin'
import type { Options } from '../core/options'
import type { SkillsContext } from './context'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { createUnplugin } from 'unplugin'
import { createSkillsContext, runtimeEntry, SkillsAuditError } from './context'
import {
  ALIAS_ID,
  LOAD_FILTER,
  PLUGIN_NAME,
  RESOLVE_FILTER,
  RESOLVED_ID,
  resolveVirtual,
  RUNTIME_FILTER,
  VIRTUAL_ID,
} from './ids'

interface EsbuildMessage { text: string }
type NativeContext = { framework: string, compiler?: any, compilation?: any, loaderContext?: any } | undefined
function nativeOf(self: unknown): NativeContext {
  return (self as { getNativeBuildContext?: () => NativeContext }).getNativeBuildContext?.()
}

/**
 * unplugin's own placeholder files (webpack `_virtual_*`, Rspack `node_modules/.virtual`): they show up as
 * spurious changes.
 */
function isPlaceholder(id: string): boolean {
  return path.basename(id).startsWith('_virtual_') || id.includes(`node_modules${path.sep}.virtual${path.sep}`)
}

/** `\0virtual:skills-manifest…` from whatever form the host hands to `load`. */
function toResolved(id: string): string {
  const at = id.indexOf(RESOLVED_ID)
  return at === -1 ? id : id.slice(at)
}

/** The main module's exports, for a build that has already failed. */
const FAILED_MODULE = 'export default null\nexport const skills = []\nexport function getSkill() {}\n'
  + 'export async function loadManifest() {}\nexport async function findSkills() { return [] }\n'

export const unpluginFactory: UnpluginFactory<Options | undefined> = (options = {}, meta) => {
  const ctx = createSkillsContext(options)
  let viteCommand: 'serve' | 'build' | undefined
  let esbuildOutdir: string | undefined
  let started = false
  /** What esbuild's onStart reported this build: its onLoad runs anyway and must not report it again. */
  let startError: string | null = null

  /**
   * esbuild's onStart has no this.warn or this.error, but takes both from the callback's result. A thrown error
   * would be printed with a note and the stack of where the callback was registered.
   */
  async function esbuildStart(): Promise<{ errors: EsbuildMessage[], warnings: EsbuildMessage[] }> {
    const warnings: EsbuildMessage[] = []
    startError = null
    try {
      ctx.report(await ctx.audit(), { warn: text => warnings.push({ text }) })
    }
    catch (error) {
      if (!(error instanceof SkillsAuditError))
        throw error
      startError = error.message
      return { errors: [{ text: error.message }], warnings }
    }
    const { manifest } = ctx.options
    if (manifest !== false && !esbuildOutdir) {
      warnings.push({
        text:
          `${manifest} is not written: esbuild emits files only with \`outdir\` `
          + '(this build has `outfile` or none). Set `outdir`, or run `unplugin-skills build`.',
      })
    }
    return { errors: [], warnings }
  }

  /**
   * Throws a failing audit's report before Rolldown builds (Vite's configResolved, Rolldown's options hook):
   * Rolldown wraps an error thrown from a build hook in one of its own, which its CLI and Vite's print with
   * Rolldown's stack and an `errors: [Getter/Setter]` line.
   */
  async function failEarly(): Promise<void> {
    const failure = ctx.buildError(await ctx.audit())
    if (failure)
      throw failure
  }

  const plugin: UnpluginOptions = {
    name: PLUGIN_NAME,
    enforce: 'pre',

    async buildStart() {
      // esbuild never says what changed: walk again on rebuilds (unchanged skills cost a stat per file).
      if (meta.framework === 'esbuild' && started)
        ctx.markAllChanged()
      started = true
      if (meta.framework === 'esbuild')
        return (await esbuildStart()) as unknown as void
      let audit
      try {
        audit = await ctx.audit()
      }
      catch (error) {
        // Dev servers must start whatever happens; the virtual module reports the failure when requested.
        if (!ctx.dev)
          throw error
        console.error(`[${PLUGIN_NAME}] the skills audit crashed: ${(error as Error).message}`)
        return
      }
      const native = nativeOf(this)
      const compilation = native?.compilation
      const WebpackError = native?.compiler?.webpack?.WebpackError
      if (compilation && WebpackError) {
        // webpack/Rspack: no this.warn here; the compilation's lists are the host's channel.
        try {
          ctx.report(audit, { warn: m => compilation.warnings.push(new WebpackError(`[${PLUGIN_NAME}] ${m}`)) })
        }
        catch (error) {
          // A throw ends a watcher: in watch mode fail this compilation instead, and recover on the next.
          if (!native.compiler.watchMode)
            throw error
          const failure = new WebpackError((error as Error).message)
          failure.stack = ''
          compilation.errors.push(failure)
        }
        return
      }
      const warn = (this as { warn?: (m: string) => void }).warn
      ctx.report(audit, { warn: warn && ((m: string) => warn.call(this, m)) })
    },

    resolveId: {
      filter: { id: RESOLVE_FILTER },
      handler(id) {
        // esbuild would put the runtime in the plugin's namespace, where nothing loads files: see esbuild.setup.
        if (RUNTIME_FILTER.test(id))
          return meta.framework === 'esbuild' ? null : runtimeEntry()
        return resolveVirtual(id)
      },
    },

    load: {
      filter: { id: LOAD_FILTER },
      async handler(rawId) {
        const id = toResolved(rawId)
        const audit = await ctx.audit()
        // Vite dev invalidates through hotUpdate; watch edges there would add every skill file to the module graph.
        if (viteCommand !== 'serve') {
          const deps = ctx.moduleDeps(id, audit)
          for (const file of deps.files) this.addWatchFile(file)
          const loaderContext = nativeOf(this)?.loaderContext
          // webpack/Rspack see new skill folders only through context (directory) dependencies; Rollup's
          // watcher takes dirs.
          if (loaderContext?.addContextDependency) {
            for (const dir of deps.dirs) loaderContext.addContextDependency(dir)
          }
          else {
            for (const dir of deps.dirs) this.addWatchFile(dir)
          }
        }
        if (ctx.dev) {
          ctx.report(audit, { warn: m => this.warn(m) })
          const error = ctx.devError(audit)
          if (error)
            this.error(error)
        }
        return await ctx.moduleCode(id, audit)
      },
    },

    watchChange(id) {
      if (!isPlaceholder(id))
        ctx.markChanged(id)
    },

    async buildEnd() {
      const audit = ctx.last
      // No audit (invalid options, a crash): buildStart reported it; reading the options would throw it again.
      if (!audit?.ok)
        return
      const { manifest } = ctx.options
      if (manifest === false || viteCommand === 'serve')
        return
      if (meta.framework === 'esbuild' && !esbuildOutdir)
        return
      // The complete manifest (discovery index included): the bytes `unplugin-skills build` writes.
      this.emitFile({ type: 'asset', fileName: manifest, source: (await audit.complete()).json })
    },

    vite: {
      async configResolved(config) {
        ctx.setRoot(config.root)
        viteCommand = config.command
        ctx.setDev(config.command === 'serve' && !config.isProduction)
        // Plugin warnings in dev are printed as `warning: <text>` plus a `Plugin:` line: a report that says
        // `warning: error ...` twice over. The server's logger prints our lines as written.
        if (config.command === 'serve') {
          const { logger } = config
          ctx.setLogger((level, message) => logger[level](message, { timestamp: true }))
        }
        // A one-shot build fails here, before Rolldown runs (see failEarly). Watch builds fail in buildStart.
        if (config.command === 'build' && !config.build.watch)
          await failEarly()
      },
      configureServer(server) {
        serveManifest(server, ctx)
      },
      hotUpdate({ file, modules }) {
        if (!ctx.markChanged(file))
          return
        // Created and deleted files (a whole new skill folder included) have no import edge: invalidate by hand.
        const graph = this.environment.moduleGraph
        const ours = ctx.affectedModules([file]).flatMap(id => graph.getModuleById(id) ?? [])
        for (const mod of ours) graph.invalidateModule(mod)
        return [...new Set([...ours, ...modules])]
      },
      async writeBundle(output, bundle) {
        // SSR builds drop emitted assets (build.emitAssets is off there): write the manifest ourselves.
        const audit = ctx.last
        const { manifest } = ctx.options
        if (!audit?.ok || manifest === false || manifest in bundle || !output.dir)
          return
        const file = path.join(output.dir, manifest)
        fs.mkdirSync(path.dirname(file), { recursive: true })
        fs.writeFileSync(file, (await audit.complete()).json)
      },
    },

    rolldown: {
      async options(input) {
        ctx.setRoot(input.cwd)
        if (!this.meta.watchMode)
          await failEarly()
      },
    },

    webpack(compiler) {
      ctx.setRoot(compiler.context)
      rewriteVirtualScheme(compiler)
    },
    rspack(compiler) {
      ctx.setRoot(compiler.context)
    },

    esbuild: {
      onResolveFilter: RESOLVE_FILTER,
      onLoadFilter: LOAD_FILTER,
      config(initialOptions) {
        ctx.setRoot(initialOptions.absWorkingDir)
        esbuildOutdir = initialOptions.outdir
      },
      setup(build) {
        build.onResolve({ filter: RUNTIME_FILTER }, () => ({ path: runtimeEntry() }))
        // Registered before unplugin's generic onLoad, so it wins: unplugin can't return `watchDirs`,
        // and without them esbuild's watch mode misses new skill folders.
        build.onLoad({ filter: LOAD_FILTER, namespace: PLUGIN_NAME }, async (args) => {
          const id = toResolved(args.path)
          let audit
          try {
            audit = await ctx.audit()
          }
          catch (error) {
            // The failed build already says why; a module with the same exports keeps esbuild from adding
            // "no matching export" errors to it.
            if (error instanceof SkillsAuditError && error.message === startError)
              return { contents: FAILED_MODULE, loader: 'js' }
            throw error
          }
          const contents = await ctx.moduleCode(id, audit)
          if (contents === null)
            return undefined
          const deps = ctx.moduleDeps(id, audit)
          return { contents, loader: 'js', resolveDir: ctx.options.root, watchFiles: deps.files, watchDirs: deps.dirs }
        })
      },
    },
  }
  // Plain Rollup has no node_modules resolution: without this the runtime's own imports end up external.
  return meta.framework === 'rollup' ? [plugin, runtimeDependencies()] : plugin
}

/** Resolves bare imports of the runtime (e.g. `@noble/hashes`) from where the runtime is installed. */
function runtimeDependencies(): UnpluginOptions {
  const runtime = runtimeEntry()
  const require = createRequire(runtime)
  return {
    name: `${PLUGIN_NAME}:runtime-dependencies`,
    resolveId: {
      filter: { id: /^[^./\0~][^:]*$/ },
      handler(id, importer) {
        if (!importer || path.dirname(importer) !== path.dirname(runtime))
          return null
        try {
          return require.resolve(id)
        }
        catch {
          return null
        }
      },
    },
  }
}

/** The part of Vite's dev server used here (typed locally: vite is an optional peer). */
interface DevServer {
  watcher: { add: (path: string) => unknown }
  config: { base: string }
  middlewares: {
    use: (
      fn: (
        req: { url?: string },
        res: { statusCode: number, setHeader: (k: string, v: string) => unknown, end: (body: string) => unknown },
        next: (error?: unknown) => void,
      ) => void,
    ) => unknown
  }
}

/** Dev: watch the roots (they may sit outside Vite's root) and serve the current manifest JSON. */
function serveManifest(server: DevServer, ctx: SkillsContext): void {
  for (const root of ctx.options.roots) {
    const dir = path.resolve(ctx.options.root, root.path)
    if (fs.existsSync(dir))
      server.watcher.add(dir)
  }
  const name = ctx.options.manifest
  if (name === false)
    return
  const url = `${server.config.base.replace(/\/?$/, '/')}${name}`
  server.middlewares.use((req, res, next) => {
    if (req.url?.split('?')[0] !== url)
      return next()
    ctx
      .audit()
      .then(async (audit) => {
        res.setHeader('Content-Type', 'application/json; charset=utf-8')
        res.setHeader('Cache-Control', 'no-store')
        // A failing audit serves its errors, as the module does: never a manifest the build would refuse.
        const errors = audit.diagnostics.filter(d => d.severity === 'error')
        if (errors.length) {
          res.statusCode = 500
          res.end(`${JSON.stringify({ ok: false, diagnostics: errors }, null, 2)}\n`)
          return
        }
        res.end((await audit.complete()).json)
      })
      .catch(next)
  })
}

/** webpack treats `virtual:` as a URI scheme and never asks resolvers: rewrite it to the alias first. */
function rewriteVirtualScheme(compiler: any): void {
  compiler.hooks.normalModuleFactory.tap(PLUGIN_NAME, (factory: any) => {
    factory.hooks.beforeResolve.tap(PLUGIN_NAME, (data: { request?: string }) => {
      const request = data.request
      if (request === VIRTUAL_ID || request?.startsWith(`${VIRTUAL_ID}/`))
        data.request = ALIAS_ID + request.slice(VIRTUAL_ID.length)
    })
  })
}

export const unplugin = /* #__PURE__ */ createUnplugin(unpluginFactory)
export { SkillsAuditError }
export default unplugin
