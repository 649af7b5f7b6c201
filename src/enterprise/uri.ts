/**
 * Skill root URIs of the Enterprise AI Agent Skills Specification, parsed into typed parts.
 * Pure, no I/O, never throws: malformed input comes back as a `UriError`.
 *
 *   castor://skills/{domain}/{category}/{name}/{version}   central registry
 *   cstr://[skills/]{domain}/{category}/{name}/{version}   short alias of castor://
 *   github://{owner}/{repo}[/{path}][@{ref}]               ref: what follows the first `@` after the repo
 *   mod://{module path}@{vX.Y.Z}[/{path}]                   Go module (path: a folder inside it)
 *   maven://{groupId}:{artifactId}:{version}[/{path}]       Maven coordinates, colon form (as `mvn` writes GAV)
 *   pkg://[@{scope}/]{name}[@{version}][/{path}]            npm package
 *   file:///{absolute path}, file://localhost/..., file://./{relative path}
 * Paths are returned percent-decoded, posix, without leading, trailing or `.`/`..` segments.
 */

export type ParsedSkillUri = CastorUri | GithubUri | GoModuleUri | MavenUri | PkgUri | FileUri

interface UriBase {
  ok: true
  /** The input, as given. */
  uri: string
}

export interface CastorUri extends UriBase {
  scheme: 'castor' | 'cstr'
  domain: string
  category: string
  name: string
  /** As written (`1.0.0` or `v1.0.0`). */
  version: string
}

export interface GithubUri extends UriBase {
  scheme: 'github'
  owner: string
  repo: string
  /** Folder inside the repository, '' for its root. */
  path: string
  /** Branch, tag or commit; null for the default branch. */
  ref: string | null
}

export interface GoModuleUri extends UriBase {
  scheme: 'mod'
  module: string
  version: string
  path: string
}

export interface MavenUri extends UriBase {
  scheme: 'maven'
  groupId: string
  artifactId: string
  version: string
  path: string
}

export interface PkgUri extends UriBase {
  scheme: 'pkg'
  /** Full package name, scope included (`@acme/skills`). */
  name: string
  scope: string | null
  /** Version or dist-tag, null when not pinned. */
  version: string | null
  path: string
}

export interface FileUri extends UriBase {
  scheme: 'file'
  /** Absolute path (`/srv/skills`, `C:/skills`), or relative to the project root when `relative`. */
  path: string
  relative: boolean
}

export type UriErrorCode
  = | 'uri/empty'
    | 'uri/too-long'
    | 'uri/invalid-char'
    | 'uri/no-scheme'
    | 'uri/unknown-scheme'
    | 'uri/segments'
    | 'uri/domain'
    | 'uri/category'
    | 'uri/name'
    | 'uri/version'
    | 'uri/app'
    | 'uri/owner'
    | 'uri/repo'
    | 'uri/ref'
    | 'uri/path'
    | 'uri/encoding'
    | 'uri/module'
    | 'uri/coordinates'
    | 'uri/package'
    | 'uri/host'

export interface UriError {
  ok: false
  code: UriErrorCode
  message: string
  /** The input, as given (stringified if it was not a string). */
  uri: string
  /** The scheme when one was recognised (lets a caller look up a custom resolver). */
  scheme: string | null
}

export function isUriError(value: unknown): value is UriError {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false
}

