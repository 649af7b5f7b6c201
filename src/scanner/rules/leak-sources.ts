/**
 * What data-leaving rules look for: credential stores (by kind, since a harvester reads several kinds), secret
 * variables, dumps of the whole environment, and hosts that exist to receive stolen data.
 */

import { literalTest } from '../finder/index'

/** Reading the clipboard, which is itself the read (as copying the environment is). */
export const CLIPBOARD = String.raw`\bGet-Clipboard\b|\bpbpaste\b|\bpyperclip\.paste\b|\bxclip\b[^\n|;&.]*\s-o\b`
  + String.raw`|\bxsel\s+-\w*o|\bwl-paste\b|\bclipboard\.readText\b|\bClipboard\]?::GetText\b|\bClipboard\.GetText\b`

/** Credential stores by kind. A public key (`id_rsa.pub`) is not one. */
export const STORES: ReadonlyArray<{ kind: string, re: string }> = [
  {
    kind: 'ssh keys',
    // Public keys, known hosts and the client config are not secrets.
    re: String.raw`(?:~\/\.ssh\b|\$HOME\/\.ssh\b|\.ssh\/(?:id_|\*))`
      + String.raw`(?![\w\/.*-]*(?:\.pub|known_hosts|authorized_keys|\/config)\b)`
      + String.raw`|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)`,
  },
  // A cloud instance's own credentials, from its metadata service, count as that cloud's.
  {
    kind: 'AWS credentials',
    re: String.raw`\.aws[\/\\](?:credentials|config)\b|~\/\.aws\b|\$HOME\/\.aws\b|\/iam\/security-credentials\b`,
  },
  // One kind per cloud: a tool reads its own cloud's login, a sweep reads several.
  {
    kind: 'Google Cloud credentials',
    re: String.raw`\.config\/gcloud\b|application_default_credentials|computeMetadata\/v1\/instance\/service-accounts`,
  },
  {
    kind: 'Azure credentials',
    re: String.raw`\.azure[\/\\]|\bmetadata\/identity\/oauth2\/token|\bmsal_token_cache\.(?:json|bin)\b`,
  },
  { kind: 'Kubernetes config', re: String.raw`\.kube[\/\\]config\b` },
  // A pod's own identity, mounted into every container.
  { kind: 'Kubernetes service account token', re: String.raw`\/var\/run\/secrets\/kubernetes\.io\/serviceaccount` },
  { kind: 'Docker credentials', re: String.raw`\.docker[\/\\]config\.json` },
  { kind: 'Terraform and Vault tokens', re: String.raw`\.terraform\.d\/credentials|\.vault-token\b` },
  // App signing: Android keystores and the properties file that holds their passwords, PKCS#12 bundles (not
  // Android's debug keystore, whose password is public).
  {
    kind: 'signing keys',
    re: String.raw`\bkeystore\.properties\b|(?<!debug)\.(?:jks|keystore)\b(?![\w-])|\.(?:p12|pfx)\b(?![\w-])`,
  },
  { kind: 'DigitalOcean credentials', re: String.raw`\.config\/doctl` },
  {
    kind: 'package and git tokens',
    re: String.raw`\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.config\/gh\/hosts|\.gem\/credentials`
      // Gradle's and Maven's user settings, where publishing and signing credentials live.
      + String.raw`|\.cargo\/credentials|\.gradle\/gradle\.properties|\.m2\/settings(?:-security)?\.xml`,
  },
  // Database clients' saved logins: dbt's profiles, libpq's password file, MySQL's option file.
  {
    kind: 'database logins',
    re: String.raw`\.dbt\}?[\/\\]profiles\.ya?ml\b|\.pgpass\b|\.my\.cnf\b|\.snowsql[\/\\]config\b`,
  },
  // The clipboard, where password managers put what they copy (MITRE ATT&CK T1115).
  { kind: 'clipboard', re: CLIPBOARD },
  // Web applications' own secrets files: Magento's env.php (database password, encryption key), WordPress's
  // wp-config.php (database password, salts), Rails' master key.
  {
    kind: 'application secrets files',
    re: String.raw`\bapp\/etc\/env\.php\b|\bwp-config\.php\b|\bconfig\/master\.key\b`,
  },
  // Configuration searched for passwords (MITRE ATT&CK T1552.001): a recursive grep of system folders for them.
  {
    kind: 'passwords searched in files',
    re: String.raw`\bgrep\s+-\w*r\w*\b[^\n;&.!?]{0,40}?(?:passw|bindpw|rootpw|authtok)[^\n;&.!?]{0,80}?`
      + String.raw`\s(?:\/etc|\/home|\/root|\/opt|~)(?:\/\S*)?(?![^\s])`,
  },
  // Kerberos keytabs and ticket caches, and the bind passwords LDAP clients keep for the host.
  {
    kind: 'Kerberos and directory logins',
    re: String.raw`\.keytab\b|\bkrb5cc_|\/etc\/(?:ldap|pam_ldap|libnss-ldap)\.secret\b|\/etc\/sssd\/sssd\.conf\b`,
  },
  { kind: 'GnuPG keyring', re: String.raw`\.gnupg\b|secring\.gpg` },
  // Model hubs' and ML platforms' logins.
  {
    kind: 'ML platform tokens',
    re: String.raw`(?:\.|\bcache\/)huggingface\/token\b|huggingface\/stored_tokens|\.kaggle\/kaggle\.json`
      + String.raw`|\.config\/wandb\b`
      + String.raw`|\.databrickscfg\b`,
  },
  { kind: 'password store', re: String.raw`\.password-store\b|\.kdbx\b|1Password[\/\\]|Bitwarden[\/\\]` },
  {
    kind: 'Wi-Fi passwords',
    // Within one command: a pattern that spans sentences would make every sentence pattern built on these read
    // whole paragraphs.
    re: String.raw`\bwlan\s+show\s+profiles?\b[^\n.;|&]{0,120}\bkey\s*=\s*clear`
      + String.raw`|\/etc\/NetworkManager\/system-connections`,
  },
  {
    kind: 'browser profiles',
    re: String.raw`Login\s?Data\b|logins\.json|key[34]\.db\b|cookies\.sqlite|Cookies\.binarycookies`
      + String.raw`|Local\s?State\b|\.mozilla\/firefox|Firefox[\/\\]Profiles|google-chrome|Chrome[\/\\]User\s?Data`
      + String.raw`|BraveSoftware|Microsoft[\/\\]Edge[\/\\]User\s?Data|\bbrowser\s+(?:profiles?|cookies`
      + String.raw`|saved\s+passwords)`
      + String.raw`|\bsaved\s+(?:browser\s+)?passwords\b`,
  },
  {
    kind: 'keychains',
    re: String.raw`\bsecurity["',\s]+(?:find-(?:generic|internet)-password|dump-keychain)|login\.keychain|Keychains\/`
      + String.raw`|\bkeychain\b|secret-tool\s+lookup|\bkwallet|gnome-keyring|cmdkey\s+\/list|vaultcmd`
      + String.raw`|Credential\s+Manager|CredEnumerate`
      // Git asks the credential helper, the OS keychain behind it, for a host's saved password.
      + String.raw`|\bgit\s+credential\s+fill\b`,
  },
  {
    kind: 'shell history',
    re: String.raw`\.(?:bash|zsh|sh|fish|python|psql|mysql|node_repl)_history\b|ConsoleHost_history`
      + String.raw`|\bshell\s+history\b`,
  },
  {
    kind: 'crypto wallets',
    re: String.raw`wallet\.dat\b|\.electrum\b|\bExodus[\/\\]|\bmetamask\b|\.ethereum\/keystore|solana\/id\.json`
      + String.raw`|\bseed\s+phrases?\b`,
  },
  { kind: 'agent credentials', re: String.raw`\.claude\/\.credentials|\.codex\/auth\.json|github-copilot\/(?:hosts`
    + String.raw`|apps)` },
  { kind: 'dotenv files', re: String.raw`(?:^|[\s"'\/=(@<\[,])\.env(?:\.local|\.production)?\b(?![.\w-])|\.envrc\b` },
  // `/etc/passwd` lists accounts and has held no password hashes since shadow files: reading it is no theft.
  { kind: 'system password files', re: String.raw`\/etc\/g?shadow\b|\\SAM\b` },
]

