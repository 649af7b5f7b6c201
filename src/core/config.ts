import type { Options } from './options'
import type { Diagnostic } from './types'
import fs from 'node:fs'
import path from 'node:path'
import { diagnostic } from './diagnostics'
import { relativePosix } from './fs'
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

/** What a config lookup found: the options, the file they came from, and the project-level problems it saw. */
export interface LoadedConfig {
  options: Options
  file: string | null
  /** `config/ignored` warnings: each other config file found beside the one read (and never read itself). */
  diagnostics: Diagnostic[]
}

/**
 * Loads the first of `CONFIG_FILES` in `dir`, or the given file (relative to `dir`). Synchronous, so that a
 * plugin has its options before the bundler asks for them. A relative `root` in the file is resolved against
 * the file's folder.
 */
export function loadConfigSync(dir: string, file?: string): LoadedConfig {
  const candidates = file ? [path.resolve(dir, file)] : CONFIG_FILES.map(name => path.join(dir, name))
  const present = candidates.filter(f => fs.existsSync(f))
  const found = present[0]
  if (!found) {
    if (file)
      throw new ConfigError(`config file ${file} not found`)
    return { options: {}, file: null, diagnostics: [] }
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
  const diagnostics = present.slice(1).map(other => ignoredConfig(found, other, root ?? dir))
  return { options: root ? { ...options, root } : options, file: found, diagnostics }
}

/**
 * Two config files in one folder: the first of `CONFIG_FILES` is read and the other never is, so an edit to it
 * would change nothing. A warning names both, at the ignored file (project-relative, as diagnostics are).
 */
function ignoredConfig(used: string, ignored: string, root: string): Diagnostic {
  const [usedName, ignoredName] = [path.basename(used), path.basename(ignored)]
  return diagnostic({
    code: 'config/ignored',
    severity: 'warning',
    message: `found ${usedName} and ${ignoredName}: using ${usedName}, ${ignoredName} is ignored`,
    file: relativePosix(root, ignored),
    hint: `Keep one config file: move what ${ignoredName} sets into ${usedName}, then delete ${ignoredName}.`,
  })
}

/** `loadConfigSync`, for callers that await. */
export async function loadConfig(dir: string, file?: string): Promise<LoadedConfig> {
  return loadConfigSync(dir, file)
}

export class ConfigError extends Error {}
