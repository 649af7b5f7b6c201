import type { Severity, SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import type { ChunkFinding, CodeChunk } from './code-blocks'
import { escapeRegExp } from '../../core/escape-regexp'
import { codeChunks, toRaw } from './code-blocks'
import { downloadRisk } from './hosts'

/**
 * A download saved to a file in one statement and run in a later one (the one-line forms are line patterns):
 * `curl -o /tmp/a URL` ... `chmod +x /tmp/a` ... `/tmp/a`; a downloaded value reaching an evaluator through
 * variables (Python, JavaScript, Ruby, and scripts no rule parses: PowerShell, Lua, shell); and, for
 * `encoded_payload`, a value decoded at run time reaching one the same way.
 */

/** How far apart the download and the run may be. */
const SPAN = 40
/** Longer lines are no command anybody types; the line patterns read them in bounded windows. */
const MAX_LINE = 4000
/** Whole bundles are left to the line patterns and the JS analysis. */
const MAX_CHUNK_LINES = 5000

const SAVE: RegExp[] = [
  // curl -o FILE / --output FILE, wget -O FILE, iwr -OutFile FILE, Start-BitsTransfer -Destination FILE
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|Start-BitsTransfer)\b[^\n]{0,400}?(?:\s-[A-Za-z]*o\s*|\s-O\s+|--output(?:-document)?[=\s]+|\s-OutFile\s+|\s-Destination\s+)["']?([^\s"';|&)]+)/i,
  // curl URL > FILE
  /\b(?:curl|wget)\b[^>|\n]{0,400}?\s>\s*["']?([^\s"';|&)]+)/i,
  // curl -O URL, wget URL: the file is named after the URL's last segment
  /\b(?:curl\b[^|>\n]{0,200}?\s-\w*O\w*\s+[^|>\n]{0,200}?|wget\s+(?:-\w+\s+)*)["']?https?:\/\/[^\s"']*\/([^\s"'/?#]+)/i,
  // certutil -urlcache -f URL FILE
  /\bcertutil\b[^\n]{0,100}-urlcache\b[^\n]{0,100}?https?:\/\/\S+\s+["']?([^\s"']+)/i,
  // Python: urlretrieve(URL, FILE)
  /\burlretrieve\s*\(\s*[^,]+,\s*(?:f?["']([^"']+)["']|(\w+))/,
  // Dockerfile: ADD URL FILE (ADD fetches a URL at build time)
  /^\s*ADD\s+(?:--\S+\s+)*["']?https?:\/\/\S+\s+["']?([^\s"']+)/i,
  // Ansible: get_url's `dest:` (read on the line that names it)
  /^\s*dest:\s*["']?([^\s"'#]+)/,
]

const VERIFY = /\b(?:sha(?:1|256|512)sum|shasum|md5sum|gpg\s+--verify|cosign\s+verify|minisign|Get-FileHash|hashlib)\b/i

const baseName = (f: string): string => f.replace(/^["']|["']$/g, '').replace(/^.*[/\\]/, '').toLowerCase()

// One regex per file name: a name waits over many lines.
const RUNS = new Map<string, RegExp>()

function runsFile(line: string, name: string): boolean {
  let re = RUNS.get(name)
  if (!re) {
    if (RUNS.size > 1000)
      RUNS.clear()
    RUNS.set(name, (re = runsFileRe(name)))
  }
  return re.test(line)
}

function runsFileRe(name: string): RegExp {
  const esc = escapeRegExp(name)
  const ref = String.raw`(?:[^\s"';|&]*[/\\])?${esc}\b`
  return new RegExp(
    [
      String.raw`\bchmod\s+(?:-\S+\s+)*(?:[ugoa]*\+x|[0-7]*[1357][0-7]{0,2})\s+["']?${ref}`,
      String.raw`|(?:^\s*|[;&|(]\s*|\b(?:sudo|exec|then|do|RUN|nohup|setsid|timeout\s+\S+|env(?:\s+\w+=\S*)*)\s+`
      + String.raw`|\b(?:shell|command|cmd|script):\s+)`
      + String.raw`["']?(?:\.\/|\/|~\/|\$\{?\w+\}?\/)[^\s"';|&]*${esc}\b`,
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      String.raw`|\b(?:ba|z|k|da)?sh\s+(?:-\w+\s+)*["']?${ref}|\b(?:python[\d.]*|node|perl|ruby|php|bun|source|msiexec\s+\/i)\s+["']?${ref}`,
      // A runtime that runs the file it is given: `java -jar`, `deno run`, `dotnet`, `mono`.
      String.raw`|\b(?:java\s+(?:-\S+\s+)*-jar|deno\s+run(?:\s+-\S+)*|dotnet|mono)\s+["']?${ref}`,
      String.raw`|(?:^|[;&|]\s*)\.\s+["']?${ref}|\bStart-Process\b[^\n]*${esc}|(?:^|\s)&\s+["']?[^\s"']*${esc}\b`,
      String.raw`|\b(?:os\.system|subprocess\.\w+|os\.exec\w*|Popen)\s*\([^\n]*${esc}`,
    ].join(''),
    'i',
  )
}

const MAKEFILE = /(?:^|\/)(?:GNU)?makefile$|\.mk$/i
const DOWNLOAD = /curl|wget|iwr|irm|Invoke-|Start-Bits|certutil|urlretrieve|\bADD\s+(?:--\S+\s+)*["']?https?:|get_url/i
/** Ansible's `get_url:` task: its `url:` and `dest:` lines follow it. */
const GET_URL = /\bget_url:/
const DEST = /^\s*dest:\s*\S/

/** A download saved to a file, waiting for a later statement that runs it. */
interface Saved {
  name: string
  line: string
  verified: boolean
  /** Where it was saved: a later block of the same file says "in an earlier block". */
  chunk: CodeChunk
  at: number
}

/**
 * Downloads saved to files and runs of them, in one shell chunk: `pending` holds what earlier chunks of the same
 * file saved and nothing ran yet (a README downloads in one block and runs in the next); returns what is still
 * pending after this chunk.
 */
function shellFlow(chunk: CodeChunk, pending: Saved[], out: ChunkFinding[]): Saved[] {
  const { lines } = chunk
  const hasDownload = DOWNLOAD.test(chunk.text)
  if (!hasDownload && !pending.length)
    return pending
  let waiting = pending
  // In a Makefile only recipe lines (a tab first) run anything; a target's line names what it makes.
  const make = MAKEFILE.test(chunk.file.path)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.length > MAX_LINE)
      continue
    if (waiting.length) {
      if (VERIFY.test(line))
        waiting = waiting.map(w => ({ ...w, verified: true }))
      const ran = (!make || line.startsWith('\t')) && waiting.find(w => (w.chunk !== chunk || w.at < i)
        && (w.chunk !== chunk || i - w.at < SPAN) && runsFile(line, w.name))
      if (ran) {
        report(ran, chunk, i, out)
        waiting = waiting.filter(w => w !== ran)
      }
    }
    // A task's `dest:` saves what the `url:` above it names (the saved line is read for its host).
    const above = DEST.test(line) ? lines.slice(Math.max(0, i - 6), i) : []
    const task = above.some(l => GET_URL.test(l)) ? [...above, line].join(' ') : null
    if (!hasDownload || (!task && !DOWNLOAD.test(line)))
      continue
    let name: string | null = null
    for (const re of SAVE) {
      const m = re.exec(line)
      if (m && (m[1] ?? m[2])) {
        name = baseName(m[1] ?? m[2]!)
        break
      }
    }
    if (!name || name.length < 2 || name === '-' || name === '/dev/null' || name === 'null')
      continue
    waiting = [...waiting.filter(w => w.name !== name), { name, line: task ?? line, verified: false, chunk, at: i }]
  }
  // Make runs a target's prerequisites first: a recipe above may run what a recipe below downloads.
  if (make) {
    for (const w of waiting.filter(w => w.chunk === chunk)) {
      const j = lines.findIndex((line, i) => i < w.at && w.at - i < SPAN && line.startsWith('\t')
        && runsFile(line, w.name))
      if (j !== -1) {
        report(w, chunk, j, out)
        waiting = waiting.filter(x => x !== w)
      }
    }
  }
  return waiting
}

function report(saved: Saved, chunk: CodeChunk, j: number, out: ChunkFinding[]): void {
  const later = chunk.lines[j]!
  const risk = downloadRisk(saved.line)
  const severity: Severity = saved.verified || risk === 'official' || risk === 'doc' ? 'warning' : 'error'
  const lines = Math.abs(j - saved.at)
  const where = saved.chunk !== chunk
    ? 'in an earlier block'
    : `${j < saved.at ? 'by a recipe ' : ''}${lines} line${lines > 1 ? 's' : ''} ${j < saved.at ? 'below' : 'above'}`
  out.push({
    chunk,
    line: j,
    column: later.length - later.trimStart().length,
    message: `runs ${saved.name}, downloaded ${where}${saved.verified ? ' (checksum seen)' : ''}`,
    excerpt: later,
    severity,
  })
}

interface Flow {
  source: RegExp
  assign: RegExp
  sink: RegExp
  /** A variable a response's chunks are appended to, once a download is seen (group 1). */
  append?: RegExp
  /** Python functions (by indentation) whose body is a source: a call of one is a source too. */
  fetchers?: boolean
  /** A download from an official installer's or a documentation host is a warning, as its one-line form is. */
  byHost?: boolean
  /** The finding's message. */
  message?: string
}

const PY: Flow = {
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  source: /\b(?:requests\.(?:get|post)|urlopen|urllib\.request\.\w+|httpx\.(?:get|post)|urllib3\.\w+|aiohttp|\.get\(\s*(?:url|URL)\b)/,
  // `for fix in manifest["hotfixes"]:` fills `fix` from what it iterates.
  assign: /^\s*(?:with\s+.*\bas\s+(\w+)|(\w+)\s*(?::[^=]+)?=(?!=)|for\s+(\w+)\s+in\b)/,
  // subprocess only with a shell: a downloaded value as one argument of a fixed command is not code.
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  sink: /\b(?:exec|eval|os\.system|os\.popen|pickle\.loads|marshal\.loads|subprocess\.\w+(?=[^\n]*shell\s*=\s*True))\s*\(([^\n]*)/,
  fetchers: true,
}

const JS: Flow = {
  source: /\b(?:fetch|axios(?:\.get)?|got|https?\.get|undici\.request|request)\s*\(/,
  assign: /^\s*(?:(?:const|let|var)\s+(\w+)|(\w+))\s*=(?!=)/,
  // `vm.runInThisContext(...)` is how the vm module is called; a method named `eval` on an object is not JS's eval.
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  sink: /(?:(?<![.\w$])(?:eval|Function|execSync)|\brunIn(?:This|New)Context)\s*\(([^\n]*)|\bnew\s+(?:Function|vm\.Script)\s*\(([^\n]*)/,
  // `res.on('data', c => body += c)`: the body of a response read by events.
  append: /\.on\(\s*["']data["']\s*,\s*(?:async\s+)?\(?\s*\w+\s*\)?\s*=>\s*[{(]?\s*(\w+)\s*\+=/,
}

const RB: Flow = {
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  source: /\b(?:Net::HTTP\.get(?:_response)?|URI\.open|URI\.parse\([^)]*\)\.read|open\(\s*["']https?:|HTTParty\.get|RestClient\.get|Faraday\.get)\b/,
  assign: /^\s*(?:@)?(\w+)()\s*=(?!=)/,
  sink: /\b(?:eval|instance_eval|class_eval|system|exec|spawn)\b\s*\(?([^\n]*)/,
}

/**
 * Scripts no rule parses (PowerShell, Lua, Perl, PHP, shell): a variable filled by a download reaches an
 * evaluator (`load(body)`, `[scriptblock]::Create(...)`, `iex $x`, `eval "$x"`, `. $sb`).
 */
const SCRIPT: Flow = {
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  source: /\b(?:Invoke-RestMethod|Invoke-WebRequest|irm|iwr|DownloadString|DownloadData|curl|wget|LWP::Simple|HTTP::Tiny|socket\.http|http\.request|file_get_contents\s*\(\s*["']https?:)\b/i,
  assign: /^\s*(?:local\s+|my\s+|our\s+|export\s+)?[$@]?(\w+)()\s*=(?!=)/,
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  sink: /\b(?:loadstring|load|dofile|Invoke-Expression|iex|eval)\b\s*\(?([^\n]*)|\[scriptblock\]::Create\s*\(([^\n]*)|(?:^|[;|]\s*)[.&]\s+(\$\w+)/i,
  byHost: true,
}

const DECODED = 'executes code decoded at run time'

/** Python and JavaScript: a value decoded at run time (base64, hex, zlib) reaches exec/eval through variables. */
const PY_DECODED: Flow = {
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  source: /\b(?:b64decode|b32decode|b85decode|a85decode|b16decode|decodebytes|unhexlify|fromhex|decompress|codecs\.decode)\s*\(/,
  assign: PY.assign,
  sink: /(?<![.\w])(?:exec|eval|compile)\s*\(([^\n]*)/,
  // A function that returns the decode (`def _load(): return zlib.decompress(b64decode(...))`) is one too.
  fetchers: true,
  message: DECODED,
}
const JS_DECODED: Flow = {
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  source: /(?<![.\w$])atob\s*\(|Buffer\s*\.\s*from\s*\((?:[^()\n]|\([^()\n]*\))*['"](?:base64|hex|base64url)['"]|\b(?:inflateSync|gunzipSync|inflateRawSync|brotliDecompressSync)\s*\(/,
  assign: JS.assign,
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  sink: /(?:(?<![.\w$])(?:eval|Function)|\brunIn(?:This|New)Context)\s*\(([^\n]*)|\bnew\s+(?:Function|vm\.Script)\s*\(([^\n]*)/,
  message: DECODED,
}

/** Shell: a value decoded into a variable (`t="$(... | base64 -d)"`) and run (`bash -c "$t"`, `eval "$t"`). */
const SH_DECODED: Flow = {
  source: /\bbase64\s+(?:-\w*d\w*|--decode)\b|\bxxd\s+-r\b|\bopenssl\s+(?:enc\s+)?[^\n|]*\s-d\b|\b(?:gunzip|zcat)\b/,
  // `local t; t="$(...)"` declares, then fills.
  assign: /^\s*(?:local\s+\w+\s*;\s*)?(?:export\s+|local\s+|readonly\s+)?(\w+)()=(?!=)/,
  sink: /\b(?:eval|(?:ba|z|k|da)?sh\s+-c|python[\d.]*\s+-c|perl\s+-e|node\s+-e)\s+([^\n]*)/,
  message: DECODED,
}

/** A network read, in the languages whose code flows are followed (for a downloaded file written, then run). */
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const FETCH = /\bhttp\.(?:Get|Post)\s*\(|\bhttp\.DefaultClient\b|\b(?:requests|httpx)\.get\s*\(|\burlopen\s*\(|\burlretrieve\s*\(|\bfetch\s*\(|\bhttps?\.get\s*\(|\baxios\b|Net::HTTP|URI\.open|\bcurl\b|\bwget\b/
// A file written at a literal path: `os.WriteFile("/tmp/x", ...)`, `open("/tmp/x", "wb")`, `fs.writeFileSync('x')`.
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const WRITE_PATH = /\b(?:os\.WriteFile|ioutil\.WriteFile|os\.Create|os\.OpenFile|File\.(?:write|open|binwrite)|IO\.copy_stream|open|writeFileSync|createWriteStream|writeFile)\s*\(\s*["']([^"'\s]{2,200})["']/g

// A file named by a variable, written from the network: `urlretrieve(URL, path)`, `open(path, "wb")`,
// `fd, path = tempfile.mkstemp()`, `fs.writeFileSync(dest, ...)`.
const WRITE_VAR = new RegExp(
  String.raw`\burlretrieve\s*\([^,\n]+,\s*(\w+)\s*\)|\bopen\s*\(\s*(\w+)\s*,\s*["'][wa]b?\+?["']`
  + String.raw`|^\s*(?:\w+\s*,\s*)?(\w+)\s*=\s*tempfile\.mk[sd]?temp\b|\bwriteFileSync\s*\(\s*(\w+)\s*,`,
)
const RUN_CALL = String.raw`\b(?:subprocess\.\w+|os\.system|Popen|os\.exec\w*|execFileSync|spawnSync|spawn|execFile)`

/** Whether a line runs the file a variable names (`subprocess.run([sys.executable, path])`). */
function runsVar(line: string, name: string): boolean {
  return new RegExp(String.raw`${RUN_CALL}\s*\(\s*\[?[^\n]*?(?<![\w."'])${name}\b(?!\s*[=.(])`).test(line)
}

/**
 * Code that downloads, writes a file at a literal path or one a variable names, and runs it (Go
 * `exec.Command("/tmp/x")`, Python `subprocess.run(["/tmp/x"])`, Node `execFileSync('/tmp/x')`, Ruby
 * `system("/tmp/x")`).
 */
function fileFlow(chunk: CodeChunk, out: ChunkFinding[]): void {
  if (!FETCH.test(chunk.text) || !/\bexec|\bsystem\b|\bspawn|\bsubprocess\b|\bPopen\b/.test(chunk.text))
    return
  const { lines } = chunk
  if (lines.length > MAX_CHUNK_LINES)
    return
  const written: Array<{ path: string, at: number }> = []
  const vars: Array<{ name: string, at: number }> = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.length > MAX_LINE)
      continue
    const v = WRITE_VAR.exec(line)
    const name = v && v.slice(1).find(g => g !== undefined)
    if (name && !vars.some(w => w.name === name))
      vars.push({ name, at: i })
    const byVar = vars.find(w => w.at < i && runsVar(line, w.name))
    if (byVar) {
      out.push(ranWritten(chunk, i, byVar.name, i - byVar.at))
      return
    }
    WRITE_PATH.lastIndex = 0
    for (let m = WRITE_PATH.exec(line); m; m = WRITE_PATH.exec(line)) {
      if (/[/\\]|^\.?\w[\w-]*$/.test(m[1]!))
        written.push({ path: m[1]!, at: i })
    }
    const run = written.find(w => w.at < i && runsPath(line, w.path))
    if (run) {
      out.push(ranWritten(chunk, i, baseName(run.path), i - run.at))
      return
    }
  }
}

/** The finding at a line that runs a file the code downloaded and wrote `above` lines before. */
function ranWritten(chunk: CodeChunk, i: number, name: string, above: number): ChunkFinding {
  const line = chunk.lines[i]!
  return {
    chunk,
    line: i,
    column: line.length - line.trimStart().length,
    message: `runs ${name}, a file it downloaded and wrote ${above} line(s) above`,
    excerpt: line,
    severity: 'error',
  }
}

function runsPath(line: string, path: string): boolean {
  const esc = escapeRegExp(path)
  return new RegExp(
    String.raw`\b(?:exec\.Command(?:Context)?|subprocess\.\w+|os\.system|os\.exec\w*|Popen|spawn\w*|execFile\w*`
    + String.raw`|execSync|system|exec|Process\.spawn)\s*\(?\s*(?:ctx\s*,\s*)?\[?\s*`
    // The path alone, or after an interpreter in one command string (`execSync(\`bash /tmp/x.sh ${arg}\`)`).
    + String.raw`(?:["']${esc}["']`
    + String.raw`|["'\`](?:(?:ba|z)?sh|python[\d.]*|node|pwsh|powershell)\s+(?:-\w+\s+)*${esc}[\s"'\`])`,
  ).test(line)
}

/** The arguments of a call from just after its `(` (or the rest of a paren-less Ruby call) to their `)`. */
function callArgs(rest: string): string {
  let depth = 0
  for (let i = 0; i < rest.length; i++) {
    const c = rest.charCodeAt(i)
    if (c === 40)
      depth++
    else if (c === 41 && --depth < 0)
      return rest.slice(0, i)
    else if (c === 59 && depth === 0)
      return rest.slice(0, i)
  }
  return rest
}

/**
 * Python functions whose body downloads (`def fetch_manifest(): ... urlopen(...)`): a call of one is a download
 * too, its return value what it fetched.
 */
function withFetchers(chunk: CodeChunk, flow: Flow): Flow {
  if (!flow.fetchers)
    return flow
  const names: string[] = []
  const { lines } = chunk
  for (let i = 0; i < lines.length; i++) {
    const def = /^(\s*)def\s+(\w+)\s*\(/.exec(lines[i]!)
    if (!def)
      continue
    let j = i + 1
    while (j < lines.length && (!lines[j]!.trim() || /^\s*/.exec(lines[j]!)![0].length > def[1]!.length)) j++
    if (lines.slice(i + 1, j).some(l => flow.source.test(l)))
      names.push(def[2]!)
  }
  return names.length
    ? { ...flow, source: new RegExp(`${flow.source.source}|\\b(?:${names.join('|')})\\s*\\(`, flow.source.flags) }
    : flow
}

/**
 * A value downloaded (or decoded) in one statement reaches exec/eval/a shell in another, through assignments. A
 * download from an official installer's host is a warning, as its one-line form is.
 */
function valueFlow(chunk: CodeChunk, given: Flow, out: ChunkFinding[]): void {
  if (!given.source.test(chunk.text) || !given.sink.test(chunk.text))
    return
  const flow = withFetchers(chunk, given)
  const tainted = new Set<string>()
  const { lines } = chunk
  if (lines.length > MAX_CHUNK_LINES)
    return
  let names: RegExp | null = null
  let downloaded = false
  let from = ''
  const mentions = (text: string): boolean =>
    tainted.size > 0 && (names ??= new RegExp(String.raw`\b(?:${[...tainted].join('|')})\b`)).test(text)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.length > MAX_LINE)
      continue
    const assign = flow.assign.exec(line)
    // `with urlopen(url) as resp:` names what it opens after it.
    const rhs = assign && !/^\s*with\b/.test(line) ? line.slice(assign[0].length) : line
    const name = assign ? (assign[1] ?? assign[2] ?? assign[3])! : ''
    if (assign && !tainted.has(name) && (flow.source.test(rhs) || mentions(rhs))) {
      tainted.add(name)
      names = null
    }
    const appended = downloaded ? flow.append?.exec(line) : null
    if (appended && !tainted.has(appended[1]!)) {
      tainted.add(appended[1]!)
      names = null
    }
    const downloads = flow.source.test(line)
    if (downloads) {
      downloaded = true
      from ||= line
    }
    const sink = flow.sink.exec(line)
    if (!sink)
      continue
    // `eval(Net::HTTP.get(uri))`: the download is the argument itself (not a call later on the line).
    const args = sink[1] ?? sink[2] ?? sink[3] ?? ''
    if (flow.source.test(callArgs(args)) || mentions(args)) {
      const risk = flow.byHost ? downloadRisk(downloads ? line : from) : null
      out.push({
        chunk,
        line: i,
        column: sink.index,
        message: flow.message ?? 'executes code downloaded at run time',
        excerpt: line.slice(sink.index),
        severity: risk === 'official' || risk === 'doc' ? 'warning' : 'error',
      })
    }
  }
}

export function downloadThenRun(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  let pending: Saved[] = []
  let file: CodeChunk['file'] | null = null
  for (const chunk of codeChunks(skill)) {
    if (chunk.file !== file) {
      file = chunk.file
      pending = []
    }
    if (chunk.lang === 'py')
      valueFlow(chunk, PY, found)
    else if (chunk.lang === 'js')
      valueFlow(chunk, JS, found)
    else if (chunk.lang === 'rb')
      valueFlow(chunk, RB, found)
    if (chunk.lang === 'py' || chunk.lang === 'js' || chunk.lang === 'rb' || chunk.lang === 'go') {
      fileFlow(chunk, found)
    }
    else if (chunk.lang === 'sh' || chunk.lang === 'text') {
      pending = shellFlow(chunk, pending, found)
      valueFlow(chunk, SCRIPT, found)
      if (chunk.lang === 'text')
        cmakeFlow(chunk, found)
    }
  }
  return toRaw('remote_exec', found)
}

const CMAKE_DOWNLOAD = /\bfile\s*\(\s*DOWNLOAD\s+"?[^\s")]+"?\s+"?([^\s")]+)"?/i
/**
 * CMake: a file downloaded at configure time (`file(DOWNLOAD <url> <path>)`) and run by a later
 * `execute_process(COMMAND bash <path>)` or `COMMAND <path>`.
 */
function cmakeFlow(chunk: CodeChunk, out: ChunkFinding[]): void {
  if (!/\bDOWNLOAD\b/i.test(chunk.text) || !/\bexecute_process\b/i.test(chunk.text))
    return
  const { lines } = chunk
  let runs: RegExp | null = null
  let at = -1
  for (let i = 0; i < lines.length && i < MAX_CHUNK_LINES; i++) {
    const line = lines[i]!
    const m = CMAKE_DOWNLOAD.exec(line)
    if (m) {
      const esc = escapeRegExp(m[1]!)
      runs = new RegExp(String.raw`\bCOMMAND\s+(?:(?:ba|z)?sh\s+|python[\d.]*\s+|cmake\s+-P\s+)?"?${esc}`)
      at = i
      continue
    }
    if (runs?.test(line)) {
      out.push({
        chunk,
        line: i,
        column: line.length - line.trimStart().length,
        message: `runs a file CMake downloaded ${i - at} line(s) above`,
        excerpt: line,
        severity: 'error',
      })
      return
    }
  }
}

/** Code decoded at run time and run through variables (`src = zlib.decompress(b64decode(...))` ... `exec(src)`). */
export function decodedThenRun(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  for (const chunk of codeChunks(skill)) {
    const flow = chunk.lang === 'py'
      ? PY_DECODED
      : chunk.lang === 'js'
        ? JS_DECODED
        : chunk.lang === 'sh' || chunk.lang === 'text' ? SH_DECODED : null
    if (flow)
      valueFlow(chunk, flow, found)
  }
  return toRaw('encoded_payload', found)
}