/**
 * Anchor tokens for patterns that embed the stores: every alternative of `STORES` contains one (a token that
 * starts with a word character is matched at a word start, so `bash_history`, not `_history`).
 */
export const STORE_ANCHOR = [
  String.raw`\.ssh|\$HOME|id_rsa|id_ed25519|id_ecdsa|id_dsa|\.aws|gcloud|application_default|\.azure|\.kube|\.docker`,
  String.raw`|\.terraform|\.vault-token|doctl|npmrc|pypirc|netrc|git-credentials|\/gh\/|\.gem\/|\.cargo\/|gnupg`
  + String.raw`|secring`,
  String.raw`|Login\s?Data|logins\.json|key[34]\.db|cookies|Local\s?State|mozilla|Firefox|google-chrome|Chrome`,
  String.raw`|BraveSoftware|Edge|browser|saved|security|keychain|secret-tool|kwallet|gnome-keyring|cmdkey|vaultcmd`,
  String.raw`|Credential|CredEnumerate|bash_history|zsh_history|sh_history|fish_history|python_history|psql_history`,
  String.raw`|mysql_history|node_repl_history|ConsoleHost_history|shell\s+history|wallet|electrum|Exodus|metamask`,
  String.raw`|ethereum|solana|seed|\.claude|\.codex|copilot|\.env|shadow|passwd|SAM|iam\/security-credentials`,
  String.raw`|computeMetadata|metadata\/identity|serviceaccount|password-store|kdbx|1Password|Bitwarden|wlan`,
  String.raw`|NetworkManager|huggingface|kaggle|wandb|databrickscfg|gradle\.properties|\.m2\/|keystore|\.jks|\.p12`
  + String.raw`|\.pfx|\.dbt|pgpass|my\.cnf|snowsql|keytab|krb5cc|ldap|sssd|passw|bindpw|rootpw`
  + String.raw`|authtok|env\.php|wp-config|master\.key|Clipboard|pbpaste|pyperclip|xclip|xsel|wl-paste`,
].join('')

