import type { Severity, SkillSource } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import { excerptAt } from '../excerpt'
import { LineIndex } from '../lines'
import { bySeverity, codeChunks, toRaw } from './code-blocks'
import { hostOf, isIp, isReservedIp, isStagingHost } from './hosts'
import { installHooks } from './install-hooks'
import { oneEdit } from './typosquat'

const ALL = ['sh', 'prose', 'text', 'py', 'js'] as const

/**
 * Package sources, by what an install from them means.
 * - Known: the ecosystems' public registries and their official mirrors, and the vendors' own documented
 *   indexes (PyTorch and NVIDIA wheels): no finding.
 * - Private: registry services a company runs its own registry on (Artifactory, Nexus, GitHub Packages,
 *   Azure Artifacts, Google Artifact Registry, CodeArtifact, Cloudsmith, Gemfury, GitLab's package API) and
 *   hosts on internal-only names or addresses: a warning (legitimate, but an extra index is how dependency
 *   confusion works).
 * - Anything else is an unknown registry: an error, and so are plain http, staging hosts and public addresses.
 */
const KNOWN = new RegExp(
  [
    String.raw`^(?:pypi\.org|pypi\.python\.org|files\.pythonhosted\.org|download\.pytorch\.org|pypi\.nvidia\.com`,
    String.raw`|pypi\.ngc\.nvidia\.com|data\.pyg\.org|registry\.npmjs\.org|registry\.npmjs\.com|registry\.yarnpkg\.com`,
    String.raw`|registry\.npmmirror\.com|proxy\.golang\.org|goproxy\.io|goproxy\.cn|sum\.golang\.org|rubygems\.org`,
    String.raw`|index\.crates\.io|crates\.io|repo\.maven\.apache\.org|repo1\.maven\.org|pypi\.tuna\.tsinghua\.edu\.cn`,
    String.raw`|mirrors\.aliyun\.com|jsr\.io|conda\.anaconda\.org|repo\.anaconda\.com|api\.nuget\.org|packagist\.org`
    + String.raw`|repo\.packagist\.org|cdn\.cocoapods\.org|trunk\.cocoapods\.org|maven\.google\.com|dl\.google\.com`
    + String.raw`|plugins\.gradle\.org|central\.sonatype\.com|center2?\.conan\.io|cloud\.r-project\.org`
    + String.raw`|cran\.r-project\.org|cran\.rstudio\.com|packagemanager\.(?:posit\.co|rstudio\.com)`
    + String.raw`|bioconductor\.org)$`,
  ].join(''),
  'i',
)
const PRIVATE = new RegExp(
  [
    String.raw`(?:^|[.-])(?:artifactory|nexus|jfrog|verdaccio|devpi|proget|pulp)(?:[.-]|$)|\.jfrog\.io$`,
    String.raw`|^npm\.pkg\.github\.com$|^(?:maven|nuget|rubygems)\.pkg\.github\.com$|^pkgs\.dev\.azure\.com$`,
    // eslint-disable-next-line style/max-len -- a pattern is clearer whole
    String.raw`|\.pkgs\.visualstudio\.com$|-(?:python|npm|maven|go)\.pkg\.dev$|\.pkg\.dev$|\.codeartifact\.[\w-]+\.amazonaws\.com$`,
    String.raw`|\.cloudsmith\.io$|^(?:pypi|npm|repo)\.fury\.io$|\.gemfury\.com$|^gitlab\.com$`,
    // RFC 2606's reserved names too (`pypi.internal.your-org.example`): no one can register them.
    String.raw`|\.(?:internal|corp|local|lan|intranet|localhost|example|test|invalid)$|^localhost$`,
    // JitPack builds any GitHub repository on request: a code host's trust, not a registry's review.
    String.raw`|^(?:www\.)?jitpack\.io$`,
  ].join(''),
  'i',
)

/**
 * The registries' own test instances: run by the registry, the place packaging guides publish a release to first,
 * but anybody uploads anything there unreviewed (a warning, like a private index, not an unknown host's error).
 */
