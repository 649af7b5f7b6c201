import type { Options } from './options'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

export const CONFIG_FILES = ['skills.config.mjs', 'skills.config.js', 'skills.config.json'] as const

/** Loads `skills.config.{mjs,js,json}` (the same Options the plugin takes) from `dir`, or the given file. */
export async function loadConfig(dir: string, file?: string): Promise<{ options: Options, file: string | null }> {
  const candidates = file ? [path.resolve(dir, file)] : CONFIG_FILES.map(name => path.join(dir, name))
  const found = candidates.find(f => fs.existsSync(f))
  if (!found) {
    if (file)
      throw new ConfigError(`config file ${file} not found`)
    return { options: {}, file: null }
  }
  let loaded: unknown
  try {
    loaded = found.endsWith('.json')
      ? JSON.parse(fs.readFileSync(found, 'utf8'))
      : ((await import(pathToFileURL(found).href)) as { default?: unknown }).default
  }
  catch (error) {
    throw new ConfigError(`config file ${path.basename(found)} could not be loaded: ${(error as Error).message}`)
  }
  if (!loaded || typeof loaded !== 'object' || Array.isArray(loaded))
    throw new ConfigError(`config file ${path.basename(found)} must export an options object`)
  return { options: loaded as Options, file: found }
}

export class ConfigError extends Error {}