/** Any credential store or sensitive file. */
export const SENSITIVE_RE = new RegExp(STORES.map(s => `(?:${s.re})`).join('|'), 'i')

/** `SENSITIVE_RE.test`, at literal-search speed. */
export const namesSensitive = literalTest(SENSITIVE_RE)

/**
 * Commands that print a logged-in CLI's token. Each is how a tool hands its own token to a script
 * (`GH_TOKEN=$(gh auth token) gh api ...`), so one is not a leak; with other stores it counts toward a sweep.
 */
export const CLI_TOKENS: ReadonlyArray<{ kind: string, re: string }> = [
  {
    kind: 'Google Cloud credentials',
    re: String.raw`\bgcloud\s+auth\s+(?:application-default\s+)?print-(?:access|identity)-token\b`,
  },
  { kind: 'AWS credentials', re: String.raw`\baws\s+configure\s+(?:export-credentials|get\s+aws_secret_access_key)\b` },
  { kind: 'Kubernetes config', re: String.raw`\bkubectl\s+config\s+view\b[^\n|;&]*--raw\b` },
  // Every secret of a namespace or of the cluster, as data (one named secret is a deployment's own).
  {
    kind: 'Kubernetes secrets',
    re: String.raw`\bkubectl\s+get\s+secrets?\b(?![^\n|;&]*\s-o\s*=?\s*jsonpath)[^\n|;&]*?`
      + String.raw`(?:\s-A\b|--all-namespaces|\s-o\s*=?\s*(?:yaml|json)\b)`,
  },
  { kind: 'Azure credentials', re: String.raw`\baz\s+account\s+get-access-token\b` },
  {
    kind: 'package and git tokens',
    re: String.raw`\bgh\s+auth\s+token\b|\bglab\s+auth\s+status\b[^\n|;&]*(?:-t|--show-token)\b`
      + String.raw`|\bgit\s+credential\s+fill\b`
      + String.raw`|\bnpm\s+token\s+list\b`,
  },
]
export const CLI_TOKEN_RE = new RegExp(CLI_TOKENS.map(s => `(?:${s.re})`).join('|'), 'i')