const MAX_LENGTH = 2048
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
// Semantic versions in parts: `major.minor.patch` (the major captured for Go's rule), then dot-separated
// identifiers for a pre-release (`-rc.1`) or build metadata (`+build.5`).
const MAJOR = /(0|[1-9]\d*)/.source
const MINOR_PATCH = /\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)/.source
const IDENTIFIERS = /[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*/.source
const SEMVER = new RegExp(`^v?(?:0|[1-9]\\d*)${MINOR_PATCH}(?:-${IDENTIFIERS})?(?:\\+${IDENTIFIERS})?$`)
const GO_VERSION = new RegExp(`^v${MAJOR}${MINOR_PATCH}(?:-${IDENTIFIERS})?(?:\\+incompatible)?$`)
const isSlug = (value: string): boolean => value.length <= 64 && SLUG.test(value)

export const KNOWN_SCHEMES = ['castor', 'cstr', 'github', 'mod', 'maven', 'pkg', 'file'] as const

export function parseSkillUri(uri: string): ParsedSkillUri | UriError {
  const input = typeof uri === 'string' ? uri : String(uri)
  const fail = (code: UriErrorCode, message: string, scheme: string | null = null): UriError => ({
    ok: false,
    code,
    message,
    uri: input,
    scheme,
  })
  if (typeof uri !== 'string' || uri.trim() === '')
    return fail('uri/empty', 'the URI is empty')
  if (uri.length > MAX_LENGTH)
    return fail('uri/too-long', `the URI is longer than ${MAX_LENGTH} characters`)
  // Whitespace and control characters are never part of a skill URI (percent-encode them).
  // eslint-disable-next-line no-control-regex -- control characters are what it rejects
  const bad = /[\s\u0000-\u001F\u007F]/.exec(uri)
  if (bad)
    return fail('uri/invalid-char', `the URI contains a space or control character at position ${bad.index + 1}`)
  const m = SCHEME.exec(uri)
  if (!m) {
    return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) && !/^[A-Za-z]:[\\/]/.test(uri)
      ? fail('uri/no-scheme', 'expected `scheme://` (two slashes after the scheme)')
      : fail('uri/no-scheme', 'not a URI: expected `scheme://...`')
  }
  const scheme = m[1].toLowerCase()
  const rest = uri.slice(m[0].length)
  const err = (code: UriErrorCode, message: string): UriError => fail(code, message, scheme)
  switch (scheme) {
    case 'castor':
    case 'cstr':
      return parseCastor(uri, scheme, rest, err)
    case 'github':
      return parseGithub(uri, rest, err)
    case 'mod':
      return parseGoModule(uri, rest, err)
    case 'maven':
      return parseMaven(uri, rest, err)
    case 'pkg':
      return parsePkg(uri, rest, err)
    case 'file':
      return parseFile(uri, rest, err)
    default:
      return err(
        'uri/unknown-scheme',
        `unknown scheme \`${scheme}://\` (known: ${KNOWN_SCHEMES.join(', ')}; others need a \`resolvers\` entry)`,
      )
  }
}

type Fail = (code: UriErrorCode, message: string) => UriError

function parseCastor(uri: string, scheme: 'castor' | 'cstr', rest: string, err: Fail): CastorUri | UriError {
  const parts = rest.replace(/\/$/, '').split('/')
  // cstr:// may drop the `skills/` prefix; with five segments the first one is that prefix.
  if (parts[0] === 'skills' && (scheme === 'castor' || parts.length === 5))
    parts.shift()
  else if (scheme === 'castor')
    return err('uri/segments', 'expected castor://skills/{domain}/{category}/{name}/{version}')
  if (parts.length !== 4) {
    return err(
      'uri/segments',
      `expected ${scheme}://${scheme === 'castor' ? 'skills/' : ''}{domain}/{category}/{name}/{version}, `
      + `got ${parts.length} segment(s) after the prefix`,
    )
  }
  const [domain, category, name, version] = parts
  const problem = castorPartsProblem({ domain, category, name, version }, err)
  if (problem)
    return problem
  return { ok: true, uri, scheme, domain, category, name, version }
}

function castorPartsProblem(
  p: { domain: string, category: string, name: string, version: string },
  err: Fail,
): UriError | null {
  if (!isDnsName(p.domain, 1))
    return err('uri/domain', `domain \`${p.domain}\` is not a lowercase DNS name or slug`)
  if (!isSlug(p.category))
    return err('uri/category', `category \`${p.category}\` must be 1-64 characters of a-z, 0-9 and -`)
  if (!isSlug(p.name))
    return err('uri/name', `name \`${p.name}\` must be 1-64 characters of a-z, 0-9 and -`)
  if (!SEMVER.test(p.version))
    return err('uri/version', `version \`${p.version}\` is not a semantic version (1.2.0 or v1.2.0)`)
  return null
}

