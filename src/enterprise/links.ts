import type { MdLink } from '../core/markdown'
import type { Diagnostic, Severity, SkillFile, SkillSource } from '../core/types'
import { compareBytewise, diagnostic } from '../core/diagnostics'
import { markdownOf } from '../core/markdown'
import { isMarkdown, lineIndex, projectPath, quote, safeDecode } from './text'

export interface LinkReport {
  diagnostics: Diagnostic[]
  /** http(s) destinations, sorted bytewise, unique. */
  links: string[]
}

/** Per file, past this many link problems the rest are summarised in one diagnostic. */
const MAX_PER_FILE = 100
const BASE_DIR = '{baseDir}/'

/** The documents whose links are checked: SKILL.md, references/ and scenarios/ markdown. */
export function linkedDocuments(skill: SkillSource): SkillFile[] {
  return skill.files.filter(
    f =>
      isMarkdown(f.path)
      && f.text !== null
      && (f === skill.skillMd || f.path.startsWith('references/') || f.path.startsWith('scenarios/')),
  )
}

/**
 * Invariant 5: every relative or `file:` link resolves to a file of this skill, anchors included.
 * The skill's file list is the whole universe: nothing here touches the disk.
 * `severity` is `error` in the enterprise profile, `warning` in agentskills.
 */
export function checkLinks(skill: SkillSource, severity: Severity): LinkReport {
  const resolver = new Resolver(skill)
  const diagnostics: Diagnostic[] = []
  const external = new Set<string>()
  for (const file of linkedDocuments(skill)) {
    const doc = markdownOf(file)
    if (!doc)
      continue
    let at: ReturnType<typeof lineIndex> | null = null
    let problems = 0
    for (const link of doc.links) {
      const problem = resolver.check(file, link, external)
      if (!problem)
        continue
      if (++problems > MAX_PER_FILE)
        continue
      diagnostics.push(
        diagnostic({
          ...problem,
          severity,
          file: projectPath(skill, file.path),
          ...(at ??= lineIndex(file.text!))(link.offset),
          skill: skill.name,
        }),
      )
    }
    if (problems > MAX_PER_FILE) {
      diagnostics.push(
        diagnostic({
          code: 'link/broken',
          severity,
          message: `${problems - MAX_PER_FILE} more link problems in this file are not listed`,
          file: projectPath(skill, file.path),
          skill: skill.name,
          hint: null,
        }),
      )
    }
  }
  return { diagnostics, links: [...external].sort(compareBytewise) }
}

interface Problem {
  code: 'link/broken' | 'link/escape' | 'link/anchor' | 'link/absolute'
  message: string
  hint: string | null
}

class Resolver {
  private readonly paths = new Map<string, SkillFile>()
  private readonly dirs = new Set<string>([''])
  private lowerCase: Map<string, string> | null = null

  constructor(private readonly skill: SkillSource) {
    for (const f of skill.files) {
      this.paths.set(f.path, f)
      for (let i = f.path.indexOf('/'); i !== -1; i = f.path.indexOf('/', i + 1)) this.dirs.add(f.path.slice(0, i))
    }
  }

  check(from: SkillFile, link: MdLink, external: Set<string>): Problem | null {
    const dest = link.dest.trim()
    if (dest === '')
      return null
    if (dest.startsWith('#'))
      return this.anchor(from, from.path, dest.slice(1), dest)
    if (/^[A-Za-z]:[\\/]/.test(dest) || dest.startsWith('\\\\'))
      return absolute(dest)
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(dest)
    if (scheme) {
      const name = scheme[1].toLowerCase()
      if (name === 'http' || name === 'https')
        external.add(dest)
      if (name === 'file')
        return this.fileUrl(dest)
      // Other schemes (mailto:, tel:, ...) do not point at files; the scanner judges their content.
      return null
    }
    // Claude's `{baseDir}` placeholder stands for the skill's root directory.
    if (dest.startsWith(BASE_DIR))
      return this.relativeTo(null, dest.slice(BASE_DIR.length), dest)
    if (dest.startsWith('//'))
      return absolute(dest, 'a protocol-relative URL')
    if (dest.startsWith('/'))
      return absolute(dest)
    const base = from.path.includes('/') ? from.path.slice(0, from.path.lastIndexOf('/')) : null
    return this.relativeTo(base, dest, dest)
  }

