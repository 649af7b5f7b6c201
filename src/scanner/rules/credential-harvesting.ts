import type { SkillSource } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import type { ChunkFinding } from './code-blocks'
import type { Statement } from './code-units'
import { excerptAt } from '../excerpt'
import { literalTest } from '../finder/index'
import { codeChunks, toRaw } from './code-blocks'
import { codeStatements, markQuoted, unitsOf, wrappedProse } from './code-units'
import { HARVEST_PROSE, PHISHING, proseHarvest } from './harvest-prose'
import { CLI_TOKEN_RE, joinedPaths, namesSensitive, secretNames, sourceHinted, storeKinds } from './leak-sources'
import { serviceWords } from './own-host'

/**
 * Credential harvesting: code that reads several kinds of credential store (ssh keys and cloud credentials
 * and browser profiles...), gathers the environment's secrets by name pattern, or packs the secret variables
 * of several services into one payload; prose that tells the agent to do so. One store is a tool's own
 * login; several are a sweep.
 */

// Building one value out of many: a serialiser, a literal, a redirect, an upload.
const PAYLOAD = new RegExp(
  // A literal's `{ key: ...`, not the shell's `${VAR:?message}`.
  String.raw`json\.dumps|JSON\.stringify|ConvertTo-Json|\bdict\s*\(|(?<!\$)\{\s*["']?\w+["']?\s*:|\bbase64\b`
  + String.raw`|>>?|\btee\b`
  + String.raw`|\bcurl\b|\bwget\b|requests\.|fetch\s*\(|\bprintf\b|\becho\b|Out-File`,
)
const SINK = new RegExp(
  String.raw`\b(?:curl|wget|nc|scp|rsync|Invoke-(?:WebRequest|RestMethod)|requests\.(?:post|put)|urlopen`
  + String.raw`|axios|smtplib|sendall)\b|\bfetch\s*\(`,
)
/**
 * Code that collects values into one document or file: what a sweep stages for a later send (an archive of the
 * stores is a backup, and stays a warning).
 */
const STAGES = new RegExp(
  String.raw`\bJSON\.(?:generate|pretty_generate|dump|stringify)\b|\.to_json\b|\bjson\.dumps?\b|ConvertTo-Json`
  + String.raw`|\bFile\.write\b|writeFileSync|\bos\.WriteFile\b|Set-Content|Out-File`
  + String.raw`|\bFile\.WriteAll(?:Text|Bytes|Lines)\b|JsonSerializer\.Serialize|JsonConvert\.SerializeObject`
  + String.raw`|\bFiles\.write|\.writeText\s*\(|\bfs::write\b|serde_json::to_`,
)
// A name prefix of a service's variables (`"AWS_"`), and the calls that test one.
const PREFIX = String.raw`["'][A-Z][A-Z0-9]*_["']`
const STARTS = String.raw`\b(?:startswith|startsWith|start_with\?|StartsWith)`
const BROWSER_LOGINS = /Login\s?Data\b|logins\.json\b/
const BROWSER_KEY = /Local\s?State\b|key[34]\.db\b/
/** Decrypting a browser's saved passwords or cookies: a password manager's vault opened without its owner. */
const DECRYPTS = /password_value|encrypted_value|CryptUnprotectData|Chrome Safe Storage|\bsaltysalt\b|\bos_crypt\b/

/**
 * A finding on a statement: on its line that `at` names (where a multi-line statement names the store), else on its
 * first line.
 */
function finding(st: Statement, message: string, severity?: 'warning', at?: (line: string) => boolean): RawFinding {
  const lines = st.text.split('\n')
  const i = at ? Math.max(0, lines.findIndex(at)) : 0
  // A statement's lines are its file's (comment lines dropped): a line past them stays on the first.
  const k = i < st.span ? i : 0
  const text = lines[k]!
  const col = text.length - text.trimStart().length
  return {
    rule: 'credential_harvesting',
    path: st.path,
    line: st.line + k,
    column: col + 1,
    message,
    excerpt: excerptAt(text, col, Math.min(80, text.length - col)),
    ...(severity ? { severity } : {}),
  }
}

/**
 * Whether the code of a file sends what it read, stages it (into one document or archive) or decrypts browser
 * secrets: asked only of the rare file that reads two kinds of store.
 */
function sendsOrStages(statements: readonly Statement[], path: string): boolean {
  return statements.some(st => st.path === path
    && (SINK.test(st.text) || STAGES.test(st.text) || DECRYPTS.test(st.text)))
}