const STORE_RES = [...STORES, ...CLI_TOKENS].map(s => ({ kind: s.kind, re: new RegExp(s.re, 'i') }))

/** The kinds of credential store a text names (a token printed by a CLI counts as its store). */
export function storeKinds(text: string): string[] {
  return [...new Set(STORE_RES.filter(s => s.re.test(text)).map(s => s.kind))]
}

/** A variable name that holds a secret: `GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`. */
export const SECRET_NAME = String.raw`[A-Z][A-Z0-9_]*(?:TOKENS?|_KEYS?|APIKEY|SECRET|PASSWORD|PASSWD|_PASS|_PAT`
  + String.raw`|CREDENTIALS?)`
  + String.raw`(?![A-Za-z0-9_])`

/** A shell, PowerShell, Python or JS read of a secret variable; group 1 is its name. */
export const SECRET_READ = new RegExp(
  [
    String.raw`\$\{?(?:env:)?(${SECRET_NAME})\}?`,
    // Python's `os.getenv`, Go's `os.Getenv`.
    String.raw`os\.(?:environ(?:\.get)?\s*[[(]\s*|[gG]etenv\s*\(\s*)['"](${SECRET_NAME})['"]`,
    String.raw`process\.env(?:\.(${SECRET_NAME})|\[\s*['"](${SECRET_NAME})['"])`,
    // Ruby's `ENV["X"]` and `ENV.fetch("X")`, .NET's `GetEnvironmentVariable("X")`.
    String.raw`(?:\bENV(?:\.fetch\s*\(\s*|\s*\[\s*)|GetEnvironmentVariable\s*\(\s*)['"](${SECRET_NAME})['"]`,
    // R's `Sys.getenv("X")`, Julia's `get(ENV, "X", ...)`, Java's `System.getenv("X")`.
    String.raw`(?:\bSys\.getenv\s*\(\s*|\bget\s*\(\s*ENV\s*,\s*|\bSystem\.getenv\s*\(\s*)['"](${SECRET_NAME})['"]`,
    // PHP's `getenv('X')` and `$_ENV['X']`; WordPress's database password and keys, read as bare constants.
    String.raw`(?:(?<![\w.$>])getenv\s*\(\s*|\$_(?:ENV|SERVER)\s*\[\s*)['"](${SECRET_NAME})['"]`,
    String.raw`(?<![\w$'"\x60])(DB_PASSWORD|(?:SECURE_)?AUTH_KEY|LOGGED_IN_KEY|NONCE_KEY`
    + String.raw`|(?:SECURE_AUTH|LOGGED_IN|NONCE|AUTH)_SALT)(?![\w'"\x60])`,
  ].join('|'),
  'g',
)

/** The names of the secret variables a text reads. */
export function secretNames(text: string): string[] {
  const out = new Set<string>()
  SECRET_READ.lastIndex = 0
  for (let m = SECRET_READ.exec(text); m; m = SECRET_READ.exec(text)) out.add(m.slice(1).find(g => g !== undefined)!)
  return [...out]
}

