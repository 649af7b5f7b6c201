import type { Severity, SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import type { ChunkFinding, CodeChunk } from './code-blocks'
import { codeChunks, toRaw } from './code-blocks'
import { downloadRisk } from './hosts'

/**
 * A download saved to a file in one statement and run in a later one (the one-line forms are line patterns):
 * `curl -o /tmp/a URL` ... `chmod +x /tmp/a` ... `/tmp/a`; and, in Python, a downloaded value reaching
 * exec/eval/os.system through variables.
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
  /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|Start-BitsTransfer)\b[^\n]{0,400}?(?:\s-o\s*|\s-O\s+|--output(?:-document)?[=\s]+|\s-OutFile\s+|\s-Destination\s+)["']?([^\s"';|&)]+)/i,
  // curl URL > FILE
  /\b(?:curl|wget)\b[^>|\n]{0,400}?\s>\s*["']?([^\s"';|&)]+)/i,
  // curl -O URL, wget URL: the file is named after the URL's last segment
  /\b(?:curl\b[^|>\n]{0,200}?\s-\w*O\w*\s+[^|>\n]{0,200}?|wget\s+(?:-\w+\s+)*)["']?https?:\/\/[^\s"']*\/([^\s"'/?#]+)/i,
  // certutil -urlcache -f URL FILE
  /\bcertutil\b[^\n]{0,100}-urlcache\b[^\n]{0,100}?https?:\/\/\S+\s+["']?([^\s"']+)/i,
  // Python: urlretrieve(URL, FILE)
  /\burlretrieve\s*\(\s*[^,]+,\s*(?:f?["']([^"']+)["']|(\w+))/,
]

const VERIFY = /\b(?:sha(?:1|256|512)sum|shasum|md5sum|gpg\s+--verify|cosign\s+verify|minisign|Get-FileHash|hashlib)\b/i

const baseName = (f: string): string => f.replace(/^["']|["']$/g, '').replace(/^.*[/\\]/, '').toLowerCase()

function runsFile(line: string, name: string): boolean {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const ref = String.raw`(?:[^\s"';|&]*[/\\])?${esc}\b`
  return new RegExp(
    [
      String.raw`\bchmod\s+(?:-\S+\s+)*(?:[ugoa]*\+x|[0-7]*[1357][0-7]{0,2})\s+["']?${ref}`,
      String.raw`|(?:^|[;&|(]\s*|\b(?:sudo|exec|then|do|RUN)\s+)["']?(?:\.\/|\/|~\/|\$\{?\w+\}?\/)[^\s"';|&]*${esc}\b`,
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      String.raw`|\b(?:ba|z|k|da)?sh\s+(?:-\w+\s+)*["']?${ref}|\b(?:python[\d.]*|node|perl|ruby|source|msiexec\s+\/i)\s+["']?${ref}`,
      String.raw`|(?:^|[;&|]\s*)\.\s+["']?${ref}|\bStart-Process\b[^\n]*${esc}|(?:^|\s)&\s+["']?[^\s"']*${esc}\b`,
      String.raw`|\b(?:os\.system|subprocess\.\w+|os\.exec\w*|Popen)\s*\([^\n]*${esc}`,
    ].join(''),
    'i',
  ).test(line)
}

const DOWNLOAD = /curl|wget|iwr|irm|Invoke-|Start-Bits|certutil|urlretrieve/i

function shellFlow(chunk: CodeChunk, out: ChunkFinding[]): void {
  if (!DOWNLOAD.test(chunk.text))
    return
  const { lines } = chunk
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.length > MAX_LINE || !DOWNLOAD.test(line))
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
    let verified = false
    for (let j = i + 1; j < Math.min(lines.length, i + SPAN); j++) {
      const later = lines[j]!
      if (later.length > MAX_LINE)
        continue
      if (VERIFY.test(later))
        verified = true
      if (!runsFile(later, name))
        continue
      const risk = downloadRisk(line)
      const severity: Severity = verified || risk === 'official' || risk === 'doc' ? 'warning' : 'error'
      const above = `${j - i} line${j - i > 1 ? 's' : ''} above`
      out.push({
        chunk,
        line: j,
        column: later.length - later.trimStart().length,
        message: `runs ${name}, downloaded ${above}${verified ? ' (checksum seen)' : ''}`,
        excerpt: later,
        severity,
      })
      break
    }
  }
}

interface Flow {
  source: RegExp
  assign: RegExp
  sink: RegExp
}

const PY: Flow = {
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  source: /\b(?:requests\.(?:get|post)|urlopen|urllib\.request\.\w+|httpx\.(?:get|post)|urllib3\.\w+|aiohttp|\.get\(\s*(?:url|URL)\b)/,
  assign: /^\s*(?:with\s+.*\bas\s+(\w+)|(\w+)\s*(?::[^=]+)?=(?!=))/,
  // subprocess only with a shell: a downloaded value as one argument of a fixed command is not code.
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  sink: /\b(?:exec|eval|os\.system|os\.popen|pickle\.loads|marshal\.loads|subprocess\.\w+(?=[^\n]*shell\s*=\s*True))\s*\(([^\n]*)/,
}

const JS: Flow = {
  source: /\b(?:fetch|axios(?:\.get)?|got|https?\.get|undici\.request|request)\s*\(/,
  assign: /^\s*(?:(?:const|let|var)\s+(\w+)|(\w+))\s*=(?!=)/,
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  sink: /(?<![.\w$])(?:eval|Function|runInThisContext|runInNewContext|execSync)\s*\(([^\n]*)|\bnew\s+(?:Function|vm\.Script)\s*\(([^\n]*)/,
}

/** A value downloaded in one statement reaches exec/eval/a shell in another, through assignments. */
function valueFlow(chunk: CodeChunk, flow: Flow, out: ChunkFinding[]): void {
  if (!flow.source.test(chunk.text) || !flow.sink.test(chunk.text))
    return
  const tainted = new Set<string>()
  const { lines } = chunk
  if (lines.length > MAX_CHUNK_LINES)
    return
  let names: RegExp | null = null
  const mentions = (text: string): boolean =>
    tainted.size > 0 && (names ??= new RegExp(String.raw`\b(?:${[...tainted].join('|')})\b`)).test(text)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.length > MAX_LINE)
      continue
    const assign = flow.assign.exec(line)
    const rhs = assign ? line.slice(assign[0].length) : line
    const name = assign ? (assign[1] ?? assign[2])! : ''
    if (assign && !tainted.has(name) && (flow.source.test(rhs) || mentions(rhs))) {
      tainted.add(name)
      names = null
    }
    const sink = flow.sink.exec(line)
    if (!sink || !tainted.size)
      continue
    if (mentions(sink[1] ?? sink[2] ?? '')) {
      out.push({
        chunk,
        line: i,
        column: sink.index,
        message: 'executes code downloaded at run time',
        excerpt: line.slice(sink.index),
        severity: 'error',
      })
    }
  }
}

export function downloadThenRun(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  for (const chunk of codeChunks(skill)) {
    if (chunk.lang === 'py')
      valueFlow(chunk, PY, found)
    else if (chunk.lang === 'js')
      valueFlow(chunk, JS, found)
    else if (chunk.lang === 'sh' || chunk.lang === 'text')
      shellFlow(chunk, found)
  }
  return toRaw('remote_exec', found)
}