function visitHarvest(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  const units = unitsOf(skill)
  const byFile = new Map<string, Statement[]>()
  const statements = codeStatements(units)
  for (const st of statements) {
    if (!sourceHinted(st.text))
      continue
    const list = byFile.get(st.path) ?? []
    list.push(st)
    byFile.set(st.path, list)
    // The secrets of several services packed into one value.
    const services = new Set(secretNames(st.text).map(n => serviceWords(n).join('_') || n))
    if (services.size >= 3 && PAYLOAD.test(st.text))
      out.push(finding(st, `gathers the secrets of ${services.size} services into one payload`))
  }
  // Several kinds of credential store read by the code of one file.
  for (const [path, list] of byFile) {
    const kinds = new Set<string>()
    let second: Statement | null = null
    let secondKind = ''
    for (const st of list) {
      const text = joinedPaths(st.text)
      if (!namesSensitive(text) && !CLI_TOKEN_RE.test(text))
        continue
      for (const k of storeKinds(text)) {
        if (!kinds.has(k) && kinds.size === 1 && !second) {
          second = st
          secondKind = k
        }
        kinds.add(k)
      }
    }
    const names = (line: string): boolean => storeKinds(joinedPaths(line)).includes(secondKind)
    // A browser's saved logins with the key that decrypts them (Chrome's `Local State`, Firefox's `key4.db`).
    const vault = list.some(st => BROWSER_LOGINS.test(st.text)) && list.some(st => BROWSER_KEY.test(st.text))
    if (vault && !second) {
      const st = list.find(x => BROWSER_KEY.test(x.text))!
      const message = 'reads a browser\'s saved logins with the key that decrypts them'
      out.push(finding(st, message, undefined, l => BROWSER_KEY.test(l)))
      continue
    }
    if (second && (kinds.size >= 3 || vault || sendsOrStages(statements, path))) {
      const message = `reads ${kinds.size} kinds of credential store (${[...kinds].join(', ')})`
      out.push(finding(second, message, undefined, names))
    }
    else if (second) {
      out.push(finding(second, `reads 2 kinds of credential store (${[...kinds].join(', ')})`, 'warning', names))
    }
  }
  out.push(...proseHarvest(units), ...envSweep(skill))
  return [...markQuoted(skill, out), ...wrappedProse(skill, PHISHING, 'credential_harvesting')]
}

/**
 * A loop over the whole environment, or over a copy or alias of it, naming the variable that holds each value
 * (group 1 or 2).
 */
function envLoopOf(aliases: readonly string[] = []): RegExp {
  const js = ['process\\.env', ...aliases].join('|')
  const py = ['os\\.environ', ...aliases].join('|')
  return new RegExp(
    String.raw`\[\s*\w+\s*,\s*(\w+)\s*\]\s+of\s+Object\.entries\s*\(\s*(?:${js})\s*\)`
    + String.raw`|\bfor\s+\w+\s*,\s*(\w+)\s+in\s+(?:dict\s*\(\s*)?(?:${py})(?:\s*\))?\.items\s*\(\s*\)`,
  )
}
const ENV_LOOP = envLoopOf()
const loopsEnv = literalTest(ENV_LOOP)
// `const env = { ...process.env }`, `env = dict(os.environ)`: a copy or an alias that a loop then walks.
const ENV_ALIAS = new RegExp(
  String.raw`\b([A-Za-z_]\w*)\s*=\s*(?:\{\s*\.\.\.process\.env\s*\}|process\.env\b(?!\s*[.[?])`
  + String.raw`|dict\(\s*os\.environ\s*\)|os\.environ(?:\.copy\(\s*\))?(?!\s*[.[]))`,
  'g',
)
// A name test that asks for two or more kinds of secret at once (`/KEY|TOKEN|SECRET/i.test(k)`).
const SECRET_WORD = String.raw`(?:key|token|secret|passw\w*|pass|credential\w*|auth|pwd)`
const NAME_TEST = new RegExp(String.raw`${SECRET_WORD}[^\n|]{0,12}?\|[^\n]{0,12}?${SECRET_WORD}`, 'i')

/**
 * The environment swept for secrets by name over a few lines: a loop over every variable, a test of its name
 * for `KEY|TOKEN|SECRET`, and the value kept (`bag[k] = v`): a mask or a count in its place keeps nothing.
 */