const TEST_INDEX = /^test\.pypi\.org$/i
// Registries at a path of a code host: CocoaPods' own spec repository, the Podfile default before its CDN.
const KNOWN_URL = /^https:\/\/github\.com\/CocoaPods\/Specs(?:\.git)?\/?$/i

type Source = 'known' | 'private' | 'test' | 'unknown'

function sourceOf(url: string): Source | 'bad' {
  const host = hostOf(url)
  if (!host || isStagingHost(host))
    return 'bad'
  if (isIp(host))
    return isReservedIp(host) ? 'private' : 'bad'
  if (/^http:/i.test(url) && !PRIVATE.test(host))
    return 'bad'
  if (TEST_INDEX.test(host))
    return /^https:/i.test(url) ? 'test' : 'bad'
  if (KNOWN_URL.test(url))
    return 'known'
  return KNOWN.test(host) ? 'known' : PRIVATE.test(host) ? 'private' : 'unknown'
}

/** A registry or index: a known host nothing, a private one a warning, the rest an error. */
function registryOf(url: string): Severity | null {
  // A variable or a placeholder: the value is set elsewhere (and read there).
  if (/^[$<{%]/.test(url))
    return null
  const s = sourceOf(/^[a-z][\w+.-]*:\/\//i.test(url) ? url : `https://${url}`)
  return s === 'known' ? null : s === 'private' || s === 'test' ? 'warning' : 'error'
}
const registry = (m: RegExpExecArray): Severity | null => registryOf(m[1] ?? m[2] ?? '')

/**
 * A package installed from a URL or a repository: a code host or the registry's file host is a warning
 * (unreviewed, but a project's own repository); pinned to a full commit, nothing; anything else an error.
 */
function direct(m: RegExpExecArray): Severity | null {
  return directOf(m[1] ?? m[2] ?? '')
}

function directOf(url: string): Severity | null {
  if (/@[0-9a-f]{40}\b/i.test(url))
    return null
  const s = sourceOf(url.replace(/^git\+/, ''))
  if (s === 'bad')
    return 'error'
  const host = hostOf(url.replace(/^git\+/, ''))
  if (/^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|files\.pythonhosted\.org|huggingface\.co)$/.test(host))
    return 'warning'
  return s === 'known' ? null : s === 'private' || s === 'test' ? 'warning' : 'error'
}

/**
 * A go.mod replacement: the same owner (a module that moved) nothing, an owner that imitates the original's
 * (`sirupsen` -> `sirupsen-go`, `gorilla` -> `gorllla`) an error, any other fork a warning: a team's patched
 * fork is common, and is still code the module's own maintainers never published.
 */
function replaced(m: RegExpExecArray): Severity | null {
  const [fromHost, fromOwner = '', fromRepo = ''] = m[1]!.toLowerCase().split('/')
  const [toHost, toOwner = '', toRepo = ''] = m[2]!.toLowerCase().split('/')
  if (fromHost === toHost && fromOwner === toOwner)
    return null
  const squash = (s: string): string => s.replace(/[-_.]/g, '')
  const imitates = toOwner !== fromOwner && fromOwner.length >= 4 && (toRepo === fromRepo || toRepo === '')
    && (squash(toOwner).includes(squash(fromOwner)) || oneEdit(toOwner, fromOwner))
  return imitates ? 'error' : 'warning'
}

const SCHEME_URL = String.raw`["']?((?:git\+)?(?:https?|ftp|ssh):\/\/[^\s"'\`)]+)`
const URL = String.raw`["']?((?:git\+)?(?:https?|ftp|ssh):\/\/[^\s"'\`)]+|[\w.-]+\.[a-z]{2,}[^\s"'\`)]*|\$\{?\w+\}?\S*)`

/** Installs from places the ecosystem's registry does not vouch for. */
export const supplyChain: RuleModule = {
  meta: {
    id: 'supply_chain',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-829',
    description:
      'Supply-chain install: packages from an unknown index or registry (pip --index-url/--extra-index-url/'
      + '--find-links/--trusted-host, npm --registry, GOPROXY), from a URL or git+ reference (a command or a '
      + 'manifest\'s dependency), or run unpinned '
      + 'with npx -y. Public registries and vendors\' documented indexes are known; private registry services '
      + '(Artifactory, Nexus, GitHub Packages, ...) are warnings; any other host is an error.',
    hint:
      'Install from the public registry with pinned versions and a lockfile; if a private registry is needed, '
      + 'configure it in the project, not in a skill.',
  },
  patterns: [
    ...bySeverity({
      anchor:
        'index-url|find-links|--default-index|--index|PIP_INDEX_URL|UV_INDEX_URL|PIP_EXTRA_INDEX_URL'
        + '|UV_EXTRA_INDEX_URL|PIP_FIND_LINKS',
      re: new RegExp(
        String.raw`(?:--(?:extra-)?index-url|--find-links|--default-index|--index(?=[=\s]+["']?https?:)|\bindex-url\b`
        // eslint-disable-next-line style/max-len -- a pattern is clearer whole
        + String.raw`|\bextra-index-url\b|\bfind-links\b|\b(?:PIP|UV)_(?:EXTRA_)?INDEX_URL\b|\bPIP_FIND_LINKS\b)\s*[=\s]\s*${URL}`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'installs Python packages from an index that is not PyPI',
    }, registry),
    ...bySeverity({
      // An index a project file names (`[[tool.uv.index]]`, `[[tool.poetry.source]]`, PDM's sources): a PEP 503
      // `/simple` URL.
      anchor: 'url',
      // A placeholder host (`https://<your-artifact-host>/...`) is the reader's own index, to fill in.
      re: /^\s*url\s*=\s*["'](https?:\/\/[\w.-]+(?::\d+)?(?:\/[^\s"'<>{}$]*)?\/simple\/?)["']/i,
      langs: ['text'],
      message: 'installs Python packages from an index that is not PyPI',
    }, registry),
    ...bySeverity({
      anchor: String.raw`pip[\d.]*\s+install|uv\s+pip`,
      re: new RegExp(String.raw`\b(?:pip[\d.]*|uv\s+pip)\s+install\b[^\n|;]{0,200}?\s-i\s+${URL}`, 'i'),
      langs: ALL,
      view: 'noComments',
      message: 'installs Python packages from an index that is not PyPI',
    }, registry),
    ...bySeverity({
      anchor: '--trusted-host|trusted-host',
      re: /\btrusted-host\s*[=\s]\s*["']?([\w.-]+)/i,
      langs: ALL,
      view: 'noComments',
      message: 'turns off TLS verification for a package host (--trusted-host)',
    }, (m) => {
      const s = sourceOf(`https://${m[1]}`)
      return s === 'bad' || s === 'unknown' ? 'error' : 'warning'
    }),
    ...bySeverity({
      anchor: String.raw`pip[\d.]*\s+install|pipx|easy_install|uv\s+tool|uvx`,
      re: new RegExp(
        String.raw`\b(?:pip[\d.]*|uv\s+pip|pipx|easy_install|python[\d.]*\s+-m\s+pip|uv\s+tool)\s+install\b`
        + String.raw`(?:\s+[^\s|;&]+){0,8}?\s+${SCHEME_URL}`
        // `uvx` runs one package: a URL there is its `--from` or its first argument; later ones are the tool's.
        + String.raw`|\buvx(?:\s+--(?!from\b)[\w-]+(?:=[^\s|;&]+|\s+(?!-)[^\s|;&]+)?)*`
        + String.raw`\s+(?:--from[=\s]+)?${SCHEME_URL}`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'pip installs a package from a URL or repository',
      // The URL of an index flag is the index patterns' to judge.
    // eslint-disable-next-line style/max-len -- a pattern is clearer whole
    }, m => (/(?:\s-[if]|--(?:extra-)?index-url|--find-links|--trusted-host|--default-index|--index)[=\s]+["']?\S+$/.test(m[0]) ? null : direct(m))),
    ...bySeverity({
      anchor: '--registry|registry|NPM_CONFIG_REGISTRY|npm_config_registry',
      re: new RegExp(
        String.raw`--registry[=\s]+${URL}|(?:(?:^|\s)(?:@[\w-]+:)?registry\s*=\s*|\bnpm_config_registry\s*=\s*`
        + String.raw`|config\s+set\s+(?:@[\w-]+:)?registry\s+|"registry"\s*:\s*)${SCHEME_URL}`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'installs npm packages from a registry that is not npmjs',
    }, registry),
    ...bySeverity({
      anchor: 'GOPROXY',
      re: /\bGOPROXY\s*[:?]?=\s*["']?([^\s"',|]+)/,
      langs: ALL,
      view: 'noComments',
      message: 'fetches Go modules through a proxy that is not proxy.golang.org',
    }, (m) => {
      const first = (m[1] ?? '').split(/[,|]/)[0]!
      return first === 'direct' || first === 'off' ? null : registryOf(first)
    }),
    {
      // Go's checksum database turned off (for everything, or for the modules named) and modules fetched over plain
      // HTTP: what a look-alike fork or a swapped proxy needs to pass unnoticed.
      anchor: 'GOSUMDB|GONOSUMDB|GONOSUMCHECK|GOINSECURE|GOFLAGS',
      re: new RegExp(
        String.raw`\bGOSUMDB\s*[:?]?=\s*["']?off\b|\b(?:GONOSUMDB|GONOSUMCHECK|GOINSECURE)\s*[:?]?=\s*["']?[\w.*]`
        + String.raw`|\bGOFLAGS\s*[:?]?=\s*["']?[^\n"']*-insecure\b`,
      ),
      langs: ALL,
      view: 'noComments',
      message: 'turns off Go\'s checksum database or fetches modules insecurely',
      severity: 'warning',
    },
    ...bySeverity({
      anchor: 'gem install|gem sources|cargo install',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: new RegExp(String.raw`\b(?:gem\s+(?:install|sources\s+(?:-a|--add))\b[^\n]*?(?:--source\s+|--add\s+|-a\s+)|cargo\s+install\b[^\n]*?--git\s+)${URL}`, 'i'),
      langs: ALL,
      view: 'noComments',
      message: 'installs a gem or crate from a source that is not its registry',
    }, direct),
    // The other ecosystems' ways to swap the registry: Bundler mirrors and a Gemfile's `source`, Cargo's `--index`
    // and a registry's `index =`, Yarn Berry's `npmRegistryServer`, NuGet and Conda sources, Composer repositories.
    ...bySeverity({
      anchor: 'source|mirror|index|registry|npmRegistryServer|nuget|conda|repositories|PackageSource',
      re: new RegExp(
        [
          String.raw`(?:^\s*source\s+\(?|\bbundle\s+config\s+(?:set\s+)?(?:--(?:global|local)\s+)?mirror\.\S+\s+`,
          String.raw`|\bcargo\s+\w+\b[^\n]*?--index\s+|^\s*(?:index|registry)\s*=\s*(?=["']?(?:sparse|registry)\+)`,
          String.raw`|^\s*index\s*=\s*|\bnpmRegistryServer["']?\s*[:\s]\s*`,
          String.raw`|\bnuget\s+(?:add\s+source|sources\s+add\b[^\n]*?-Source)\s+`,
          String.raw`|\bAdd-PackageSource\b[^\n]*?-Location\s+`,
          String.raw`|\bconda\s+(?:install|create|env\s+create)\b[^\n]*?(?:-c|--channel)\s+`,
          String.raw`|\bcomposer\s+config\s+(?:--global\s+)?repositories\.\S+\s+(?:composer|vcs|artifact)\s+)`,
          String.raw`["']?(?:sparse\+|registry\+)?`,
          SCHEME_URL,
        ].join(''),
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'installs packages from a registry or index that is not the ecosystem\'s own',
    }, registry),
    // A manifest's dependency taken from a tarball URL or a git repository (`"pkg": "https://host/pkg.tgz"`,
    // `"pkg": "git+https://..."`): npm installs it from there, unreviewed by the registry. `url`, `repository`
    // and the like name where the package's own source lives, not what it installs.
    ...bySeverity({
      anchor: String.raw`git\+|git:|\.tgz|\.tar\.gz`,
      re: new RegExp(
        String.raw`"(?!url"|repository"|homepage"|bugs"|funding"|source"|\$schema")[@\w./-]+"\s*:\s*"`
        + String.raw`((?:git\+(?:https?|ssh):\/\/|git:\/\/)[^"\s]+|https?:\/\/[^"\s]+\.(?:tgz|tar\.gz))"`,
        'i',
      ),
      langs: ['text'],
      message: 'a dependency is installed from a URL or a git repository, not the registry',
    }, direct),
    // The same off the manifest: `npm install "pkg@https://host/pkg.tgz"`, `yarn add pkg@git+https://...`, and a
    // requirements line's direct reference (`pkg @ https://host/pkg.whl`, PEP 508).
    ...bySeverity({
      anchor: String.raw`npm\s+i|pnpm\s+(?:add|i)|yarn\s+add|yarn\s+global|bun\s+(?:add|i)`,
      re: new RegExp(
        String.raw`\b(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|yarn\s+(?:global\s+)?add`
        + String.raw`|bun\s+(?:add|install|i))\b(?:\s+[^\s|;&]+){0,8}?\s+["']?(?:(?:@[\w.-]+\/)?[\w.-]+@)?`
        + String.raw`((?:git\+)?(?:https?|ssh|git):\/\/[^\s"'\`)]+)`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'installs a package from a URL or a git repository, not the registry',
    }, m => (/(?:--registry)[=\s]+["']?\S+$/.test(m[0]) ? null : direct(m))),
    ...bySeverity({
      anchor: String.raw`@\s+(?:git\+)?https?:`,
      re: /^\s*["']?[a-z\d][\w.-]*(?:\[[\w,\s-]*\])?\s*@\s+((?:git\+)?https?:\/\/[^\s"';]+)/i,
      langs: ALL,
      view: 'noComments',
      message: 'a requirement is installed from a URL or a git repository, not the index',
    }, direct),
    // Gradle's and Maven's repositories: `maven { url = uri("...") }`, `maven("...")`, `maven { url '...' }`.
    ...bySeverity({
      anchor: String.raw`maven|uri\(`,
      re: new RegExp(
        String.raw`\bmaven\s*(?:\(\s*(?:url\s*=\s*)?(?:uri\(\s*)?|\{\s*(?:url\s*(?:=\s*)?|setUrl\(\s*)(?:uri\(\s*)?)`
        + String.raw`["'](\w+:\/\/[^"'\s]+)["']|^\s*(?:url\s*=?\s*|setUrl\(\s*)uri\(\s*["'](\w+:\/\/[^"'\s]+)["']`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'resolves Gradle or Maven dependencies from a repository that is not the ecosystem\'s own',
    }, registry),
    {
      anchor: 'AllowInsecureProtocol|isAllowInsecureProtocol',
      re: /\b(?:is)?allowInsecureProtocol(?:\s*=\s*|\s*\(\s*|\s+)true\b/i,
      langs: ALL,
      view: 'noComments',
      message: 'lets Gradle fetch dependencies over plain HTTP',
      severity: 'warning',
    },
    // Cargo's git dependencies (`serde = { git = "https://...", rev = "main" }`), pinned only by a full commit.
    ...bySeverity({
      anchor: 'git =|git=',
      re: /^\s*[\w-]+\s*=\s*\{[^}\n]*\bgit\s*=\s*"((?:https?|ssh|git):\/\/[^"\s]+)"/,
      langs: ALL,
      view: 'noComments',
      message: 'a crate is built from a git repository, not crates.io',
    }, (m, line) => (/\brev\s*=\s*"[0-9a-f]{40}"/.test(line) ? null : direct(m))),
    // go.mod's `replace`: a module's import path built from another repository's code.
    ...bySeverity({
      anchor: String.raw`=>\s*[\w.-]+\.[a-z]{2,}\/`,
      re: new RegExp(
        String.raw`^\s*(?:replace\s+)?([\w.-]+\.[a-z]{2,}\/[\w.-]+(?:\/[\w.-]+)?)(?:\/v\d+)?(?:\s+v[^\s=]+)?`
        + String.raw`\s+=>\s+([\w.-]+\.[a-z]{2,}\/[\w.-]+(?:\/[\w.-]+)?)\S*\s+v\d`,
      ),
      langs: ['text'],
      view: 'noComments',
      message: 'go.mod builds a module from another repository\'s code (replace)',
    }, replaced),
    // CMake's FetchContent and ExternalProject: a repository or an archive fetched at configure time.
    ...bySeverity({
      anchor: 'GIT_REPOSITORY|URL',
      re: new RegExp(
        String.raw`(?:^\s*|\b(?:FetchContent_Declare|ExternalProject_Add)\s*\(\s*\w+\s+)(?:GIT_REPOSITORY|URL)\s+`
        + String.raw`["']?((?:https?|git|ssh):\/\/[^\s"')]+)`,
      ),
      langs: ['text', 'sh'],
      view: 'noComments',
      message: 'CMake fetches a dependency from a repository or URL at configure time',
    }, direct),
    // Conan remotes, vcpkg registries and R's package repositories.
    ...bySeverity({
      anchor: 'conan remote|repos',
      re: new RegExp(
        String.raw`\bconan\s+remote\s+(?:add|update)\s+(?:-\S+\s+)*\S+\s+["']?(https?:\/\/[^\s"']+)`
        + String.raw`|\brepos\s*=\s*(?:c\s*\()?[^)\n]*?["'](https?:\/\/[^"']+)["']`,
      ),
      langs: ALL,
      view: 'noComments',
      message: 'installs packages from a registry or index that is not the ecosystem\'s own',
    }, registry),
    ...bySeverity({
      anchor: 'install_github|install_git|pkg_install',
      re: /\b(?:remotes|devtools|pak)::(?:install_github|install_git|pkg_install)\s*\(\s*["']([^"']+)["']/,
      langs: ALL,
      view: 'noComments',
      message: 'installs an R package from a code host, not CRAN',
    }, m => (/@[0-9a-f]{40}$/.test(m[1]!) ? null : 'warning')),
    // npx -y runs whatever version the registry serves today, without asking: a takeover or a typo runs at once.
    ...bySeverity({
      anchor: 'npx|bunx|pnpm dlx|yarn dlx',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+(?:-{1,2}[\w-]+\s+)*?(?:-y|--yes)\s+(?:-{1,2}[\w-]+(?:[=\s]\S+)?\s+)*?["']?((?:@[\w.-]+\/)?[\w.:/+-]+(?:@[\w.^~<>=*-]+)?)/,
      langs: ALL,
      view: 'noComments',
      message: 'runs an unpinned package with npx -y',
    }, m => npxJudge(m[1] ?? '')),
    ...bySeverity({
      anchor: '"npx"|\'npx\'|"bunx"',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /["'](?:npx|bunx)["']\s*,\s*["']?(?:args["']?\s*:\s*)?\[?\s*(?:["']-[\w-]+["']\s*,\s*)*?["'](?:-y|--yes)["']\s*,\s*(?:["']-[\w-]+["']\s*,\s*)*["']((?:@[\w.-]+\/)?[\w.:/+-]+(?:@[\w.^~<>=*-]+)?)["']/,
      langs: ALL,
      message: 'runs an unpinned package with npx -y',
    }, m => npxJudge(m[1] ?? '')),
  ],
  visitSkill: skill => [
    ...selfPublishing(skill),
    ...installHooks(skill),
    ...vcpkgRegistries(skill),
    ...mcpLaunchers(skill),
  ],
}

/**
 * MCP server configurations (`.mcp.json`, Claude Desktop's, VS Code's `servers`) that start a server with `npx -y`
 * over several lines, where the one-line pattern above cannot see the command and its arguments together.
 */
function mcpLaunchers(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  for (const file of skill.files) {
    const text = file.text
    if (!text || !file.path.endsWith('.json') || !/"(?:mcpServers|servers)"/.test(text))
      continue
    let config: unknown
    try {
      config = JSON.parse(text)
    }
    catch {
      continue
    }
    const root = (config && typeof config === 'object' ? config : {}) as Record<string, unknown>
    const servers = root.mcpServers ?? root.servers
    let index: LineIndex | undefined
    for (const server of Object.values(servers && typeof servers === 'object' ? servers : {})) {
      const { command, args } = (server && typeof server === 'object' ? server : {}) as Record<string, unknown>
      if (typeof command !== 'string' || !/^(?:npx|bunx)$/.test(command) || !Array.isArray(args))
        continue
      const words = args.filter((a): a is string => typeof a === 'string')
      const spec = words.find(w => !w.startsWith('-'))
      if (!spec || !words.slice(0, words.indexOf(spec)).some(w => w === '-y' || w === '--yes'))
        continue
      const severity = npxJudge(spec)
      if (!severity)
        continue
      // Past the spec's opening quote; a spec escaped in the file (`\u0040`) is not found: no place to point at.
      const at = text.indexOf(`"${spec}"`) + 1
      if (at === 0)
        continue
      index ??= new LineIndex(text)
      const line = index.lineOf(at)
      const lineText = index.line(line)
      const column = at - index.start(line)
      // On one line with its command, the line pattern reports it.
      if (/["'](?:npx|bunx)["']/.test(lineText))
        continue
      out.push({
        rule: 'supply_chain',
        path: file.path,
        line: line + 1,
        column: column + 1,
        message: 'an MCP server runs an unpinned package with npx -y',
        excerpt: excerptAt(lineText, column, spec.length),
        ...(severity === 'warning' ? { severity } : {}),
      })
    }
  }
  return out
}

/** Pinned to an exact version: nothing. A URL or git source off the registry: by host. Unpinned: a warning. */
function npxJudge(spec: string): Severity | null {
  if (/^(?:https?:|git\+|git:|github:|gitlab:|bitbucket:)/i.test(spec))
    return /^(?:github|gitlab|bitbucket):/i.test(spec) ? 'warning' : directOf(spec)
  const at = spec.lastIndexOf('@')
  const version = at > 0 ? spec.slice(at + 1) : ''
  return /^v?\d+\.\d+\.\d+(?:[-+][\w.]+)?$/.test(version) ? null : 'warning'
}

// A worm's loop: the packages its user may publish are listed, each is given an install hook and published again.
const PUBLISH = /\b(?:npm|pnpm|yarn)\s+publish\b/
const INSTALL_HOOK = /\b(?:pre|post)?install["']?\s*:\s*["'`]/
const OWNED = /\bnpm\s+(?:access\s+(?:list|ls)\s+packages|owner\s+ls|search\s+--json\s+maintainer:)|\bnpm\s+pack\b/

/** Code that adds an install hook to packages it fetches and publishes them again (a self-spreading package). */
function selfPublishing(skill: SkillSource): RawFinding[] {
  const found = codeChunks(skill).flatMap((chunk) => {
    if (!PUBLISH.test(chunk.text) || !INSTALL_HOOK.test(chunk.text) || !OWNED.test(chunk.text))
      return []
    const line = chunk.lines.findIndex(l => PUBLISH.test(l))
    const text = chunk.lines[line]!
    return [{
      chunk,
      line,
      column: text.length - text.trimStart().length,
      message: 'adds an install hook to the packages it can publish and publishes them again (a worm)',
      excerpt: text,
      severity: 'error' as const,
    }]
  })
  return toRaw('supply_chain', found)
}

const VCPKG_SOURCE = /"(?:repository|location)"\s*:\s*"((?:https?|git|ssh):\/\/[^"\s]+)"/

/** vcpkg's registries (`vcpkg-configuration.json`): the repository or archive its ports come from. */
function vcpkgRegistries(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  for (const file of skill.files) {
    if (file.text === null || !/(?:^|\/)vcpkg(?:-configuration)?\.json$/.test(file.path))
      continue
    file.text.split('\n').forEach((line, i) => {
      const m = VCPKG_SOURCE.exec(line)
      const severity = m && !/github\.com\/microsoft\/vcpkg(?:\.git)?$/i.test(m[1]!) ? directOf(m[1]!) : null
      if (!m || !severity)
        return
      const col = line.length - line.trimStart().length
      out.push({
        rule: 'supply_chain',
        path: file.path,
        line: i + 1,
        column: col + 1,
        message: 'vcpkg takes ports from a registry that is not its own',
        excerpt: excerptAt(line, col, Math.min(80, line.length - col)),
        ...(severity === 'warning' ? { severity } : {}),
      })
    })
  }
  return out
}
