import type { Statement } from './code-units'
import { hostOf, isDocHost, urlsIn } from './hosts'

/**
 * The working tree or the home directory packed or copied whole and sent to a remote host: a skill that needs a
 * file sends that file, while an upload of `.` or `~` takes the source, its `.env` files and its `.git`, whatever
 * they hold. Shell statements only (scripts, Makefile recipes, fenced blocks): the form is a command line.
 */

// A path operand that is the whole tree: `.`, `./`, `*`, `~`, `$HOME`, `$PWD`, `$(pwd)`.
const TREE = String.raw`(?:\.\/?|\*|~\/?|\$\{?(?:HOME|PWD|USERPROFILE|env:USERPROFILE)\}?\/?|"?\$\(pwd\)"?)`
const END = String.raw`(?=\s|$|[|;&)])`

/** Packs the tree: group 1 is the archive written, `-` (or nothing) for standard output. */
const PACKS = new RegExp(
  [
    String.raw`\btar\s+(?:--?[\w-]+(?:=\S+)?\s+)*-?[a-z]*c[a-z]*f\s+(\S+)(?:\s+--?[\w-]+(?:=\S+)?)*\s+${TREE}${END}`,
    String.raw`|\bzip\s+(?:-\w+\s+)*-\w*r\w*\s+(?:-\w+\s+)*(\S+)\s+${TREE}${END}`,
    String.raw`|\bgit\s+(?:bundle\s+create\s+(\S+)\s+--all|archive\s+(?:--format[=\s]\w+\s+)?(?:-o\s+(\S+)\s+)?HEAD)\b`,
    String.raw`|\bCompress-Archive\s+-Path\s+${TREE}\s+-DestinationPath\s+(\S+)`,
  ].join(''),
  'i',
)

/** Copies the tree to `[user@]host:` (rsync, scp): group 1 is the host. */
const COPIES = new RegExp(
  String.raw`\b(?:rsync|scp)\b(?:\s+-[\w-]+(?:[=\s](?!\.|~|\$|\*)\S+)?)*\s+${TREE}\s+`
  + String.raw`(?:[\w.-]+@)?([\w-]+(?:\.[\w-]+)+):`,
  'i',
)

