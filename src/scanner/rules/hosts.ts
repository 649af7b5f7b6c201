/**
 * What a rule needs to know about a host an attack fetches from or connects to: whether anybody can be
 * reached there (a public address) or it can only be documentation (a reserved or private address, a
 * placeholder), and whether it is a channel attackers favour (plain http, raw addresses, paste, tunnel and
 * file-drop hosts) or the vendor's own installer host.
 */

/** The URLs of a text (bare `host/path` after curl/wget counts too: curl defaults to http). */
const URL_RE = /\b(?:https?|ftp):\/\/[^\s"'`<>)\]|;]+/gi

export function urlsIn(text: string): string[] {
  return text.match(URL_RE) ?? []
}

/** The host of a URL, lower case, without port or credentials ('' when there is none). */
export function hostOf(url: string): string {
  const m = /^(?:[a-z][\w+.-]*:\/\/)?(?:[^@/\s]*@)?(\[[^\]]*\]|[^:/?#\s]*)/i.exec(url)
  return (m?.[1] ?? '').toLowerCase().replace(/\.$/, '')
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

export const isIp = (host: string): boolean => IPV4.test(host) || host.startsWith('[')

/** Loopback, private, link-local, unspecified and RFC 5737 documentation ranges: nobody outside reaches them. */
export function isReservedIp(host: string): boolean {
  const m = IPV4.exec(host)
  if (!m)
    return host === '[::1]' || host === '[::]'
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])]
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31)
    || (a === 192 && b === 168) || (a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100)
    || (a === 203 && b === 0 && c === 113)
}

/**
 * Hosts that only documentation uses: RFC 2606/6761 names, internal-only suffixes, and names that announce
 * themselves as the attacker's (a security reference's `attacker.com`; a real campaign never names its host so).
 */
const PLACEHOLDER_HOST = new RegExp(
  [
    // eslint-disable-next-line style/max-len -- a pattern is clearer whole
    String.raw`^(?:localhost|example\.(?:com|org|net)|[\w.-]+\.(?:example|test|invalid|localhost|local|internal|lan|corp)`,
    String.raw`|(?:[\w-]+\.)*(?:example|attacker|evil|malicious|badguy|hacker|your-?(?:server|host|domain|ip))`,
    String.raw`(?:-[\w-]+)?\.(?:com|net|org|io|tld|site|xyz))$`,
  ].join(''),
  'i',
)

