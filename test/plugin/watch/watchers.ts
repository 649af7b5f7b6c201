import type { Options } from '../../../src/index'
import fs from 'node:fs'
import path from 'node:path'
import { esbuildAppOptions, fromDist } from '../bundlers/helpers'

/** A running watch build: counts finished (re)builds and keeps their error texts. */
export interface Watching {
  entry: string
  builds: number
  /** Error text of each failed build, in order. */
  errors: string[]
  close: () => Promise<void>
}

export type StartWatch = (dir: string, options: Options) => Promise<Watching>

const outOf = (dir: string): string => path.join(dir, 'out')

function webpackLike(load: () => Promise<(config: any) => any>, plugin: string): StartWatch {
  return async (dir, options) => {
    const create = await load()
    const { default: skills } = await fromDist<{ default: (o: Options) => unknown }>(plugin)
    const compiler = create({
      mode: 'development',
      context: dir,
      entry: './main.js',
      target: 'node',
      devtool: false,
      output: { path: outOf(dir), filename: 'main.cjs', chunkFilename: '[name].cjs', library: { type: 'commonjs2' } },
      plugins: [skills(options)],
    })
    const state: Watching = { entry: path.join(outOf(dir), 'main.cjs'), builds: 0, errors: [], close: async () => {} }
    const watching = compiler.watch({ aggregateTimeout: 50 }, (error: Error | null, stats: any) => {
      if (error)
        state.errors.push(error.message)
      else if (stats.hasErrors())
        state.errors.push(stats.toString({ all: false, errors: true, colors: false }))
      state.builds++
    })
    state.close = () => new Promise(resolve => watching.close(() => compiler.close(resolve)))
    return state
  }
}

/** Rollup and Rolldown watchers speak the same events: count finished builds, keep error texts. */
function countRollupEvents(
  watcher: { on: (name: 'event', listener: (event: any) => void) => unknown, close: () => Promise<void> | void },
  state: Watching,
): Watching {
  watcher.on('event', (event) => {
    if (event.code === 'BUNDLE_END')
      void event.result.close()
    if (event.code === 'ERROR') {
      state.errors.push(event.error.message)
      void event.result?.close()
      state.builds++
    }
    if (event.code === 'END')
      state.builds++
  })
  state.close = async () => {
    await watcher.close()
  }
  return state
}

const rollup: StartWatch = async (dir, options) => {
  const { watch } = await import('rollup')
  const { default: skills } = await fromDist<typeof import('../../../plugins/rollup')>('rollup.mjs')
  const state: Watching = { entry: path.join(outOf(dir), 'main.js'), builds: 0, errors: [], close: async () => {} }
  const watcher = watch({
    input: path.join(dir, 'main.js'),
    plugins: [skills({ root: dir, ...options })],
    output: { dir: outOf(dir), format: 'es' },
    watch: { buildDelay: 50 },
    onwarn: () => {},
  })
  return countRollupEvents(watcher, state)
}

const rolldown: StartWatch = async (dir, options) => {
  const { watch } = await import('rolldown')
  const { default: skills } = await fromDist<typeof import('../../../plugins/rolldown')>('rolldown.mjs')
  const state: Watching = { entry: path.join(outOf(dir), 'main.js'), builds: 0, errors: [], close: async () => {} }
  const watcher = watch({
    input: path.join(dir, 'main.js'),
    cwd: dir,
    plugins: [skills(options)],
    output: { dir: outOf(dir), format: 'es' },
    onwarn: () => {},
  })
  return countRollupEvents(watcher, state)
}

const esbuild: StartWatch = async (dir, options) => {
  const esbuild = await import('esbuild')
  const { default: skills } = await fromDist<typeof import('../../../plugins/esbuild')>('esbuild.mjs')
  const state: Watching = { entry: path.join(outOf(dir), 'main.js'), builds: 0, errors: [], close: async () => {} }
  const ctx = await esbuild.context(
    esbuildAppOptions(dir, outOf(dir), [
      skills(options),
      {
        name: 'count-builds',
        setup(build) {
          build.onEnd((result) => {
            if (result.errors.length)
              state.errors.push(result.errors.map(e => e.text).join('\n'))
            state.builds++
          })
        },
      },
    ]),
  )
  await ctx.watch()
  state.close = () => ctx.dispose()
  return state
}

export const watchers = {
  webpack: webpackLike(async () => (await import('webpack')).default, 'webpack.mjs'),
  rspack: webpackLike(async () => (await import('@rspack/core')).rspack, 'rspack.mjs'),
  rollup,
  rolldown,
  esbuild,
} satisfies Record<string, StartWatch>

/** Writes a skill folder, the way an editor or `git checkout` does. */
export function writeSkill(dir: string, name: string, description: string, body = '# Body\n'): void {
  fs.mkdirSync(path.join(dir, 'skills', name), { recursive: true })
  fs.writeFileSync(
    path.join(dir, 'skills', name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}`,
  )
}