/** Remote hosts a statement sends to: URLs, `user@host:` copies, bucket URLs, raw sockets. */
function remoteHosts(text: string): string[] {
  const hosts = urlsIn(text).map(hostOf)
  for (const m of text.matchAll(/\s(?:[\w.-]+@)?([\w-]+(?:\.[\w-]+)+):(?!\/\/)/g)) hosts.push(m[1]!.toLowerCase())
  for (const m of text.matchAll(/\b(?:s3|gs|az):\/\/([\w.-]+)/gi)) hosts.push(`${m[1]!.toLowerCase()}.bucket`)
  for (const m of text.matchAll(/\b(?:nc|ncat|netcat)\s+(?:-\w+\s+)*([\w-]+(?:\.[\w-]+)+)\s+\d+/g))
    hosts.push(m[1]!.toLowerCase())
  for (const m of text.matchAll(/\/dev\/(?:tcp|udp)\/([\w.-]+)\//g)) hosts.push(m[1]!.toLowerCase())
  return hosts.filter(h => h !== '' && !isDocHost(h.replace(/\.bucket$/, '')))
}

const MESSAGE = 'sends the whole working tree or home directory to a remote host'
const PUSH_MESSAGE = 'pushes the whole repository, or secrets it force-adds, to a remote the skill adds'

/** `git remote add NAME URL` with a literal host and owner: group 1 is the name, 2 the URL. */
const REMOTE_ADD = /\bgit\s+remote\s+add\s+(?:-\S+\s+)*([\w.-]+)\s+["']?(\S+?)["']?(?=\s|$|[;&|)])/
/** A push of every ref: `--all`, `--mirror`, `+refs/*`. */
const PUSH_ALL = /--all\b|--mirror\b|\+?refs\/\*/
/** Ignored secret files forced into the index (`git add -f .env secrets/`). */
const FORCE_ADD_SECRET
  = /\bgit\s+add\s+(?:-\w*f\w*|--force)\b[^\n;&|]*?(?:\.env\b|secrets?\b|credentials|\.pem\b|id_rsa|\.key\b)/

/** A remote URL whose host and owner the skill wrote (no placeholder), on a host someone outside can reach. */
function literalRemote(url: string): boolean {
  const m = /^(?:[a-z+]+:\/\/)?(?:[^@/\s]+@)?([\w.-]+\.[a-z]{2,})[:/]([^/\s]*)/i.exec(url)
  if (!m || isDocHost(m[1]!.toLowerCase()))
    return false
  const owner = m[2]!
  return !/[<>{}$[\]]|\b(?:your|user|username|owner|org|you|name)\b/i.test(owner) && !/^[A-Z][A-Z_-]+$/.test(owner)
}

/** A statement that sends the tree (its index among the statements), and what it does. */
export interface TreeUpload {
  at: number
  message: string
}

/**
 * Uploads of the tree: packed and piped to a send, packed to a file that a later statement of the same block or
 * script sends, or copied with rsync or scp to a literal host; and repositories pushed whole to a remote the skill
 * adds. The caller reports them as its other sends.
 */
export function treeUploads(statements: readonly Statement[], sinks: readonly boolean[]): TreeUpload[] {
  const out: TreeUpload[] = []
  const values = new Map<string, Map<string, string>>()
  // Archives written, by unit (a block or a script).
  const packed = new Map<string, string[]>()
  // Per unit: remotes it adds with a literal URL, remotes set to push every ref, whether it force-added secrets.
  const remotes = new Map<string, Set<string>>()
  const mirrors = new Set<string>()
  const forced = new Set<string>()
  const gitSends = (st: Statement): boolean => {
    const added = REMOTE_ADD.exec(st.text)
    if (added && literalRemote(added[2]!))
      remotes.set(st.unit, (remotes.get(st.unit) ?? new Set()).add(added[1]!))
    const mirror = /\bgit\s+config\s+remote\.([\w.-]+)\.(?:push|mirror)\s+["']?(?:\+refs\/\*|true)/.exec(st.text)
    if (mirror)
      mirrors.add(`${st.unit}\0${mirror[1]}`)
    if (FORCE_ADD_SECRET.test(st.text))
      forced.add(st.unit)
    const push = /\bgit\s+push\b([^\n;&|]*)/.exec(st.text)
    const names = remotes.get(st.unit)
    if (!push || !names)
      return false
    const args = push[1]!.split(/\s+/)
    const to = args.find(a => names.has(a))
    return to !== undefined
      && (PUSH_ALL.test(push[1]!) || mirrors.has(`${st.unit}\0${to}`) || forced.has(st.unit))
  }
  statements.forEach((raw, i) => {
    if (raw.lang === 'js' || raw.lang === 'py' || raw.lang === 'rb' || raw.lang === 'go')
      return
    const st = { ...raw, text: expanded(raw, values) }
    if (/\bgit\s/.test(st.text) && gitSends(st)) {
      out.push({ at: i, message: PUSH_MESSAGE })
      return
    }
    const copy = COPIES.exec(st.text)
    if (copy && !isDocHost(copy[1]!.toLowerCase())) {
      out.push({ at: i, message: MESSAGE })
      return
    }
    const pack = PACKS.exec(st.text)
    if (pack) {
      const archive = pack.slice(1).find(g => g !== undefined)
      const rest = st.text.slice(pack.index + pack[0].length)
      if ((archive === undefined || archive === '-') && /\|/.test(rest) && sinks[i] && remoteHosts(rest).length) {
        out.push({ at: i, message: MESSAGE })
        return
      }
      if (archive && archive !== '-')
        packed.set(st.unit, [...(packed.get(st.unit) ?? []), archive.replace(/^["']|["']$/g, '')])
      return
    }
    const archives = packed.get(st.unit)
    if (sinks[i] && archives?.some(a => st.text.includes(a)) && remoteHosts(st.text).length)
      out.push({ at: i, message: MESSAGE })
  })
  return out
}

// `NAME=value` (shell), `set NAME=value` (batch), `NAME := value` (make), `$name = "value"` (PowerShell).
const ASSIGN = /^\s*(?:set\s+|export\s+|\$)?([A-Za-z_]\w*)\s*(?:\?|::?)?=\s*["']?([^\s"'$%`]+)["']?\s*$/
const USE = /%(\w+)%|\$\{(\w+)\}|\$\((\w+)\)|\$(\w+)/g

/**
 * A statement's text with the variables its unit set to a literal before it put in place (`set H=host` ...
 * `https://%H%/x`): the address a command sends to is often one assignment away.
 */
function expanded(st: Statement, values: Map<string, Map<string, string>>): string {
  let known = values.get(st.unit)
  const set = ASSIGN.exec(st.text)
  if (set) {
    if (!known)
      values.set(st.unit, (known = new Map()))
    known.set(set[1]!, set[2]!)
    return st.text
  }
  if (!known?.size || !/[$%]/.test(st.text))
    return st.text
  const table = known
  const value = (all: string, ...names: Array<string | undefined>): string =>
    table.get(names.slice(0, 4).find(Boolean)!) ?? all
  return st.text.replace(USE, value)
}
