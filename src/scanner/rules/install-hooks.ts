import type { SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import { escapeRegExp } from '../../core/escape-regexp'
import { excerptAt } from '../excerpt'

// An install hook that fetches: code or a binary nobody published to the registry, run on every install.
const DOWNLOADS
  = /\b(?:curl|wget|Invoke-WebRequest|iwr|irm)\b|\bfetch\s*\(|\bhttps?\.get\s*\(|\brequire\(\s*\\?["']https?["']/

const HOOKS = ['preinstall', 'install', 'postinstall', 'prepare'] as const
const DIRECT_SPEC = /^(?:git\+|git:|github:|gitlab:|bitbucket:|https?:\/\/)/i

/**
 * A package manifest whose install hook downloads, or runs a dependency taken from a git repository or a URL:
 * `npm install` runs code nobody published to the registry, at once (the dependency alone is a warning; run by a
 * hook, an error).
 */
export function installHooks(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  for (const file of skill.files) {
    if (file.text === null || !/(?:^|\/)package\.json$/.test(file.path) || !file.text.includes('install'))
      continue
    let manifest: unknown
    try {
      manifest = JSON.parse(file.text)
    }
    catch {
      continue
    }
    const pkg = (manifest && typeof manifest === 'object' ? manifest : {}) as Record<string, unknown>
    const scripts = (pkg.scripts && typeof pkg.scripts === 'object' ? pkg.scripts : {}) as Record<string, unknown>
    const direct = new Set<string>()
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      const deps = pkg[field]
      if (!deps || typeof deps !== 'object')
        continue
      for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
        if (typeof spec === 'string' && DIRECT_SPEC.test(spec))
          direct.add(name)
      }
    }
    for (const hook of HOOKS) {
      const script = scripts[hook]
      if (typeof script !== 'string')
        continue
      if (DOWNLOADS.test(script)) {
        out.push(hookFinding(file.path, file.text, hook, `the \`${hook}\` hook downloads at install time`))
        break
      }
      const shipped = shippedScript(skill, file.path, script)
      if (shipped) {
        const message = `the \`${hook}\` hook runs ${shipped}, which downloads or installs from a URL at install time`
        out.push(hookFinding(file.path, file.text, hook, message))
        break
      }
      const runs = (n: string): boolean =>
        new RegExp(String.raw`(?:^|[\s/"'])${escapeRegExp(n)}(?:$|[\s/"'])`).test(script)
      const name = [...direct].find(runs)
      if (!name)
        continue
      const message = `the \`${hook}\` hook runs ${name}, a dependency installed from a git repository or a URL`
      out.push(hookFinding(file.path, file.text, hook, message))
      break
    }
  }
  return out
}

// A script that fetches, or installs a package named by a URL it holds (`npm install --global ${url}`).
function fetchesOrInstalls(text: string): boolean {
  return DOWNLOADS.test(text)
    || (/\b(?:npm|pnpm|yarn|bun|pip3?)\s+(?:install|i|add)\b/.test(text) && /["'`]https?:\/\/[^\s"'`]+/.test(text))
}

/** The file of the skill a hook runs (`node scripts/setup.js`, beside the manifest), when it fetches or installs. */
function shippedScript(skill: SkillSource, manifest: string, script: string): string | undefined {
  const dir = manifest.includes('/') ? manifest.slice(0, manifest.lastIndexOf('/') + 1) : ''
  for (const [, rel] of script.matchAll(/\b(?:node|sh|bash|python3?|tsx|ts-node)\s+(?:\.\/)?([\w./-]+\.\w+)/g)) {
    const path = `${dir}${rel}`
    const file = skill.files.find(f => f.path === path)
    if (file?.text && fetchesOrInstalls(file.text))
      return path
  }
  return undefined
}

function hookFinding(path: string, text: string, hook: string, message: string): RawFinding {
  const lines = text.split('\n')
  const at = Math.max(0, lines.findIndex(l => new RegExp(String.raw`"${hook}"\s*:`).test(l)))
  const line = lines[at]!
  const col = line.length - line.trimStart().length
  return {
    rule: 'supply_chain',
    path,
    line: at + 1,
    column: col + 1,
    message,
    excerpt: excerptAt(line, col, Math.min(80, line.length - col)),
  }
}