function parseGithub(uri: string, rest: string, err: Fail): GithubUri | UriError {
  const first = rest.indexOf('/')
  if (first === -1)
    return err('uri/segments', 'expected github://{owner}/{repo}[/{path}][@{ref}]')
  const owner = rest.slice(0, first)
  const afterOwner = rest.slice(first + 1)
  const at = afterOwner.indexOf('@')
  const location = at === -1 ? afterOwner : afterOwner.slice(0, at)
  const ref = at === -1 ? null : afterOwner.slice(at + 1)
  const slash = location.indexOf('/')
  const repo = slash === -1 ? location : location.slice(0, slash)
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/.test(owner))
    return err('uri/owner', `\`${owner}\` is not a GitHub user or organisation name`)
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(repo) || repo === '.' || repo === '..')
    return err('uri/repo', `\`${repo}\` is not a GitHub repository name`)
  const path = subPath(slash === -1 ? '' : location.slice(slash + 1), err)
  if (typeof path !== 'string')
    return path
  if (ref !== null && !isGitRef(ref))
    return err('uri/ref', `\`${ref}\` is not a valid git ref`)
  return { ok: true, uri, scheme: 'github', owner, repo, path, ref }
}

function parseGoModule(uri: string, rest: string, err: Fail): GoModuleUri | UriError {
  const at = rest.indexOf('@')
  if (at === -1)
    return err('uri/version', 'expected mod://{module path}@{version}: the version is required')
  const module = rest.slice(0, at)
  const afterAt = rest.slice(at + 1)
  const slash = afterAt.indexOf('/')
  const version = slash === -1 ? afterAt : afterAt.slice(0, slash)
  const elements = module.split('/')
  const validElements = elements.every(e => /^[A-Za-z0-9_~-](?:[A-Za-z0-9._~-]*[A-Za-z0-9_~-])?$/.test(e))
  if (!validElements || !/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(elements[0])) {
    return err(
      'uri/module',
      `\`${module}\` is not a Go module path (it starts with a domain, e.g. github.com/acme/skills)`,
    )
  }
  const semver = GO_VERSION.exec(version)
  if (!semver)
    return err('uri/version', `\`${version}\` is not a Go module version (vX.Y.Z)`)
  // Go's major version rule: a v2+ module path ends in /vN (or is +incompatible).
  const suffix = /\/v([2-9]|[1-9]\d+)$/.exec(module)
  const major = Number(semver[1])
  const incompatible = version.endsWith('+incompatible')
  if (suffix ? Number(suffix[1]) !== major : major >= 2 && !incompatible) {
    const expected = suffix ? ` (/v${suffix[1]})` : ' (no /vN suffix: v0 or v1)'
    return err('uri/version', `version ${version} does not match the module path's major version${expected}`)
  }
  const path = subPath(slash === -1 ? '' : afterAt.slice(slash + 1), err)
  if (typeof path !== 'string')
    return path
  return { ok: true, uri, scheme: 'mod', module, version, path }
}

function parseMaven(uri: string, rest: string, err: Fail): MavenUri | UriError {
  const slash = rest.indexOf('/')
  const gav = slash === -1 ? rest : rest.slice(0, slash)
  const parts = gav.split(':')
  if (parts.length !== 3)
    return err('uri/coordinates', `expected maven://{groupId}:{artifactId}:{version}, got \`${gav}\``)
  const [groupId, artifactId, version] = parts
  if (!/^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/.test(groupId))
    return err('uri/coordinates', `\`${groupId}\` is not a Maven groupId (e.g. com.acme.skills)`)
  if (!/^[A-Za-z0-9_.-]+$/.test(artifactId))
    return err('uri/coordinates', `\`${artifactId}\` is not a Maven artifactId`)
  if (!/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/.test(version))
    return err('uri/version', `\`${version}\` is not a Maven version`)
  const path = subPath(slash === -1 ? '' : rest.slice(slash + 1), err)
  if (typeof path !== 'string')
    return path
  return { ok: true, uri, scheme: 'maven', groupId, artifactId, version, path }
}

