import type { SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import type { Statement, Unit } from './code-units'
import { excerptAt } from '../excerpt'
import { codeStatements, markQuoted, prepareWrapped, unitsOf, wrappedMatches } from './code-units'
import { filledPlaceholders } from './exfil-placeholder'
import { EXFIL_SENTENCES } from './exfil-prose'
import { treeUploads } from './exfil-tree'
import { CLIPBOARD, ENV_DUMP_RE, joinedPaths, namesSensitive, secretNames, sourceHinted, STORES } from './leak-sources'
import { LOCAL_HOST, sendsForeign } from './own-host'
import { hitLines } from './skill-hits'

/**
 * Data that leaves over several lines or blocks: a variable or temp file filled from a secret in one statement
 * (or fenced block, or script) and sent in another, and multi-line requests whose body reads a secret.
 */

/** What a variable or file was filled from. */
interface Taint {
  /** Secret variables it holds (their service decides whether a host is foreign); empty: a dump or a file. */
  names: string[]
}

/** Network sinks by language (a statement with one of these sends something somewhere). */
export const SINK = new RegExp(
  [
    String.raw`\b(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|rsync|sftp|ftp|mailx?|sendmail|mutt|xh|httpie)\b`,
    String.raw`|\bhttps?\s+(?:post|put|get|patch)\b|\/dev\/(?:tcp|udp)\/|openssl\s+s_client`,
    String.raw`|Invoke-(?:WebRequest|RestMethod)|\b(?:iwr|irm)\b|Send-MailMessage|Net\.WebClient|UploadString`
    + String.raw`|UploadFile|Net\.Sockets\.(?:TcpClient|UdpClient)\b`,
    String.raw`|\brequests\s*\.\s*(?:post|put|patch|get|request)\b|\bhttpx\s*\.|\burlopen\s*\(|\bRequest\s*\(`,
    String.raw`|HTTPS?Connection|\.send(?:all|to)?\s*\(|smtplib|\.sendmail\s*\(|\baiohttp\b|\bsession\s*\.\s*(?:post`
    + String.raw`|put)\b`,
    String.raw`|\bfetch\s*\(|\baxios\b|XMLHttpRequest|sendBeacon|\bhttps?\s*\.\s*request\b|\bWebSocket\b|\bgot\s*[.(]`,
    String.raw`|nodemailer|\.sendMail\s*\(`,
    // Node, Go and Ruby sockets and clients, Python's `send_message`.
    String.raw`|\bnet\s*\.\s*(?:connect|createConnection|Dial\w*)\b|\btls\s*\.\s*(?:connect|Dial)\b`,
    String.raw`|\bhttp\s*\.\s*(?:Post|PostForm|NewRequest)\b|Net::HTTP|\bTCPSocket\b|\.send_message\s*\(`,
    // Cloud storage and gist CLIs: a copy to a bucket or a gist is an upload.
    String.raw`|\baws\s+s3\s+(?:cp|mv|sync)\b|\bgsutil\s+(?:-\w+\s+)*(?:cp|mv|rsync)\b`,
    String.raw`|\bgcloud\s+storage\s+(?:cp|mv|rsync)\b|\baz\s+storage\s+(?:blob|file)\s+upload`,
    String.raw`|\bazcopy\s+(?:copy|cp|sync)\b|\brclone\s+(?:copy|copyto|sync|move)\b`,
    String.raw`|\bs3cmd\s+(?:put|sync)\b|\bgh\s+gist\s+create\b|\bgit\s+push\b`,
    // R and Julia clients.
    String.raw`|\bhttr2?::(?:POST|PUT|PATCH|req_perform)\b|\bcurl_fetch_\w+|\bRCurl::\w+|\bpostForm\b`
    + String.raw`|\bHTTP\.(?:post|put|request)\b|\bDownloads\.request\b`,
    // PHP: a stream context and `file_get_contents` given one (a POST), curl, WordPress's HTTP API, a raw socket.
    String.raw`|\bstream_context_create\s*\(|\bcurl_(?:exec|setopt)\s*\(|\bwp_(?:safe_)?remote_(?:post|request)\s*\(`
    + String.raw`|\bfsockopen\s*\(|\bfile_get_contents\s*\([^;]*,\s*\w+\s*,\s*\$\w+`,
    // .NET's HttpClient and Unity's web requests.
    String.raw`|\.(?:Post|Put|Send)(?:AsJson)?Async\s*\(|\bUnityWebRequest\s*\.\s*(?:Post|Put)\b`,
  ].join(''),
  'i',
)

// `NAME=value` (shell), `$name = value` (PowerShell), `name = value` (Python, JS).
const ASSIGN = new RegExp(
  String.raw`^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)?|const\s+|let\s+|var\s+)?`
  + String.raw`\$?([A-Z_a-z]\w*)\s*:?=\s*(?!=)`,
)
const FN_HEADER = new RegExp(
  String.raw`^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|def\s+([A-Za-z_]\w*)`
  + String.raw`|func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)`
  + String.raw`|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?`
  + String.raw`(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>))`,
)
const FILLS = /^\s*([A-Za-z_]\w*)\s*(?:\[[^\]\n]+\]|\.[A-Za-z_]\w*)\s*=\s*(?!=)/
const RETURNS = /^\s*return\b\s*(.*)/
const READ_INTO = /\|\s*while\s+(?:IFS=\S*\s+)?read\s+(?:-r\s+)?(\w+)|\bfor\s+(\w+)\s+in\s+\$\(/
const FOR_IN = /^\s*for\s+(\w+)(?:\s*,\s*\w+)*\s+in\s+([^\n]+)/
const CALL_ON = /^\s*([A-Za-z_]\w*)\s*\.\s*\w+\s*\(/
// Receivers that are modules, not values: a call on them fills nothing.
const MODULES = new Set('fs os path sys json subprocess shutil console logging logger log process self this'.split(' '))
// A file a statement writes: `> /tmp/x`, `tee /tmp/x`, `tar czf /tmp/x`, `zip -r /tmp/x`, `cp src /tmp/x`.
const WRITES_FILE = new RegExp(
  String.raw`(?:>>?\s*|\btee\s+(?:-a\s+)?|\btar\s+(?:--[\w-]+(?:=\S+)?\s+)*-?\w*f\s+|\bzip\s+(?:-\w+\s+)*|-OutFile\s+`
  + String.raw`|Out-File\s+(?:-FilePath\s+)?)["']?([^\s"';|&)]+)`,
  'g',
)
const CP_DEST = /\b(?:cp|Copy-Item)\s+[^\n;|&]*?\s["']?([^\s"';|&]+)["']?\s*$/

// What names a file without sending it: loading a dotenv file, a key to log in with, a child's environment.
const NOT_SENT_FILES = [
  String.raw`(?:^|[;&|]\s*)(?:source|\.)\s+["']?\S+|--env-file[=\s]+\S+|load_dotenv\s*\([^)]*\)|dotenv\S*`,
  String.raw`|\s-i\s*["']?\S+|IdentityFile[=\s]+\S+|--(?:key|cert|cacert|identity)[=\s]+\S+`,
].join('')
const NOT_SENT = new RegExp(
  NOT_SENT_FILES
  + String.raw`|\benv\s*[:=]\s*(?:\{\s*\.\.\.)?(?:process\.env|os\.environ(?:\.copy\(\))?|dict\(os\.environ\))`,
  'gim',
)
// A function's return value is no child's options: `return { env: process.env }` hands the environment on.
const NOT_SENT_RETURNED = new RegExp(NOT_SENT_FILES, 'gim')

const family = (lang: string): string => (lang === 'text' ? 'sh' : lang)

/** Tainted names, with one regex per language that finds a mention of any of them (rebuilt when one is added). */
class Tainted extends Map<string, Taint> {
  readonly files = new Set<string>()
  /** Variables assigned anywhere (only those can be filled by a method call on them). */
  readonly assigned = new Set<string>()
  /** Names of the environment by language (`py: [E]` for `E = os.environ`), read as the mapping they stand for. */
  private readonly aliases = new Map<string, string[]>()
  private readonly aliasRes = new Map<string, RegExp>()
  private readonly res = new Map<string, RegExp | null>()
  override set(key: string, t: Taint): this {
    if (!this.has(key)) {
      const colon = key.indexOf(':')
      if (key.startsWith('file:'))
        this.files.add(key.slice(colon + 1))
      this.res.delete(key.slice(0, colon))
    }
    return super.set(key, t)
  }

  alias(lang: string, name: string): void {
    this.aliases.set(lang, [...(this.aliases.get(lang) ?? []), name])
    this.aliasRes.delete(lang)
  }

  /** `E["FHIR_BASE"]` reads one named variable, `dict(E)` the whole environment: as `os.environ` would. */
  unalias(text: string, lang: string): string {
    const names = this.aliases.get(lang)
    if (!names)
      return text
    let re = this.aliasRes.get(lang)
    if (!re) {
      re = new RegExp(String.raw`(?<![\w$.])(?:${names.join('|')})\b(?!\s*[:=](?!=))`, 'g')
      this.aliasRes.set(lang, re)
    }
    return text.replace(re, lang === 'js' ? 'process.env' : 'os.environ')
  }

  mention(lang: string): RegExp | null {
    if (this.res.has(lang))
      return this.res.get(lang)!
    const names = [...this.keys()].filter(k => k.startsWith(`${lang}:`)).map(k => k.slice(lang.length + 1))
    // Shell and PowerShell read a variable with `$`; Python and JS by its bare name.
    const re = !names.length
      ? null
      : lang === 'sh'
        ? new RegExp(String.raw`\$(?:\{|env:)?(${names.join('|')})\b`)
        : new RegExp(String.raw`(?:^|[^\w$.'"])(${names.join('|')})\b(?!\s*[:=](?!=))`)
    this.res.set(lang, re)
    return re
  }
}

// The wrapped pass reads the sentence patterns as they are (`wrappedMatches`, not `wrappedProse`).
prepareWrapped(EXFIL_SENTENCES, { prose: false })

function sourceOf(text: string, language: string, tainted: Tainted, notSent = NOT_SENT): Taint | null {
  const lang = family(language)
  const raw = tainted.unalias(text, lang)
  if (sourceHinted(raw)) {
    const text = joinedPaths(raw.replace(notSent, ' '))
    if (ENV_DUMP_RE.test(text) || namesSensitive(text))
      return { names: [] }
    const names = secretNames(text)
    if (names.length)
      return { names }
  }
  if (!tainted.size)
    return null
  for (const file of tainted.files) {
    if (raw.includes(file))
      return tainted.get(`file:${file}`)!
  }
  const re = tainted.mention(lang)
  const m = re?.exec(raw)
  return m ? tainted.get(`${lang}:${m[1]}`)! : null
}

/** The name of the function a statement's first line declares, if it declares one. */
function functionName(text: string): string | undefined {
  return FN_HEADER.exec(text)?.slice(1).find(g => g !== undefined)
}

/**
 * The function a statement sits in, by the nearest header above it in its unit: a function that returns the
 * environment or a secret taints its calls, wherever they are (`ctx = buildContext()` in another file).
 */
function enclosingFunctions(statements: readonly Statement[]): Array<string | undefined> {
  let unit = ''
  let name: string | undefined
  return statements.map((st) => {
    if (st.unit !== unit) {
      unit = st.unit
      name = undefined
    }
    name = functionName(st.text) ?? name
    return name
  })
}

const ENV_ALIAS
  = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_]\w*)\s*=\s*(?:os\.environ|process\.env)\s*;?\s*(?:(?:#|\/\/)[^\n]*)?$/

function learn(st: Statement, tainted: Tainted, fn?: string): void {
  // A braced function is one statement: its body's lines are learnt one by one, inside it, then the whole.
  const name = st.span > 1 ? functionName(st.text) : undefined
  if (name) {
    for (const line of st.text.split('\n').slice(1)) learn({ ...st, text: line, span: 1 }, tainted, name)
  }
  const ret = fn ? RETURNS.exec(st.text) : null
  if (ret) {
    const t = sourceOf(ret[1]!, st.lang, tainted, NOT_SENT_RETURNED)
    const key = `${family(st.lang)}:${fn}`
    if (t && !tainted.has(key))
      tainted.set(key, t)
    return
  }
  // `E = os.environ`, `const env = process.env`: another name for the environment, not a copy of it sent anywhere.
  const alias = ENV_ALIAS.exec(st.text)
  if (alias) {
    tainted.alias(family(st.lang), alias[1]!)
    return
  }
  const assign = ASSIGN.exec(st.text)
  if (assign)
    tainted.assigned.add(`${family(st.lang)}:${assign[1]}`)
  // `ctx["env"] = dict(os.environ)` and `ctx.env = process.env` fill the object.
  const fill = assign ? null : FILLS.exec(st.text)
  const into = assign ?? (fill && !MODULES.has(fill[1]!) ? fill : null)
  const rhs = into ? st.text.slice(into[0].length) : st.text
  const t = sourceOf(rhs, st.lang, tainted)
  if (!t)
    return
  if (into && !tainted.has(`${family(st.lang)}:${into[1]}`))
    tainted.set(`${family(st.lang)}:${into[1]}`, t)
  // `for f in found:` iterates a tainted value; `cfg.read(path)` fills the object it is called on.
  const loop = FOR_IN.exec(st.text)
  if (loop && sourceOf(loop[2]!, st.lang, tainted))
    tainted.set(`${family(st.lang)}:${loop[1]}`, t)
  const call = CALL_ON.exec(st.text)
  if (call && tainted.assigned.has(`${family(st.lang)}:${call[1]}`) && !MODULES.has(call[1]!))
    tainted.set(`${family(st.lang)}:${call[1]}`, t)
  const readInto = READ_INTO.exec(st.text)
  if (readInto)
    tainted.set(`${family(st.lang)}:${readInto[1] ?? readInto[2]}`, t)
  WRITES_FILE.lastIndex = 0
  for (let m = WRITES_FILE.exec(st.text); m; m = WRITES_FILE.exec(st.text)) {
    const file = m[1]!
    // A file named by a variable (`tar -cf "$f" ...`): the variable stands for it wherever it is sent.
    const named = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(file)
    if (named)
      tainted.set(`${family(st.lang)}:${named[1]}`, t)
    else if (/[/\\]|\.[a-z]\w*$/i.test(file) && !/^(?:\/dev\/null|&\d)$/.test(file) && !namesSensitive(file))
      tainted.set(`file:${file}`, t)
  }
  const cp = CP_DEST.exec(st.text)
  if (cp && !namesSensitive(cp[1]!))
    tainted.set(`file:${cp[1]}`, t)
}

function leaks(st: Statement, tainted: Tainted): boolean {
  const t = sourceOf(st.text, st.lang, tainted)
  if (!t)
    return false
  // A named secret sent to its own service is an API client; the environment or a key file goes nowhere.
  return t.names.length === 0 || sendsForeign(st.text, t.names)
}

/**
 * The lines (0-based, per file) holding a literal of a sink: the one literal pass over each file finds them, and a
 * statement on none of them holds no sink.
 */
function sinkLines(skill: SkillSource, units: readonly Unit[]): Map<string, Set<number>> {
  const code = new Set(units.filter(u => u.lang !== 'prose').map(u => u.path))
  const out = new Map<string, Set<number>>()
  for (const file of skill.files) {
    if (!code.has(file.path))
      continue
    const lines = hitLines(file, 'sink')
    if (lines.length)
      out.set(file.path, new Set(lines.map(h => h.line)))
  }
  return out
}

// A search command: its quoted pattern names what it looks for (`grep -E '/dev/tcp/|curl'`), it sends nothing.
const SEARCH = /^\s*(?:sudo\s+)?(?:grep|egrep|fgrep|zgrep|rg|ag|ack|findstr|Select-String)\b/
/** A statement's text with a search command's quoted patterns left out. */
function searched(text: string): string {
  return SEARCH.test(text) ? text.replace(/'[^'\n]*'|"[^"\n]*"/g, '\'\'') : text
}

/** Whether a statement spans a line with a sink's literal. */
function onSinkLine(st: Statement, lines: Map<string, Set<number>>): boolean {
  const set = lines.get(st.path)
  if (!set)
    return false
  for (let l = st.line - 1; l < st.line - 1 + st.span; l++) {
    if (set.has(l))
      return true
  }
  return false
}

export function visitExfiltration(skill: SkillSource): RawFinding[] {
  const units = unitsOf(skill)
  const prose = [...wrappedMatches(units, EXFIL_SENTENCES, 'exfiltration'), ...filledPlaceholders(skill, units)]
  // A statement on no line with a sink's literal sends nothing, and a skill without one leaks nothing in code.
  const lines = sinkLines(skill, units)
  if (!lines.size)
    return markQuoted(skill, prose)
  const statements = codeStatements(units)
  const sinks = statements.map(st => onSinkLine(st, lines) && SINK.test(searched(st.text)))
  if (!sinks.includes(true))
    return markQuoted(skill, prose)
  // Tainted variables by language (`sh:KEY`, `py:data`) and tainted files by path (`file:/tmp/x`).
  const tainted = new Tainted()
  const fns = enclosingFunctions(statements)
  // Two rounds: a value can be filled after the block that sends it is written (a script called later).
  for (let round = 0; round < 2; round++) {
    const size = tainted.size
    statements.forEach((st, i) => {
      if (!sinks[i] || ASSIGN.test(st.text))
        learn(st, tainted, fns[i])
    })
    if (tainted.size === size)
      break
  }
  const out: RawFinding[] = prose
  const flagged = new Set<number>()
  statements.forEach((st, i) => {
    if (!sinks[i] || !leaks(st, tainted))
      return
    flagged.add(i)
    out.push(sendFinding(st, st.span > 1
      ? 'sends secrets, a credential file or the environment over the network (multi-line statement)'
      : 'sends secrets, a credential file or the environment filled elsewhere over the network'))
  })
  for (const { at, message } of treeUploads(statements, sinks)) {
    if (!flagged.has(at))
      out.push(sendFinding(statements[at]!, message))
  }
  out.push(...readsAndSends(statements, sinks, flagged))
  return markQuoted(skill, out)
}

const READS_AND_SENDS = 'sends data over the network from code that reads a credential store or the environment'
// An import of a network client (a send where nothing else in the unit sends).
const IMPORT = /^\s*(?:import\s|from\s+\S+\s+import\s|(?:const|let|var)\s+[\w{}\s,]+=\s*require\s*\()/

// A request that sends a body: a POST or PUT, a body or form argument, curl's data and form flags, an upload.
const CARRIES_BODY = new RegExp(
  String.raw`\b(?:POST|PUT|PATCH)\b|\.(?:post|put|patch|upload\w*|send|sendall|write)\s*\(`
  + String.raw`|\b(?:data|json|files|body|content)\s*[=:]`
  + String.raw`|(?:^|\s)(?:-d|--data(?:-\w+)?|-F|--form|-T|--upload-file)(?=[\s=@'"])`,
  'i',
)
// A file read: a path named in one statement is often opened in the next (`p = expanduser(f)`, `open(p)`).
const READS = new RegExp(
  String.raw`\bopen\s*\(|\.read\w*\s*\(|\bread_(?:text|bytes)\s*\(|readFileSync|\breadFile\s*\(|\bexpanduser\s*\(`
  + String.raw`|\bhomedir\s*\(|\bGet-Content\b|\b(?:File|IO)\.(?:bin)?(?:read|open)|\bfile_get_contents\b|\bio\.open\b`
  + String.raw`|\bos\.ReadFile|ioutil\.ReadFile|\bcat\s+\S`
  + String.raw`|\btar\s+-?\w*c|\bzip\s+-|\bbase64\s+\S`,
)
// A store's path or file name; a dotenv file is how a client loads its own key, and a phrase names no file.
const STORE_PATHS = STORES.filter(s => s.kind !== 'dotenv files').map(s => new RegExp(s.re, 'gi'))
const CLIPBOARD_RE = new RegExp(CLIPBOARD, 'i')
function namesStore(text: string): boolean {
  if (ENV_DUMP_RE.test(text) || CLIPBOARD_RE.test(text))
    return true
  return STORE_PATHS.some((re) => {
    re.lastIndex = 0
    for (let m = re.exec(text); m; m = re.exec(text)) {
      // A path, or a file name quoted whole in code (`'Login Data'`, `("id_rsa", "id_ed25519")`).
      if (/[./\\~]/.test(m[0]) || quotedWhole(text, m.index, m.index + m[0].length))
        return true
    }
    return false
  })
}

function quotedWhole(text: string, start: number, end: number): boolean {
  const q = text[start - 1]
  return (q === '"' || q === '\'' || q === '`') && text[end] === q
}

/**
 * A script or code block that reads a credential store or the whole environment and sends data over the network
 * to a host that is not local, where no flow above connects the two (a value through a function's return, a
 * dict key, a callback): the first such send is reported.
 */
function readsAndSends(
  statements: readonly Statement[],
  sinks: readonly boolean[],
  flagged: Set<number>,
): RawFinding[] {
  // Per unit: it names a store's path (or dumps the environment), and it reads files.
  const names = new Set<string>()
  const readers = new Set<string>()
  for (const st of statements) {
    if (!names.has(st.unit) && sourceHinted(st.text)) {
      const text = joinedPaths(st.text.replace(NOT_SENT, ' '))
      if (namesStore(text))
        names.add(st.unit)
      // The whole environment needs no file read: copying it (`dict(os.environ)`) is the read, as is the clipboard's.
      if (ENV_DUMP_RE.test(text) || CLIPBOARD_RE.test(text))
        readers.add(st.unit)
    }
    if (!readers.has(st.unit) && READS.test(st.text))
      readers.add(st.unit)
  }
  const reads = new Set([...names].filter(u => readers.has(u)))
  // The send, not the import of its client, is where a reader looks (an import only where nothing else sends);
  // the first send that carries a body, not a GET that fetches settings before it.
  const first = new Map<string, Statement>()
  const send = new Map<string, Statement>()
  const upload = new Map<string, Statement>()
  statements.forEach((st, i) => {
    if (!sinks[i] || flagged.has(i) || !reads.has(st.unit) || upload.has(st.unit) || localOnly(st.text)
      || fetchesOnly(st)) {
      return
    }
    if (IMPORT.test(st.text)) {
      if (!first.has(st.unit))
        first.set(st.unit, st)
      return
    }
    if (!send.has(st.unit))
      send.set(st.unit, st)
    if (CARRIES_BODY.test(st.text))
      upload.set(st.unit, st)
  })
  const found = [...reads].map(u => upload.get(u) ?? send.get(u) ?? first.get(u)).filter(st => st !== undefined)
  return found
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line))
    .map(st => sendFinding(st, READS_AND_SENDS))
}

