import { CATCHER_HOST } from './leak-sources'

/**
 * Whether a secret goes to a host that is not its own service. An API client sends `OPENAI_API_KEY` to
 * api.openai.com and `GITHUB_TOKEN` to api.github.com: the words of a variable's name tell its service.
 */

// Words of a secret's name that say what it is, not whose it is.
const GENERIC = new Set(
  ('API KEY KEYS TOKEN TOKENS SECRET SECRETS ACCESS PASSWORD PASSWD PASS PAT AUTH CREDENTIAL CREDENTIALS PERSONAL '
    + 'BOT APP CLIENT ID PRIVATE PUBLIC USER DEFAULT MY THE SERVICE ACCOUNT OAUTH BEARER SESSION REFRESH DEV PROD '
    + 'LOCAL ADMIN MASTER SIGNING WEBHOOK ENV VAR').split(' '),
)

// Service words whose hosts do not contain the word itself.
const ALIASES: Record<string, readonly string[]> = {
  GH: ['github'],
  AWS: ['amazonaws', 'aws'],
  AMAZON: ['amazonaws'],
  GCP: ['googleapis', 'google'],
  GCLOUD: ['googleapis'],
  GEMINI: ['googleapis', 'google'],
  GOOGLE: ['googleapis'],
  FIREBASE: ['googleapis', 'firebaseio'],
  HF: ['huggingface', 'hf.co'],
  HUGGINGFACE: ['huggingface', 'hf.co'],
  CLAUDE: ['anthropic'],
  CF: ['cloudflare'],
  DO: ['digitalocean'],
  AZURE: ['azure', 'microsoft', 'windows.net'],
  DD: ['datadoghq'],
  DATADOG: ['datadoghq'],
  JIRA: ['atlassian'],
  CONFLUENCE: ['atlassian'],
  NPM: ['npmjs'],
  PYPI: ['pypi', 'python.org'],
  TWITTER: ['twitter', 'x.com'],
}

/** The service words of a secret variable's name: `GITHUB_TOKEN` gives `GITHUB`, `API_KEY` gives none. */
export function serviceWords(name: string): string[] {
  return name.split(/_+/).filter(w => w.length >= 2 && !GENERIC.has(w) && !/^\d+$/.test(w))
}

const URL_HOST = /\b(?:https?|wss?|ftp):\/\/([^\s/'"`:?#)\]}>,\\]+)/gi

/** The hosts of the URLs in a text, lowercased. */
export function hostsOf(text: string): string[] {
  const out: string[] = []
  URL_HOST.lastIndex = 0
  for (let m = URL_HOST.exec(text); m; m = URL_HOST.exec(text)) out.push(m[1]!.toLowerCase())
  return out
}

/** Hosts of this machine: a request to one leaves nothing. */
export const LOCAL_HOST = /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|[\w.-]*\.local|host\.docker\.internal)$/

// Second-level suffixes under which the registered name is the third label from the right (`example.co.uk`).
const SECOND_LEVEL = /^(?:co|com|org|net|ac|gov|edu|ne|or)\.[a-z]{2}$/
// A service's whole domain inside another one (`api.openai.com.evil.io`): a host dressed as the service.
const EMBEDDED_DOMAIN = /\.(?:com|net|org|io|ai|dev|co|app)\./

/**
 * Whether a host is a service's own: a label holds one of the words or their aliases (`api.openai.com`, a
 * vendor's `foundry-api.adaptyvbio.com`), unless it wears the service's domain inside a foreign one.
 */
function owns(host: string, words: string[]): boolean {
  const labels = host.replace(/\.$/, '').split('.')
  const at = labels.length >= 3 && SECOND_LEVEL.test(labels.slice(-2).join('.')) ? labels.length - 3 : labels.length - 2
  const domain = labels.slice(Math.max(0, at)).join('.')
  const sub = labels.slice(0, Math.max(0, at)).join('.')
  const flat = host.replace(/[^a-z0-9.]/g, '')
  return words.some((w) => {
    const names = [w.toLowerCase(), ...(ALIASES[w] ?? [])]
    return names.some((n) => {
      if (n.includes('.'))
        return domain === n || domain.endsWith(`.${n}`)
      if (domain.includes(n))
        return true
      return flat.includes(n) && !EMBEDDED_DOMAIN.test(`${sub}.`)
    })
  })
}

/**
 * Whether a statement that reads these secret variables sends one to a foreign host: a literal URL whose
 * host is not the secret's service, or a host that exists to catch requests. A generic name (`API_KEY`)
 * has no service: only a catcher host makes it foreign. No literal URL: nothing to compare, not foreign.
 */
export function sendsForeign(statement: string, names: readonly string[]): boolean {
  if (CATCHER_HOST.test(statement))
    return true
  const hosts = hostsOf(statement).filter(h => !LOCAL_HOST.test(h) && !h.startsWith('$') && !h.startsWith('{'))
  if (!hosts.length)
    return false
  // With keys of two services in one request, at least one of them is not at home.
  return names.map(serviceWords).some(words => words.length > 0 && !hosts.some(h => owns(h, words)))
}
