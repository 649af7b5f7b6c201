import type { Options } from '../../../src/index'
import path from 'node:path'
import { esbuildAppOptions, fromDist } from './helpers'

export interface Built {
  /** The entry file Node runs. */
  entry: string
  outDir: string
  /** Warnings the host collected, as text. */
  warnings: string[]
}

/**
 * Builds `<dir>/main.js` into `<dir>/out` with the real bundler API and the built plugin; rejects like the
 * host does.
 */
export type BuildApp = (dir: string, options: Options) => Promise<Built>

export const BUNDLERS = ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', 'rspack'] as const
export type Bundler = (typeof BUNDLERS)[number]

const outOf = (dir: string): string => path.join(dir, 'out')

const vite: BuildApp = async (dir, options) => {
  const { build } = await import('vite')
  const { default: skills } = await fromDist<typeof import('../../../plugins/vite')>('vite.mjs')
  const warnings: string[] = []
  // An SSR build: Node runs it, and Vite drops emitted assets there, which the plugin must handle.
  await build({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    customLogger: { ...silentLogger(), warn: (m: string) => void warnings.push(m) } as never,
    plugins: [skills(options)],
    build: { outDir: outOf(dir), ssr: 'main.js', minify: false, emptyOutDir: true },
  })
  return { entry: path.join(outOf(dir), 'main.mjs'), outDir: outOf(dir), warnings }
}

const rollup: BuildApp = async (dir, options) => {
  const { rollup } = await import('rollup')
  const { default: skills } = await fromDist<typeof import('../../../plugins/rollup')>('rollup.mjs')
  const warnings: string[] = []
  // Rollup has no root of its own: the plugin's `root` option says where the project is.
  const bundle = await rollup({
    input: path.join(dir, 'main.js'),
    plugins: [skills({ root: dir, ...options })],
    onwarn: w => void warnings.push(w.message),
  })
  try {
    await bundle.write({ dir: outOf(dir), format: 'es' })
  }
  finally {
    await bundle.close()
  }
  return { entry: path.join(outOf(dir), 'main.js'), outDir: outOf(dir), warnings }
}

const rolldown: BuildApp = async (dir, options) => {
  const { rolldown } = await import('rolldown')
  const { default: skills } = await fromDist<typeof import('../../../plugins/rolldown')>('rolldown.mjs')
  const warnings: string[] = []
  const bundle = await rolldown({
    input: path.join(dir, 'main.js'),
    cwd: dir,
    plugins: [skills(options)],
    onwarn: w => void warnings.push(w.message),
    logLevel: 'warn',
  })
  try {
    await bundle.write({ dir: outOf(dir), format: 'es' })
  }
  finally {
    await bundle.close()
  }
  return { entry: path.join(outOf(dir), 'main.js'), outDir: outOf(dir), warnings }
}

const esbuild: BuildApp = async (dir, options) => {
  const esbuild = await import('esbuild')
  const { default: skills } = await fromDist<typeof import('../../../plugins/esbuild')>('esbuild.mjs')
  const result = await esbuild.build(esbuildAppOptions(dir, outOf(dir), [skills(options)]))
  return { entry: path.join(outOf(dir), 'main.js'), outDir: outOf(dir), warnings: result.warnings.map(w => w.text) }
}

/** webpack and Rspack share their config shape and their callback API. */
function webpackLike(load: () => Promise<(config: any) => any>, plugin: string): BuildApp {
  return async (dir, options) => {
    const create = await load()
    const { default: skills } = await fromDist<{ default: (o: Options) => unknown }>(plugin)
    const compiler = create({
      mode: 'production',
      context: dir,
      entry: './main.js',
      target: 'node',
      devtool: false,
      optimization: { minimize: false },
      output: {
        path: outOf(dir),
        filename: 'main.cjs',
        chunkFilename: '[name].cjs',
        library: { type: 'commonjs2' },
        clean: true,
      },
      plugins: [skills(options)],
    })
    const stats = await new Promise<any>((resolve, reject) =>
      compiler.run((error: Error | null, result: any) => (error ? reject(error) : resolve(result))),
    )
    await new Promise(resolve => compiler.close(resolve))
    // What the CLI prints for a failed compilation.
    if (stats.hasErrors())
      throw new Error(stats.toString({ all: false, errors: true, colors: false }))
    const warnings = stats.toJson({ all: false, warnings: true }).warnings.map((w: { message: string }) => w.message)
    return { entry: path.join(outOf(dir), 'main.cjs'), outDir: outOf(dir), warnings }
  }
}

export const builders: Record<Bundler, BuildApp> = {
  vite,
  rollup,
  rolldown,
  esbuild,
  webpack: webpackLike(async () => (await import('webpack')).default, 'webpack.mjs'),
  rspack: webpackLike(async () => (await import('@rspack/core')).rspack, 'rspack.mjs'),
}

function silentLogger() {
  const noop = (): void => {}
  return {
    info: noop,
    warn: noop,
    warnOnce: noop,
    error: noop,
    clearScreen: noop,
    hasErrorLogged: () => false,
    hasWarned: false,
  }
}