/** Placeholder words standing for an address (`ATTACKER_IP`, `$LHOST`, `<your-ip>`, `{host}`). */
export const PLACEHOLDER_WORD
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  = /\$\{?L?HOST\b|\bLHOST\b|\bATTACKER(?:_?(?:IP|HOST|ADDR))?\b|\bYOUR_?(?:IP|HOST|SERVER)\b|<[\w -]*(?:ip|host|addr|server)[\w -]*>|\{(?:ip|host|lhost)\}|\b(?:IP|HOST)_?ADDR(?:ESS)?\b|\bHOST[:/\s]+PORT\b/i

export function isDocHost(host: string): boolean {
  return isReservedIp(host) || PLACEHOLDER_HOST.test(host)
}

/** Paste, tunnel, dynamic-DNS, URL-shortener and anonymous file-drop hosts: where campaigns stage payloads. */
const STAGING_HOST = new RegExp(
  [
    String.raw`(?:^|\.)(?:pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|rentry\.(?:co|org)|dpaste\.(?:com|org)`,
    String.raw`|termbin\.com|0x0\.st|transfer\.sh|ix\.io|sprunge\.us|paste\.rs|privatebin\.\w+|justpaste\.it`,
    String.raw`|controlc\.com|pastes\.io|bpa\.st|glot\.io|gist\.githubusercontent\.com`,
    String.raw`|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|serveo\.net|loca\.lt|localtunnel\.me`,
    String.raw`|pinggy\.(?:io|link)|localhost\.run|bore\.pub|playit\.gg|duckdns\.org|no-ip\.\w+|ddns\.net`,
    String.raw`|hopto\.org|zapto\.org|servebeer\.com|bit\.ly|tinyurl\.com|is\.gd|t\.co|goo\.gl|rebrand\.ly`,
    String.raw`|cutt\.ly|shorturl\.at|cdn\.discordapp\.com|media\.discordapp\.net|mega\.nz|gofile\.io`,
    String.raw`|anonfiles\.com|file\.io|catbox\.moe|temp\.sh|webhook\.site|workers\.dev|pages\.dev)$`,
  ].join(''),
  'i',
)

export const isStagingHost = (host: string): boolean => STAGING_HOST.test(host)

/**
 * Vendors' documented installers ("curl ... | sh" is the install command on the project's own page), by
 * host and path prefix: on a host anybody can publish to (raw.githubusercontent.com), only the project's path.
 */
const OFFICIAL_INSTALLER = new RegExp(
  [
    String.raw`^https:\/\/(?:sh\.rustup\.rs|(?:www\.)?rustup\.rs|astral\.sh\/(?:uv|ruff)\/|deno\.land\/|deno\.com\/`,
    String.raw`|bun\.sh\/|bun\.com\/|get\.docker\.com|get\.pnpm\.io|install\.python-poetry\.org|pyenv\.run`,
    String.raw`|fnm\.vercel\.app\/|get\.volta\.sh|volta\.sh\/|mise\.run|mise\.jdx\.dev\/|starship\.rs\/`,
    String.raw`|get\.sdkman\.io|sdk\.cloud\.google\.com|ollama\.com\/install|claude\.ai\/install|get\.chezmoi\.io`,
    String.raw`|install\.determinate\.systems\/|nixos\.org\/nix\/install|(?:releases\.)?nixos\.org\/|get\.k3s\.io`,
    String.raw`|dot\.net\/v1\/|dotnet\.microsoft\.com\/|foundry\.paradigm\.xyz|sh\.vector\.dev|tailscale\.com\/install`,
    // eslint-disable-next-line style/max-len -- a pattern is clearer whole
    String.raw`|get\.helm\.sh|cli\.github\.com|apt\.llvm\.org\/llvm\.sh|opencode\.ai\/install|cursor\.com\/install|brew\.sh`,
    String.raw`|ohmyz\.sh|install\.ohmyz\.sh|pixi\.sh\/|get\.jetpack\.io|get\.haskellup|get-ghcup\.haskell\.org`,
    String.raw`|raw\.githubusercontent\.com\/(?:Homebrew|nvm-sh|ohmyzsh|helm|golangci|pyenv|rbenv|asdf-vm`,
    String.raw`|tj|creationix|Schniz|volta-cli|denoland|oven-sh|astral-sh|rust-lang|cli|anchore|platformio|arduino`
    + String.raw`|espressif)\/)`,
  ].join(''),
  'i',
)

/**
 * A GitHub project's own release asset named after the project (`github.com/o/prek/releases/.../prek-installer.sh`,
 * the form release tooling generates): the project's installer, however anybody could publish one.
 */
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const GITHUB_RELEASE = /^https:\/\/github\.com\/[\w.-]+\/([\w.-]+)\/releases\/(?:latest\/download|download\/[^/\s]+)\/([^\s/?#]+)/i

export function isOfficialInstaller(url: string): boolean {
  if (OFFICIAL_INSTALLER.test(url))
    return true
  const m = GITHUB_RELEASE.exec(url)
  if (!m)
    return false
  const norm = (s: string): string => s.toLowerCase().replace(/[-_.]/g, '')
  return norm(m[2]!).startsWith(norm(m[1]!))
}

export type Risk = 'staging' | 'plain' | 'official' | 'doc' | 'unknown'

/**
 * The worst channel among the URLs of a text: staging hosts, then plain http and raw public addresses, then
 * unknown hosts; 'official' or 'doc' only when every URL is one (no URL at all is 'unknown').
 */
export function downloadRisk(text: string): Risk {
  const urls = urlsIn(text)
  // curl and wget take bare hosts: `curl attacker.com/x | sh` fetches over plain http.
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  const bare = /\b(?:curl|wget|irm|iwr)\b(?:\s+-{1,2}[\w-]+(?:[=\s]+['"][^'"]*['"])?)*\s+['"]?((?:\d{1,3}\.){3}\d{1,3}|[a-z\d][\w-]*(?:\.[\w-]+)+)((?:[:/][^\s"'`)|;]*)?)/i.exec(text)
  // A vendor documents its installer by bare host (`curl -fsLS get.chezmoi.io`, `irm bun.sh/install.ps1`): the
  // host answers over https, and it is the vendor's. Any other bare host is fetched over plain http.
  const vendor = bare && `https://${bare[1]}${bare[2]}`
  if (vendor && isOfficialInstaller(vendor))
    urls.push(vendor)
  else if (bare && !/^[\w-]+\.(?:sh|py|js|txt|json|tar|gz|zip|exe)$/i.test(bare[1]!))
    urls.push(`http://${bare[1]}`)
  if (!urls.length)
    return 'unknown'
  let worst: Risk | null = null
  const rank: Record<Risk, number> = { staging: 4, plain: 3, unknown: 2, official: 1, doc: 0 }
  for (const url of urls) {
    const host = hostOf(url)
    let r: Risk
    if (isStagingHost(host))
      r = 'staging'
    else if (isDocHost(host))
      r = 'doc'
    else if (/^(?:http|ftp):/i.test(url) || isIp(host))
      r = 'plain'
    else if (isOfficialInstaller(url))
      r = 'official'
    else r = 'unknown'
    if (worst === null || rank[r] > rank[worst])
      worst = r
  }
  return worst!
}