/** The whole environment, read at once (a single `os.environ['X']` is not). */
export const ENV_DUMP = [
  String.raw`\$\(\s*(?:env|printenv|set|export\s+-p|declare\s+-x)\s*[|)]|\`\s*(?:env|printenv)\s*[|\`]`,
  String.raw`|(?:^|[;&|(]\s*)(?:env|printenv|set|export\s+-p)\s*(?:\||>)`,
  // `E = os.environ` alone names the mapping a client then reads its own variables from (`E["FHIR_BASE_URL"]`).
  String.raw`|\bos\.environ\b(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b))`
  + String.raw`(?<!^[ \t]*[A-Za-z_]\w*[ \t]*=[ \t]*os\.environ(?=[ \t]*(?:#[^\n]*)?$))`,
  // `const { A, B } = process.env` reads the variables it names, as `process.env.A` does.
  String.raw`|(?<!\}\s*=\s*)\bprocess\.env\b(?!\s*(?:\.|\[|\?\.))`,
  String.raw`|Get-ChildItem\s+env:|\bgci\s+env:|\bls\s+env:|\[Environment\]::GetEnvironmentVariables`,
  // R's `Sys.getenv()` with no name, Julia's `ENV` copied whole; Go's `os.Environ()`, Rust's `env::vars()`,
  // .NET's `Environment.GetEnvironmentVariables()`, Java's `System.getenv()`, Ruby's `ENV.to_h`, PHP's `getenv()`.
  String.raw`|\bSys\.getenv\(\s*\)|\b(?:Dict|collect)\(\s*ENV\s*\)`
  + String.raw`|\bos\.Environ\(\s*\)|\benv::vars(?:_os)?\(\s*\)|\bEnvironment\.GetEnvironmentVariables\(\s*\)`
  + String.raw`|\bSystem\.getenv\(\s*\)|\bENV\.(?:to_h|to_hash|each|map|select)\b|(?<![\w$>])getenv\(\s*\)`,
].join('')
export const ENV_DUMP_RE = new RegExp(ENV_DUMP, 'i')

/** Hosts that exist to receive requests from anyone: request catchers, tunnels, pastebins, chat webhooks. */
export const CATCHER_HOST = new RegExp(
  [
    String.raw`webhook\.site|requestbin|pipedream\.net|\bngrok(?:-free)?\.(?:io|app|dev)|burpcollaborator\.net`,
    String.raw`|\boast\.(?:fun|me|pro|live|site|online)|interact\.sh|canarytokens|hookbin|beeceptor`
    + String.raw`|\.trycloudflare\.com`,
    String.raw`|serveo\.net|\.loca\.lt|pastebin\.com|paste\.ee|transfer\.sh|0x0\.st|file\.io|termbin\.com`,
    String.raw`|discord(?:app)?\.com\/api\/webhooks|api\.telegram\.org\/bot|hooks\.slack\.com`,
  ].join(''),
  'i',
)

/**
 * Literals without which a text names no source (a cheap test before the large patterns): every store,
 * dump and secret name above contains one of them.
 */
export const SOURCE_HINT = new RegExp(
  [
    String.raw`env|ssh|aws|id_|rc\b|_KEY|APIKEY|keychain|key[34]\.db|cmdkey|keyring|keystore|token|secret|pass|cred`,
    String.raw`|_history|\bhistory\b|login|cookie|wallet|gnupg|secring|kube|docker|gcloud|azure|shadow|vault`
    + String.raw`|local\s?state`,
    String.raw`|user\s?data|firefox|chrome|brave|Edge[\/\\]|exodus|electrum|metamask|seed\s+phrase|kwallet|\bSAM\b`
    + String.raw`|copilot`,
    String.raw`|codex|claude|solana|_PAT\b|doctl|\/gh\/|\(\s*set\b|\bset\s*[|>]|export\s+-p|declare\s+-x|gci\s`
    + String.raw`|Get-ChildItem|kdbx|bitwarden|wlan|NetworkManager|huggingface|kaggle|wandb|databrickscfg|gradle`
    + String.raw`|\.m2\/|jks|p12|pfx|\.dbt|my\.cnf|snowsql|keytab|krb5cc|ldap|sssd|wp-config|master\.key`
    + String.raw`|clipboard|pbpaste|pyperclip|xclip|xsel|wl-paste`,
  ].join(''),
  'i',
)

/**
 * `SOURCE_HINT.test`, at literal-search speed (the regex tries each of its sixty alternatives at every position of
 * a text: most of what a prose paragraph cost).
 */
export const sourceHinted = literalTest(SOURCE_HINT)