const NPM_NAME = /^[a-z0-9-~][a-z0-9-._~]*$/

function parsePkg(uri: string, rest: string, err: Fail): PkgUri | UriError {
  let scope: string | null = null
  let remainder = rest
  if (rest.startsWith('@')) {
    const slash = rest.indexOf('/')
    if (slash === -1)
      return err('uri/package', 'a scoped package needs a name: pkg://@scope/name')
    scope = rest.slice(1, slash)
    if (!NPM_NAME.test(scope))
      return err('uri/package', `\`@${scope}\` is not an npm scope`)
    remainder = rest.slice(slash + 1)
  }
  const end = remainder.search(/[@/]/)
  const bare = end === -1 ? remainder : remainder.slice(0, end)
  if (!NPM_NAME.test(bare))
    return err('uri/package', `\`${bare}\` is not an npm package name (lowercase, url-safe)`)
  const name = scope === null ? bare : `@${scope}/${bare}`
  if (name.length > 214)
    return err('uri/package', 'npm package names are at most 214 characters')
  let after = end === -1 ? '' : remainder.slice(end)
  let version: string | null = null
  if (after.startsWith('@')) {
    const slash = after.indexOf('/')
    version = slash === -1 ? after.slice(1) : after.slice(1, slash)
    if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version))
      return err('uri/version', `\`${version}\` is not a package version or dist-tag`)
    after = slash === -1 ? '' : after.slice(slash)
  }
  const path = subPath(after.replace(/^\//, ''), err)
  if (typeof path !== 'string')
    return path
  return { ok: true, uri, scheme: 'pkg', name, scope, version, path }
}

function parseFile(uri: string, rest: string, err: Fail): FileUri | UriError {
  let raw: string
  let relative = false
  if (rest.startsWith('/')) {
    raw = rest
  }
  else if (rest.startsWith('localhost/')) {
    raw = rest.slice('localhost'.length)
  }
  else if (rest === '.' || rest === '..' || rest.startsWith('./') || rest.startsWith('../')) {
    raw = rest
    relative = true
  }
  else {
    return err('uri/host', 'file:// URIs name a local path: file:///absolute/path or file://./relative/path')
  }
  const decoded = decode(raw)
  if (decoded === null)
    return err('uri/encoding', 'invalid percent-encoding in the path')
  if (decoded.includes('\0') || decoded.includes('\\'))
    return err('uri/path', 'the path contains a NUL or backslash')
  // file:///C:/x is a Windows drive path.
  const path = relative
    ? decoded.replace(/\/+$/, '') || '.'
    : decoded.replace(/^\/([A-Za-z]:\/)/, '$1').replace(/(.)\/+$/, '$1')
  return { ok: true, uri, scheme: 'file', path, relative }
}

/** A folder inside a package or repository: decoded, no empty, `.` or `..` segments. */
function subPath(raw: string, err: Fail): string | UriError {
  const trimmed = raw.replace(/\/$/, '')
  if (trimmed === '')
    return ''
  const segments: string[] = []
  for (const s of trimmed.split('/')) {
    const d = decode(s)
    if (d === null)
      return err('uri/encoding', `invalid percent-encoding in \`${s}\``)
    if (d === '' || d === '.' || d === '..' || d.includes('/') || d.includes('\\') || d.includes('\0'))
      return err('uri/path', `path \`${raw}\` has an empty, \`.\`, \`..\` or escaped-separator segment`)
    segments.push(d)
  }
  return segments.join('/')
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value)
  }
  catch {
    return null
  }
}