/** A finding at a sending statement, on its first line. */
function sendFinding(st: Statement, message: string): RawFinding {
  const first = st.text.split('\n')[0]!
  return {
    rule: 'exfiltration',
    path: st.path,
    line: st.line,
    column: 1 + (first.length - first.trimStart().length),
    message,
    excerpt: excerptAt(first, 0, Math.min(first.length, 80)),
  }
}

/**
 * Shell downloads that carry nothing: `wget -q https://.../godot.zip` in a build that also reads its keystore.
 * Data leaves in a body, an upload, a variable or a substitution in the URL, or a redirect into the command.
 */
function fetchesOnly(st: Statement): boolean {
  const sends = st.text.split('\n').filter(l => SINK.test(l))
  return sends.length > 0 && sends.every(l => /^\s*(?:-\s+)?(?:run:\s*)?(?:sudo\s+)?(?:curl|wget)\s/.test(l)
    && !/\s(?:-[dFT]|--data\S*|--form\S*|--upload-file|--post-(?:data|file))(?=[\s=@'"]|$)|[$`@<]/.test(l))
}

/** A send whose every literal destination is this machine (a local dev server, a unix socket). */
function localOnly(text: string): boolean {
  const hosts = [...text.matchAll(/\b(?:https?|wss?):\/\/([^\s/'"`:?#)\]}>,\\]+)/gi)].map(m => m[1]!.toLowerCase())
  return (hosts.length > 0 && hosts.every(h => LOCAL_HOST.test(h))) || /\bAF_UNIX\b|\.sock\b|--unix-socket\b/.test(text)
}