// The home directory as code finds it: it stands for `~` in a path built from pieces.
const HOME_CALL = new RegExp(
  String.raw`\b(?:Path\.home\(\)|(?:os\.)?homedir\(\)|os\.UserHomeDir\(\)|Dir\.home\b|expanduser\(\s*["']~["']\s*\)`
  + String.raw`|os\.environ\[\s*["'](?:HOME|USERPROFILE)["']\s*\]|process\.env\.(?:HOME|USERPROFILE)\b`
  + String.raw`|ENV\[\s*["'](?:HOME|USERPROFILE)["']\s*\])|\$env:(?:USERPROFILE|HOME)\b`,
  'g',
)
// A call that joins path pieces, its arguments on one line without nested calls.
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const JOIN_CALL = /\b(?:os\.path\.join|path\.(?:join|resolve)|filepath\.Join|File\.join|Path\.Combine|Paths\.get|Path\.of)\s*\(([^()\n]{1,200})\)/g
// PowerShell's `Join-Path $HOME ".azure"` (two pieces, the second quoted).
const JOIN_PATH = /\bJoin-Path\s+(?:-Path\s+)?(\$[\w:]+|["'][^"'\n]+["'])\s+(?:-ChildPath\s+)?["']([^"'\n]+)["']/gi
// tar's `-C "$HOME" .ssh .aws`: the members after the directory are paths inside it.
const TAR_DIR = /(?:\s-C\s*|\s--directory[=\s]+)["']?(?:\$HOME|~)\/?["']?((?:\s+[^\s|;&<>-][^\s|;&<>]*)+)/g
const QUOTED = /^\s*(["'`])(.*)\1\s*$/
const PIECES = /(["'])\s*\/\s*["']/g
const JOIN_HINT = /\/\s*["']|join|resolve|Combine|Paths\.get|Path\.of|home|USERPROFILE|HOME/i
// The home directory as a Makefile, a batch file or a .NET, Java, Swift or Rust program names it.
const HOME_VAR = new RegExp(
  String.raw`\$\(HOME\)|\$\{HOME\}|%USERPROFILE%|%HOMEPATH%|NSHomeDirectory\(\)`
  + String.raw`|System\.getProperty\(\s*"user\.home"\s*\)|Environment\.GetFolderPath\(\s*Environment\.SpecialFolder`
  + String.raw`\.UserProfile\s*\)|\bhome_dir\(\)(?:\.unwrap\(\))?`,
  'g',
)

/**
 * A path built from pieces, written as one path: `Path.home() / ".aws" / "credentials"` reads as
 * `"~/.aws/credentials"`, `path.join(home, '.docker', 'config.json')` as `"home/.docker/config.json"`. The stores
 * are named by their paths, and a path joined at run time names them as a literal one does.
 */
export function joinedPaths(source: string): string {
  if (!JOIN_HINT.test(source))
    return source
  const text = source.replace(HOME_VAR, '$HOME')
  const joined = text
    .replace(HOME_CALL, '"~"')
    .replace(JOIN_CALL, (_, args: string) => `"${args.split(',').map(a => QUOTED.exec(a)?.[2] ?? a.trim()).join('/')}"`)
    .replace(JOIN_PATH, (_, base: string, child: string) => `"${QUOTED.exec(base)?.[2] ?? base}/${child}"`)
    .replace(TAR_DIR, (_, members: string) => ` ${members.trim().split(/\s+/).map(m => `$HOME/${m}`).join(' ')}`)
  // Pathlib's `/` between two quoted pieces, repeated until none is left (`"~" / ".ssh" / "id_rsa"`).
  let out = joined
  for (let prev = ''; prev !== out;) {
    prev = out
    out = out.replace(PIECES, '/')
  }
  return out
}

/** A whole-environment dump, a credential store, or a secret variable, on one piece of text. */
export function hasSource(text: string): boolean {
  return sourceHinted(text)
    && (ENV_DUMP_RE.test(text) || namesSensitive(text) || CLI_TOKEN_RE.test(text) || secretNames(text).length > 0)
}