function envSweep(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  for (const chunk of codeChunks(skill)) {
    const aliases = /process\.env|os\.environ/.test(chunk.text)
      ? [...chunk.text.matchAll(ENV_ALIAS)].map(m => m[1]!)
      : []
    if (!loopsEnv(chunk.text) && !aliases.length)
      continue
    const envLoop = aliases.length ? envLoopOf(aliases) : ENV_LOOP
    chunk.lines.forEach((line, i) => {
      const loop = line.length > 4000 ? null : envLoop.exec(line)
      if (!loop)
        return
      const value = (loop[1] ?? loop[2])!
      const keeps = new RegExp(
        String.raw`\[\s*\w+\s*\]\s*=\s*${value}\s*(?:[;,}]|$)|\.(?:push|append)\s*\(\s*${value}\b`,
      )
      const body = chunk.lines.slice(i, i + 5)
      const test = body.findIndex(l => NAME_TEST.test(l))
      if (test === -1 || !body.slice(test, test + 3).some(l => keeps.test(l)))
        return
      const at = chunk.lines[i + test]!
      found.push({
        chunk,
        line: i + test,
        column: at.length - at.trimStart().length,
        message: 'collects the environment\'s secrets by name pattern',
        excerpt: at,
        severity: 'error',
      })
    })
  }
  return toRaw('credential_harvesting', found)
}

