import fs from 'node:fs'
import path from 'node:path'
import { createUnplugin } from 'unplugin'
import type { UnpluginFactory } from 'unplugin'
import type { Options } from '../options'
import { createSkillsContext, runtimeEntry, SkillsAuditError } from './context'
import { ALIAS_ID, LOAD_FILTER, PLUGIN_NAME, RESOLVE_FILTER, resolveVirtual, RUNTIME_SUFFIX, VIRTUAL_ID } from './ids'

type NativeContext = { framework: string; compiler?: any; compilation?: any; loaderContext?: any } | undefined

export const unpluginFactory: UnpluginFactory<Options | undefined> = (options = {}, meta) => {
  const ctx = createSkillsContext(options)
  let viteCommand: 'serve' | 'build' | undefined
  let esbuildOutdir: string | undefined

  return {
    name: PLUGIN_NAME,
    enforce: 'pre',

    async buildStart() {
      const native = (this as { getNativeBuildContext?: () => NativeContext }).getNativeBuildContext?.()
      const audit = await ctx.audit()
      const warn = (this as { warn?: (m: string) => void }).warn
      const compilation = native?.compilation
      if (compilation && native?.compiler?.webpack?.WebpackError) {
        // webpack/Rspack: no this.warn here; the compilation's lists are the host's channel.
        const { WebpackError } = native.compiler.webpack
        try {
          ctx.report(audit, { warn: m => compilation.warnings.push(new WebpackError(`[${PLUGIN_NAME}] ${m}`)) })
        }
        catch (error) {
          // In watch mode a fatal throw would end the watcher: fail this compilation instead.
          if (!native.compiler.watchMode) throw error
          compilation.errors.push(new WebpackError((error as Error).message))
        }
        return
      }
      ctx.report(audit, { warn: warn ? (m: string) => warn.call(this, m) : undefined })
    },

    resolveId: {
      filter: { id: RESOLVE_FILTER },
      handler(id) {
        if (id === ALIAS_ID + RUNTIME_SUFFIX || id === VIRTUAL_ID + RUNTIME_SUFFIX) return runtimeEntry()
        return resolveVirtual(id)
      },
    },

    load: {
      filter: { id: LOAD_FILTER },
      async handler(id) {
        const audit = await ctx.audit()
        for (const file of audit.watch.files) this.addWatchFile(file)
        const native = (this as { getNativeBuildContext?: () => NativeContext }).getNativeBuildContext?.()
        // webpack/Rspack only see new skill folders through context (directory) dependencies.
        if (native?.loaderContext?.addContextDependency) for (const dir of audit.watch.dirs) native.loaderContext.addContextDependency(dir)
        if (ctx.dev) {
          const error = ctx.devError(audit)
          if (error) this.error(error.message)
        }
        return ctx.moduleCode(id.replace(/^.*?(\0virtual:)/, '$1'), audit)
      },
    },

    watchChange(id) {
      // webpack-virtual-modules reports its own placeholder files as changes: ignore them.
      if (!id.includes('_virtual_') && !id.includes(`${path.sep}.virtual${path.sep}`)) ctx.markChanged(id)
    },

    buildEnd() {
      const audit = ctx.last
      const { manifest } = ctx.options
      if (!audit || !audit.ok || manifest === false || viteCommand === 'serve') return
      if (meta.framework === 'esbuild' && !esbuildOutdir) {
        console.warn(`[${PLUGIN_NAME}] ${manifest} was not written: esbuild's emitFile needs \`outdir\` (this build uses \`outfile\` or writes nothing). Set \`outdir\`, or run \`unplugin-skills build\`.`)
        return
      }
      this.emitFile({ type: 'asset', fileName: manifest, source: audit.manifestJson })
    },

    vite: {
      configResolved(config) {
        ctx.setRoot(config.root)
        viteCommand = config.command
        ctx.setDev(config.command === 'serve' && !config.isProduction)
      },
      configureServer(server) {
        for (const root of ctx.options.roots) {
          const dir = path.resolve(ctx.options.root, root)
          if (fs.existsSync(dir)) server.watcher.add(dir)
        }
        const name = ctx.options.manifest
        if (name === false) return
        const url = `${server.config.base.replace(/\/?$/, '/')}${name}`
        server.middlewares.use(async (req, res, next) => {
          if (req.url?.split('?')[0] !== url) return next()
          const audit = await ctx.audit()
          res.setHeader('Content-Type', 'application/json; charset=utf-8')
          res.setHeader('Cache-Control', 'no-store')
          res.end(audit.manifestJson)
        })
      },
      async hotUpdate({ type, file }) {
        if (!ctx.markChanged(file)) return
        // A new or deleted file (a whole new skill folder included) has no import edge to invalidate through.
        const graph = this.environment.moduleGraph
        const modules = ctx.affectedModules(ctx.last, [file]).flatMap((id) => {
          const mod = graph.getModuleById(id)
          return mod ? [mod] : []
        })
        for (const mod of modules) graph.invalidateModule(mod)
        if (type !== 'update' || modules.length) return modules
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
      config(initialOptions) {
        ctx.setRoot(initialOptions.absWorkingDir)
        esbuildOutdir = initialOptions.outdir
      },
    },
  }
}

/** webpack treats `virtual:` as a URI scheme and never asks resolvers: rewrite it to the alias first. */
function rewriteVirtualScheme(compiler: any): void {
  compiler.hooks.normalModuleFactory.tap(PLUGIN_NAME, (factory: any) => {
    factory.hooks.beforeResolve.tap(PLUGIN_NAME, (data: { request?: string }) => {
      if (data.request?.startsWith(VIRTUAL_ID)) data.request = ALIAS_ID + data.request.slice(VIRTUAL_ID.length)
    })
  })
}

export const unplugin = /* #__PURE__ */ createUnplugin(unpluginFactory)
export { SkillsAuditError }
export default unplugin
