import type { ResolvedOptions, RootSpec } from '../core/options'
import type { Diagnostic } from '../core/types'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compareBytewise, diagnostic } from '../core/diagnostics'
import { isInside, relativePosix } from '../core/fs'
import { childPath, IGNORED_DIRS, listsSkillFile } from './layout'

/** A skill directory found under a root. */
export interface SkillLocation {
  dir: string
  relDir: string
  /** Where it came from: `skills/x`, `pkg://@acme/pack/skills/x`, `github://o/r/p@v#x`. */
  source: string
  /** The root it was found under, with the profile, `strict` and `deny` its skills are checked with. */
  root: RootSpec
}

export interface ResolvedRoot {
  /** The root as configured. */
  spec: string
  dir: string
  /** Turns a skill directory under `dir` into its source string. */
  sourceOf: (skillDir: string) => string
}

export interface Discovery {
  roots: ResolvedRoot[]
  skills: SkillLocation[]
  /** Directories walked while looking for skills (watch them for new skill folders). */
  dirs: string[]
  diagnostics: Diagnostic[]
}

const MAX_DEPTH = 8
/** Directories searched outside skill folders (a root pointed at a home folder or node_modules stops here). */
const MAX_DIRS = 20_000
/** Directories searched inside one skill folder (for nested skills); the skill's own walk reports oversized trees. */
const MAX_DIRS_PER_SKILL = 1_000
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i

/** Every skill folder under the configured roots, sorted by project-relative path. */
export async function discover(options: ResolvedOptions): Promise<Discovery> {
  const result: Discovery = { roots: [], skills: [], dirs: [], diagnostics: [] }
  const seen = new Set<string>()
  for (const rootSpec of options.roots) {
    const root = await resolveRoot(rootSpec.path, options, result.diagnostics)
    if (!root)
      continue
    result.roots.push(root)
    for (const dir of findSkillDirs(root.dir, result)) {
      if (seen.has(dir))
        continue
      seen.add(dir)
      result.skills.push({
        dir,
        relDir: relativePosix(options.root, dir),
        source: root.sourceOf(dir),
        root: rootSpec,
      })
    }
  }
  result.skills.sort((a, b) => compareBytewise(a.relDir, b.relDir))
  return result
}

export async function resolveRoot(
  spec: string,
  options: ResolvedOptions,
  diagnostics: Diagnostic[],
): Promise<ResolvedRoot | null> {
  const rootError = (code: string, message: string, hint: string): null => {
    diagnostics.push(diagnostic({ code, severity: 'error', message, hint }))
    return null
  }
  const local = (dir: string): ResolvedRoot => ({
    spec,
    dir,
    sourceOf: skillDir => relativePosix(options.root, skillDir),
  })
  const scheme = SCHEME.exec(spec)?.[1]?.toLowerCase()
  let resolved: ResolvedRoot
  if (!scheme) {
    resolved = local(path.resolve(options.root, spec))
  }
  else if (scheme === 'file') {
    let dir: string
    try {
      dir = fileURLToPath(spec)
    }
    catch (error) {
      return rootError(
        'root/invalid-uri',
        `root ${spec} is not a valid file:// URI (${(error as Error).message})`,
        'Use an absolute URI such as file:///abs/path/skills, or a path relative to the project root.',
      )
    }
    resolved = local(dir)
  }
  else if (scheme === 'pkg') {
    const parsed = parsePkgRoot(spec)
    if (!parsed) {
      return rootError(
        'root/invalid-uri',
        `root ${spec} is not a valid pkg:// URI`,
        'Use pkg://<npm package>[/subpath], e.g. pkg://@acme/skill-pack/skills.',
      )
    }
    const pkgDir = findPackageDir(parsed.name, options.root)
    if (!pkgDir) {
      return rootError(
        'root/not-found',
        `package ${parsed.name} (from ${spec}) is not installed`,
        `Install it (npm i ${parsed.name}) or remove the root.`,
      )
    }
    const dir = path.resolve(pkgDir, parsed.subpath)
    if (!isInside(pkgDir, dir)) {
      return rootError(
        'root/invalid-uri',
        `root ${spec} leaves its package`,
        'The subpath must stay inside the package.',
      )
    }
    resolved = { spec, dir, sourceOf: skillDir => `pkg://${parsed.name}${relativeSuffix(pkgDir, skillDir)}` }
  }
  else {
    const resolver = options.resolvers[scheme]
    if (!resolver) {
      return rootError(
        'root/no-resolver',
        `no resolver for the ${scheme}:// scheme (root ${spec})`,
        `Add \`resolvers: { '${scheme}': async (uri) => '/local/dir' }\` to the options, `
        + 'e.g. pointing at a vendored cache.',
      )
    }
    let dir: string
    try {
      dir = path.resolve(options.root, await resolver(spec, { root: options.root }))
    }
    catch (error) {
      return rootError(
        'root/resolver-failed',
        `the ${scheme}:// resolver failed for ${spec}: ${(error as Error).message}`,
        'Fix the resolver or the URI.',
      )
    }
    resolved = {
      spec,
      dir,
      sourceOf: skillDir => (skillDir === dir ? spec : `${spec}#${relativePosix(dir, skillDir)}`),
    }
  }
  let stat: fs.Stats | undefined
  try {
    stat = fs.statSync(resolved.dir)
  }
  catch {}
  if (!stat?.isDirectory()) {
    return rootError(
      'root/not-found',
      `skills root ${spec} does not exist (${relativePosix(options.root, resolved.dir)})`,
      'Create the folder, or set `roots` to where your skills live.',
    )
  }
  return resolved
}