// A substitution that replaces what it matched with a mask: the values never leave the filter.
const REDACTED = /\bsed\b[^\n]{0,160}?\bs([/|#])[^\n]*?\1[^\n]*?(?:redacted|masked|hidden|\*{3,}|x{3,})/i

export const credentialHarvesting: RuleModule = {
  meta: {
    id: 'credential_harvesting',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-522',
    description:
      'Credential harvesting: instructions or code that read several credential stores (ssh keys, cloud and '
      + 'registry credentials, browser profiles, keychains, shell history, wallets), collect the environment\'s '
      + 'secrets by name pattern, or gather the secret variables of several services into one payload.',
    hint: 'A skill reads only the one credential its tool needs, through that tool; never sweep stores or the '
      + 'environment for secrets.',
  },
  patterns: [
    {
      // macOS: every item of a keychain with its secret decrypted (`-d`), one prompt or none for all of them.
      anchor: 'dump-keychain',
      re: /(?:\bsecurity\s+|["'])dump-keychain\b["']?[^\n|;&]*?[\s"'](?:-[a-z]*d\b)/,
      langs: ['sh', 'py', 'js', 'text', 'prose'],
      view: 'noComments',
      message: 'dumps every secret of a keychain, decrypted (`security dump-keychain -d`)',
    },
    {
      // Kubernetes: every secret of every namespace with its data (`kubectl get secrets -A -o yaml`), written as a
      // command or as a subprocess's argument list.
      anchor: 'secrets|secret',
      re: new RegExp(
        String.raw`(?:^|[\s"'])get["',\s]+secrets?\b(?=[^\n]*?(?:["'\s]-A\b|--all-namespaces\b))`
        + String.raw`[^\n]*?["'\s]-o["',\s=]+["']?(?:yaml|json)\b`,
      ),
      langs: ['sh', 'py', 'js', 'text', 'prose'],
      view: 'noComments',
      message: 'dumps every secret of every namespace of a cluster, with its data',
    },
    {
      // GitHub Actions: every secret of the repository in one value, which no step needs (a step names its own).
      anchor: 'secrets',
      re: /\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}/i,
      langs: ['sh', 'py', 'js', 'text', 'prose'],
      message: 'gathers every secret of the repository into one value (`toJSON(secrets)`)',
    },
    {
      anchor: String.raw`\|\s*(?:grep|egrep|rg|findstr|Select-String|Where-Object|where)\b|\|\s*\?|environ`
        + String.raw`|process\.env`,
      re: new RegExp(
        [
          String.raw`(?:\b(?:env|printenv|set|export\s+-p)\s*\|\s*(?:grep|egrep|rg|findstr|Select-String)\b`,
          String.raw`|(?:Get-ChildItem|gci|ls|dir)\s+env:[^\n|]*\|\s*(?:Where-Object|where|\?|Select-String|findstr)`,
          String.raw`|os\.environ(?:\.items\(\))?[^\n]{0,80}?\bif\b|os\.environ\.(?:items`
          + String.raw`|keys)\(\)[^\n]{0,80}?(?:re\.|match|search|in\s+k)`,
          String.raw`|Object\.(?:entries|keys)\s*\(\s*process\.env\s*\)[^\n]{0,40}?\.filter)`,
          String.raw`[^\n]{0,120}?(?:key|token|secret|passw|credential|auth|pwd)[^\n]{0,40}?`,
          String.raw`(?:\||\\\||,|\bor\b)[^\n]{0,20}?(?:key|token|secret|passw|credential|auth|pwd)`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'py', 'js', 'text', 'prose'],
      view: 'noComments',
      message: 'collects the environment\'s secrets by name pattern',
      // `env | grep AWS_ | sed 's/(SECRET|TOKEN)=.*/\1=<redacted>/'` shows which variables are set, not their values.
      accept: (m, line) => !REDACTED.test(line.slice(m.index)),
    },
    {
      // The variables of several services by their prefixes (`AWS_`, `GITHUB_`, `NPM_`): their tokens, whatever
      // each is named.
      anchor: String.raw`environ|process\.env|ENV\b|env:`,
      re: new RegExp(
        String.raw`(?:os\.environ|process\.env|\bENV\b|env:)[^\n]{0,120}?`
        + String.raw`(?:${STARTS}\s*\(\s*\(\s*(?:${PREFIX}\s*,\s*){2,}${PREFIX}`
        + String.raw`|(?:${STARTS}\s*\(\s*${PREFIX}\s*\)[^\n]{0,40}?){2}${STARTS}\s*\(\s*${PREFIX})`,
      ),
      langs: ['sh', 'py', 'js', 'rb', 'text'],
      view: 'noComments',
      message: 'collects the environment variables of several services by their prefixes',
    },
    {
      anchor: 'find|fd|locate|grep|rg|findstr|Select-String|trufflehog|gitleaks|Get-ChildItem|gci',
      re: new RegExp(
        [
          // Key and credential files looked for across the home directory or the whole disk.
          String.raw`\b(?:find|fd|locate|Get-ChildItem|gci)\s+(?:[^\n|;&]*\s)?["']?`,
          String.raw`(?:~|\$HOME|\$env:USERPROFILE|\/|\/home|\/Users|C:\\Users)(?:[\/\\]?["']?\s)[^\n|;&]{0,120}?`,
          String.raw`(?:id_rsa|id_ed25519|id_ecdsa|\.pem\b|\.key\b|\.env\b|credentials|\.npmrc|\.pypirc|\.netrc`,
          String.raw`|wallet\.dat|\.kdbx|\.p12\b|\.pfx\b|\.keystore)`,
          // Secret patterns searched for recursively in the home directory or the whole disk.
          String.raw`|\b(?:grep|egrep|rg|ag|findstr|Select-String)\b[^\n|;&]{0,160}?`,
          String.raw`(?:AKIA|sk-|ghp_|xox[bp]|api[_-]?key|secret|passw|token|PRIVATE\s+KEY)[^\n|;&]{0,80}?`,
          String.raw`\s["']?(?:~|\$HOME|\/home|\/Users|\/)["']?(?:\/?\s|\/?$)`,
          // Secret scanners pointed at the machine instead of a repository.
          String.raw`|\b(?:trufflehog\s+filesystem|gitleaks\s+(?:detect|dir)\b[^\n|;&]*--source)\s+`,
          String.raw`["']?(?:~|\$HOME|\/|\/home|\/Users)["']?(?:\/?\s|\/?$)`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'py', 'js', 'text', 'prose'],
      view: 'noComments',
      message: 'searches the home directory or the whole disk for keys and credentials',
    },
    {
      // Every process's environment (`/proc/*/environ`, `/proc/${pid}/environ` in a loop): the secrets of whatever
      // else runs on the machine. A process's own is `/proc/self/environ`.
      // Anchored on `/proc/`: `environ` is in every Python script that reads a variable.
      anchor: String.raw`\/proc\/`,
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\/proc\/(?:\*|\[0-9\]\*|\$\{\s*\w+\s*\}|\$(?!\$)\w+|\{\s*\w+\s*\}|%[sd]|#\{\w+\}|["'`]\s*\+\s*\w+\s*\+\s*["'`]|["'`]\s*,\s*\w+\s*,\s*["'`])\/?environ\b/,
      // Code only: prose names the file to warn about it ("secrets in env vars show in /proc/*/environ").
      langs: ['sh', 'py', 'js', 'rb', 'go'],
      view: 'noComments',
      message: 'reads the environment of other processes (`/proc/*/environ`): their secrets',
    },
    ...HARVEST_PROSE,
  ],
  visitSkill: visitHarvest,
}
