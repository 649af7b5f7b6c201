import type { Options } from './options'
import fs from 'node:fs'
import path from 'node:path'
import { lazy } from './lazy'

/** Looked up in this order in the project root; the plugin and the CLI read the same file. */
export const CONFIG_FILES = [
  'skills.config.ts',
  'skills.config.mts',
  'skills.config.cts',
  'skills.config.mjs',
  'skills.config.js',
  'skills.config.cjs',
  'skills.config.json',
] as const

/**
 * Typed options for `skills.config.ts`: `export default defineConfig({ profile: 'agentskills' })`.
 * Returns its argument unchanged.
 */
export function defineConfig(options: Options): Options {
  return options
}

// TypeScript and ESM configs load synchronously through jiti (a config file is the project's own code).
const jiti = lazy<typeof import('jiti')>('jiti')

function load(file: string): unknown {
  if (file.endsWith('.json'))
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  const loader = jiti().createJiti(file, { moduleCache: false, fsCache: false, interopDefault: true })
  return loader(file)
}

/**
 * Loads the first of `CONFIG_FILES` in `dir`, or the given file (relative to `dir`). Synchronous, so that a
 * plugin has its options before the bundler asks for them. A relative `root` in the file is resolved against
 * the file's folder.
 */
export function loadConfigSync(dir: string, file?: string): { options: Options, file: string | null } {
  const candidates = file ? [path.resolve(dir, file)] : CONFIG_FILES.map(name => path.join(dir, name))
  const found = candidates.find(f => fs.existsSync(f))
  if (!found) {
    if (file)
      throw new ConfigError(`config file ${file} not found`)
    return { options: {}, file: null }
  }
  let loaded: unknown
  try {
    loaded = load(found)
  }
  catch (error) {
    throw new ConfigError(`config file ${path.basename(found)} could not be loaded: ${(error as Error).message}`)
  }
  if (loaded && typeof loaded === 'object' && 'default' in loaded && Object.keys(loaded).length === 1)
    loaded = (loaded as { default: unknown }).default
  if (!loaded || typeof loaded !== 'object' || Array.isArray(loaded))
    throw new ConfigError(`config file ${path.basename(found)} must export an options object`)
  const options = loaded as Options
  const root = options.root ? path.resolve(path.dirname(found), options.root) : undefined
  return { options: root ? { ...options, root } : options, file: found }
}

/** `loadConfigSync`, for callers that await. */
export async function loadConfig(dir: string, file?: string): Promise<{ options: Options, file: string | null }> {
  return loadConfigSync(dir, file)
}

export class ConfigError extends Error {}