/** `git check-ref-format` rules, minus the ones that need a repository. */
function isGitRef(ref: string): boolean {
  if (ref === '' || ref === '@' || ref.length > 255)
    return false
  // eslint-disable-next-line no-control-regex -- git refuses control characters in a ref name
  if (/[\s~^:?*[\\\u0000-\u001F\u007F]|\.\.|@\{|\/\/|^\/|\/$|\.$|\.lock(?:\/|$)|(?:^|\/)\./.test(ref))
    return false
  return true
}

/** Lowercase DNS name with at least `minLabels` labels; a numeric TLD is an IP address, not a name. */
function isDnsName(value: string, minLabels: number): boolean {
  if (value.length === 0 || value.length > 253)
    return false
  const labels = value.split('.')
  if (labels.length < minLabels || !labels.every(l => DNS_LABEL.test(l)))
    return false
  return labels.length === 1 || !/^\d+$/.test(labels[labels.length - 1])
}

/** The canonical `castor://skills/{domain}/{category}/{name}/{version}` of a skill. */
export function formatCastorUri(
  parts: { domain: string, category: string, name: string, version: string },
  scheme: 'castor' | 'cstr' = 'castor',
): string | UriError {
  const uri = `${scheme}://skills/${parts.domain}/${parts.category}/${parts.name}/${parts.version}`
  const err: Fail = (code, message) => ({ ok: false, code, message, uri, scheme })
  return castorPartsProblem(parts, err) ?? uri
}

/**
 * RFC 8141 skill URN: `urn:castor:skill:<domain>:<app>:<skill>:<version>`, version `v`-prefixed
 * as in the spec (`v1.0.0`). The domain is the application's verified DNS name (two labels or more).
 */
export function skillUrn(parts: { domain: string, app: string, skill: string, version: string }): string | UriError {
  const version = parts.version.startsWith('v') ? parts.version : `v${parts.version}`
  const urn = `urn:castor:skill:${parts.domain}:${parts.app}:${parts.skill}:${version}`
  const err: Fail = (code, message) => ({ ok: false, code, message, uri: urn, scheme: 'urn' })
  if (!isDnsName(parts.domain, 2))
    return err('uri/domain', `\`${parts.domain}\` is not a lowercase DNS name such as retailcortex.com`)
  if (!isSlug(parts.app))
    return err('uri/app', `app name \`${parts.app}\` must be 1-64 characters of a-z, 0-9 and -`)
  if (!isSlug(parts.skill))
    return err('uri/name', `skill name \`${parts.skill}\` must be 1-64 characters of a-z, 0-9 and -`)
  if (!SEMVER.test(parts.version))
    return err('uri/version', `version \`${parts.version}\` is not a semantic version`)
  return urn
}

/** Canonical text of a parsed URI (round-trips through `parseSkillUri`). */
export function formatSkillUri(u: ParsedSkillUri): string {
  const enc = (path: string): string => path.split('/').map(encodeURIComponent).join('/')
  const tail = (path: string): string => (path ? `/${enc(path)}` : '')
  switch (u.scheme) {
    case 'castor':
    case 'cstr':
      return `${u.scheme}://skills/${u.domain}/${u.category}/${u.name}/${u.version}`
    case 'github':
      return `github://${u.owner}/${u.repo}${tail(u.path)}${u.ref === null ? '' : `@${u.ref}`}`
    case 'mod':
      return `mod://${u.module}@${u.version}${tail(u.path)}`
    case 'maven':
      return `maven://${u.groupId}:${u.artifactId}:${u.version}${tail(u.path)}`
    case 'pkg':
      return `pkg://${u.name}${u.version === null ? '' : `@${u.version}`}${tail(u.path)}`
    case 'file':
      return u.relative ? `file://${enc(u.path)}` : `file://${u.path.startsWith('/') ? '' : '/'}${enc(u.path)}`
  }
}