/** Every directory holding a SKILL.md under `rootDir` (the root itself included), bounded in depth and count. */
function findSkillDirs(rootDir: string, result: Discovery): string[] {
  const found: string[] = []
  // Each entry: its directory, depth, and the index in `inside` of the outermost skill it is in (-1: none).
  const queue: Array<[string, number, number]> = [[rootDir, 0, -1]]
  // Directories searched so far inside each found skill, and outside any.
  const inside: number[] = []
  let outside = 0
  for (let next = 0; next < queue.length; next++) {
    const [dir, depth, owner] = queue[next]
    if (owner === -1 && ++outside > MAX_DIRS) {
      result.diagnostics.push(
        diagnostic({
          code: 'root/too-large',
          severity: 'error',
          message: `more than ${MAX_DIRS} directories outside skills under ${rootDir}; discovery stopped`,
          hint: 'Point `roots` at the folder that holds the skills.',
        }),
      )
      break
    }
    if (owner !== -1 && ++inside[owner] > MAX_DIRS_PER_SKILL)
      continue
    result.dirs.push(dir)
    let dirents: fs.Dirent[]
    try {
      dirents = fs.readdirSync(dir, { withFileTypes: true })
    }
    catch {
      continue
    }
    let childOwner = owner
    if (listsSkillFile(dirents)) {
      found.push(dir)
      if (owner === -1)
        childOwner = inside.push(0) - 1
    }
    if (depth >= MAX_DEPTH)
      continue
    for (const d of dirents) {
      if (d.isDirectory() && !IGNORED_DIRS.has(d.name))
        queue.push([childPath(dir, d.name), depth + 1, childOwner])
    }
  }
  return found
}

function parsePkgRoot(spec: string): { name: string, subpath: string } | null {
  const match = /^pkg:\/\/((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@[^/]+)?(\/.*)?$/i.exec(spec)
  if (!match)
    return null
  return { name: match[1], subpath: (match[2] ?? '').replace(/^\/+/, '') || '.' }
}

/** Node's lookup for a bare package name: `node_modules/<name>` in each ancestor of `from`. */
function findPackageDir(name: string, from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name)
    if (fs.existsSync(path.join(candidate, 'package.json')))
      return fs.realpathSync(candidate)
    if (path.dirname(dir) === dir)
      return null
  }
}

function relativeSuffix(base: string, dir: string): string {
  const rel = relativePosix(base, dir)
  return rel === '.' ? '' : `/${rel}`
}