  /** `file:///abs/path` must name a file inside the skill's own directory. */
  private fileUrl(dest: string): Problem | null {
    const rest = dest.slice(5)
    let pathPart: string
    if (rest.startsWith('//')) {
      const slash = rest.indexOf('/', 2)
      const host = rest.slice(2, slash === -1 ? rest.length : slash)
      if (host !== '' && host.toLowerCase() !== 'localhost') {
        return {
          code: 'link/escape',
          message: `link ${quote(dest)} points at another host`,
          hint: 'A skill may only link to its own files (relative paths) or to http(s) URLs.',
        }
      }
      pathPart = slash === -1 ? '/' : rest.slice(slash)
    }
    else {
      pathPart = rest
    }
    const { path: encoded, fragment } = splitTarget(pathPart)
    const decoded = safeDecode(encoded)
    if (decoded === null || decoded.includes('\0')) {
      return {
        code: 'link/broken',
        message: `link ${quote(dest)} has invalid percent-encoding`,
        hint: 'Encode `%` as `%25`.',
      }
    }
    const absPath = decoded.replace(/^\/([A-Za-z]:\/)/, '$1')
    const dir = this.skill.dir.replace(/\\/g, '/').replace(/\/+$/, '')
    const inside = absPath === dir || absPath.startsWith(`${dir}/`)
    if (!inside) {
      return {
        code: 'link/escape',
        message: `link ${quote(dest)} points outside the skill directory`,
        hint: 'Copy the file into the skill (e.g. references/) and link it with a relative path.',
      }
    }
    const rel = absPath.slice(dir.length + 1)
    return this.resolve(null, rel, fragment, dest)
  }

  /** A relative reference (`dest` has no scheme), resolved against `base` (null: the skill root). */
  private relativeTo(base: string | null, dest: string, shown: string): Problem | null {
    const { path: encoded, fragment } = splitTarget(dest)
    const decoded = safeDecode(encoded)
    if (decoded === null || decoded.includes('\0')) {
      return {
        code: 'link/broken',
        message: `link ${quote(shown)} has invalid percent-encoding`,
        hint: 'Encode `%` as `%25`, spaces as `%20`.',
      }
    }
    return this.resolve(base, decoded, fragment, shown)
  }

  /** Resolves `./` and `../` against `base` (a directory of the skill, null for its root). */
  private resolve(base: string | null, target: string, fragment: string | null, shown: string): Problem | null {
    const stack = base ? base.split('/') : []
    for (const segment of target.split('/')) {
      if (segment === '' || segment === '.')
        continue
      if (segment === '..') {
        if (stack.length === 0) {
          return {
            code: 'link/escape',
            message: `link ${quote(shown)} leaves the skill directory`,
            hint: 'A skill is self-contained: copy the file into the skill (e.g. references/) or link it by https URL.',
          }
        }
        stack.pop()
      }
      else {
        stack.push(segment)
      }
    }
    const resolved = stack.join('/')
    const file = this.paths.get(resolved)
    if (file)
      return fragment === null ? null : this.anchor(file, resolved, fragment, shown)
    if (this.dirs.has(resolved))
      return null
    return {
      code: 'link/broken',
      message: `link ${quote(shown)}: no file ${quote(resolved)} in the skill`,
      hint: this.suggest(resolved),
    }
  }

  private anchor(file: SkillFile, path: string, rawFragment: string, shown: string): Problem | null {
    // Line anchors (`#L10`) and fragments of non-markdown files are the viewer's business.
    if (!isMarkdown(path) || rawFragment === '')
      return null
    const doc = markdownOf(file)
    if (!doc)
      return null
    const fragment = (safeDecode(rawFragment) ?? rawFragment).replace(/^user-content-/, '')
    if (fragment.toLowerCase() === 'top' || doc.anchors.has(fragment))
      return null
    const lower = fragment.toLowerCase()
    for (const a of doc.anchors) {
      if (a.toLowerCase() === lower)
        return null
    }
    const known = [...doc.anchors].sort(compareBytewise)
    return {
      code: 'link/anchor',
      message: `link ${quote(shown)}: ${quote(path)} has no heading or anchor ${quote(`#${fragment}`)}`,
      hint: known.length
        ? `Anchors in ${path}: ${known
          .slice(0, 8)
          .map(a => `#${a}`)
          .join(', ')}${known.length > 8 ? ', ...' : ''}`
        : `${path} has no headings.`,
    }
  }

  private suggest(resolved: string): string {
    if (!this.lowerCase) {
      this.lowerCase = new Map()
      for (const p of this.paths.keys()) {
        if (!this.lowerCase.has(p.toLowerCase()))
          this.lowerCase.set(p.toLowerCase(), p)
      }
    }
    const near = this.lowerCase.get(resolved.toLowerCase())
    return near
      ? `Paths are case-sensitive: did you mean ${quote(near)}?`
      : 'Links resolve against the files of this skill, relative to the linking file.'
  }
}

function absolute(dest: string, what = 'an absolute path'): Problem {
  return {
    code: 'link/absolute',
    message: `link ${quote(dest)} is ${what}`,
    hint: 'Link files of the skill with a path relative to the linking file, e.g. `references/guide.md`.',
  }
}

/** Splits `path?query#fragment`; the query is dropped (files have none). */
function splitTarget(dest: string): { path: string, fragment: string | null } {
  const hash = dest.indexOf('#')
  const beforeHash = hash === -1 ? dest : dest.slice(0, hash)
  const query = beforeHash.indexOf('?')
  return {
    path: query === -1 ? beforeHash : beforeHash.slice(0, query),
    fragment: hash === -1 ? null : dest.slice(hash + 1),
  }
}
