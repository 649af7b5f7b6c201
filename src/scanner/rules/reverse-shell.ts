import type { Severity, SkillSource } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import type { ChunkFinding } from './code-blocks'
import { literalTest } from '../finder/index'
import { bySeverity, codeChunks, toRaw } from './code-blocks'
import { isDocHost, isReservedIp, PLACEHOLDER_WORD } from './hosts'

const ALL = ['sh', 'py', 'js', 'text', 'prose'] as const
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const SHELL_BIN = String.raw`(?:\/(?:usr\/)?bin\/)?(?:ba|z|k|da|c|tc|fi)?sh\b|\bcmd(?:\.exe)?\b|\bpowershell(?:\.exe)?\b|\bpwsh\b`

/**
 * A shell handed to a remote peer is an attack wherever the peer can be reached. Security references show the
 * same commands with documentation targets (`10.0.0.1`, `192.0.2.5`, `ATTACKER_IP`, `attacker.com`): a target
 * nobody outside can reach, or a placeholder, makes it a warning.
 */
function byTarget(_m: RegExpExecArray, line: string): Severity {
  const ips = line.match(/\b(?:\d{1,3}\.){3}\d{1,3}\b/g) ?? []
  const hosts = (line.match(/\b(?:[a-z\d][\w-]{0,62}\.){1,8}[a-z]{2,}\b/gi) ?? [])
    // eslint-disable-next-line style/max-len -- a pattern is clearer whole
    .filter(h => !/\.(?:sh|py|js|ps1|exe|txt|log|fileno|socket|connect|spawn|system|call|Sockets|Net|dup2|bin)$/i.test(h))
    .filter(h => /\.(?:com|net|org|io|ru|cn|xyz|top|site|online|dev|app|cc|tk|pw|biz|us|su)$/i.test(h))
  if (ips.some(ip => !isReservedIp(ip)))
    return 'error'
  if (hosts.some(h => !isDocHost(h.toLowerCase()) && !/\.(?:ssh|config)\b/.test(h)))
    return 'error'
  return ips.length || hosts.length || PLACEHOLDER_WORD.test(line) ? 'warning' : 'error'
}

/**
 * A netcat command with no peer and no port, not even a variable: a fragment quoted as a pattern (`nc -e /bin/sh`
 * in a table of match strings), not a shell anybody can reach; a bind shell names the port it listens on.
 */
function byNetcatTarget(m: RegExpExecArray, line: string): Severity {
  const peer = /(?:[\s:/,=(]|-p\s*)\d{2,5}\b|\$\{?\w|\{\{\s*\w|%\w+%|\$env:/i.test(line)
  return peer ? byTarget(m, line) : 'warning'
}

/** Reverse and bind shells: an interactive shell whose input and output are a network connection. */
export const reverseShell: RuleModule = {
  meta: {
    id: 'reverse_shell',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-912',
    description:
      'Reverse or bind shell: a shell wired to a network connection (bash -i >& /dev/tcp/..., nc -e, socat exec, '
      + 'socket + dup2, pty.spawn over a socket, PowerShell TCPClient loops): whoever holds the other end runs '
      + 'commands on the machine.',
    hint:
      'Remove it: a skill never needs to hand a shell to a remote host. Security documentation should use '
      + 'documentation addresses (192.0.2.0/24, ATTACKER_IP) so it reads as an example.',
  },
  patterns: [
    ...bySeverity({
      anchor: '/dev/tcp/|/dev/udp/',
      re: new RegExp(
        [
          String.raw`(?:\b(?:ba|z|k)?sh\s+-i\b|\bexec\s+\d*\s*<>|[0-9]?>&\s*[0-9]|<&\s*\d|\d?<>\s*)`,
          // The port as a number or a variable: `$PORT`, `${PORT}`, a template's `{{ port }}`.
          String.raw`[^\n]{0,80}\/dev\/(?:tcp|udp)\/[^\s/]+\/(?:\d+|\$\{?\w+\}?|\{\{\s*\w+\s*\}\})`,
          String.raw`|\/dev\/(?:tcp|udp)\/[^\s/]+\/(?:\d+|\$\{?\w+\}?|\{\{\s*\w+\s*\}\})[^\n]{0,40}`,
          String.raw`(?:0>&1|<&\s*\d|>&\s*\d|\|\s*(?:${SHELL_BIN}))`,
        ].join(''),
      ),
      langs: ALL,
      view: 'noComments',
      message: 'wires a shell to a TCP connection (/dev/tcp)',
    }, byTarget),
    ...bySeverity({
      anchor: 'nc|ncat|netcat|nc.traditional|nc.openbsd',
      re: new RegExp(
        // eslint-disable-next-line style/max-len -- a pattern is clearer whole
        String.raw`\b(?:nc|ncat|netcat)(?:\.\w+)?\b[^\n|;]{0,80}?\s(?:-\w*[ec]\s*|--(?:exec|sh-exec)[=\s]+)["']?(?:${SHELL_BIN})`,
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'netcat runs a shell for the connection (nc -e)',
    }, byNetcatTarget),
    ...bySeverity({
      anchor: 'nc|ncat|netcat|telnet|openssl',
      re: new RegExp(
        [
          String.raw`\|\s*(?:${SHELL_BIN})[^\n|]{0,20}\|\s*(?:nc|ncat|netcat|telnet|openssl)\b`,
          // eslint-disable-next-line style/max-len -- a pattern is clearer whole
          String.raw`|\b(?:telnet|openssl\s+s_client)\b[^\n|]{0,80}\|\s*(?:${SHELL_BIN})[^\n|]{0,20}\|\s*(?:telnet|openssl)\b`,
        ].join(''),
        'i',
      ),
      langs: ALL,
      view: 'noComments',
      message: 'pipes a shell between two ends of a network connection',
    }, byTarget),
    ...bySeverity({
      anchor: '/inet/tcp/|/inet/udp/',
      re: /\/inet\/(?:tcp|udp)\/\d+\/[^\s/"']+\/\d+/,
      langs: ALL,
      view: 'raw',
      message: 'gawk talks to a network peer and runs what it sends (/inet/tcp)',
    }, byTarget),
    ...bySeverity({
      anchor: 'socat',
      re: /\bsocat\b[^\n]{0,160}?\b(?:exec|system):["']?[^\n]{0,30}?(?:\bsh\b|bash|cmd|powershell|pty)/i,
      langs: ALL,
      view: 'noComments',
      message: 'socat runs a shell for the connection',
    }, byTarget),
    ...bySeverity({
      anchor: 'dup2|fileno',
      re: /\bdup2\s*\(\s*[\w.]+\.fileno\s*\(\s*\)\s*,\s*[012]\s*\)|\bstd(?:in|out)\s*=\s*\w+\.fileno\s*\(\s*\)/,
      langs: ALL,
      view: 'noComments',
      message: 'redirects standard input/output to a socket (dup2)',
    }, byTarget),
    ...bySeverity({
      anchor: 'fsockopen|TCPSocket|use Socket',
      re: new RegExp(
        [
          String.raw`\bfsockopen\s*\([^\n]{0,120}\b(?:exec|system|shell_exec|passthru|proc_open|popen)\s*\(`,
          String.raw`|\bTCPSocket\.(?:open|new)\b[^\n]{0,160}\b(?:exec|spawn|system)\b`,
          String.raw`|\buse\s+Socket\b[^\n]{0,200}\bopen\s*\(\s*STD(?:IN|OUT)\s*,\s*["']>&`,
        ].join(''),
      ),
      langs: ALL,
      view: 'noComments',
      message: 'a script language socket handed to a shell',
    }, byTarget),
    {
      // PHP: a shell whose standard streams are a variable (a socket) rather than pipes the script reads.
      anchor: 'proc_open',
      re: new RegExp(
        String.raw`\bproc_open\s*\(\s*["'][^"'\n]*\b(?:ba|z|k|da)?sh\b[^"'\n]*["']\s*,\s*(?:array\s*\(|\[)\s*`
        + String.raw`0\s*=>\s*\$\w+\s*,\s*1\s*=>\s*\$\w+`,
      ),
      langs: ALL,
      view: 'noComments',
      message: 'a script language socket handed to a shell',
    },
    ...bySeverity({
      anchor: 'Sockets.TCPClient',
      // A client made (`TCPClient('h', 443)`, `-ArgumentList`, `]::new(`), not the class named in an alert.
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\bNet\.Sockets\.TCPClient\b\]?(?:\s*\(|\s+-ArgumentList\b|::new\s*\()[^\n]{0,400}\b(?:GetStream|iex|Invoke-Expression)\b/i,
      langs: ALL,
      view: 'noComments',
      message: 'PowerShell TCPClient loop runs what the connection sends',
    }, byTarget),
  ],
  visitSkill: skill => [...shellOverSocket(skill), ...commandLoop(skill)],
}

// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const SOCKET = /\bsocket\.(?:socket|create_connection)\s*\(|\bNet\.Sockets\.TCP(?:Client|Listener)\b|\bnet\.(?:connect|createConnection|createServer|Socket|Dial\w*|Listen)\b|\bnew\s+net\.Socket\b|\b(?:TCPSocket|TCPServer)\.(?:open|new)\b|\bIO::Socket::(?:INET6?|IP)->new\b|\bTcpStream::connect\b|\bnew\s+TcpClient\b|\bnew\s+Socket\s*\(|\bconnect\s*\(\s*\w+\s*,\s*(?:\(\s*(?:const\s+)?struct\s+sockaddr\s*\*\s*\)|&\w|\w+->ai_addr)/i
// C's `connect(fd, res->ai_addr, ...)` too. Whole code blocks are asked first: at literal-search speed.
const opensSocket = literalTest(SOCKET)
const HANDOFF = [
  /\bpty\.spawn\s*\(/,
  /\bdup2\s*\(/,
  /\bsubprocess\.\w+\s*\([^)]*\b(?:sh|bash|cmd(?:\.exe)?|powershell)\b[^)]*std(?:in|out)\s*=/,
  /\.std(?:out|err)\.pipe\s*\(|\.pipe\s*\(\s*\w+\.stdin\s*\)/,
  /\b(?:iex|Invoke-Expression)\b/i,
  // Go: the command's standard streams set to the connection; Ruby and Perl: a shell's fds redirected to it.
  /\.Std(?:in|out|err)\s*(?:,\s*\w+\.Std(?:in|out|err)\s*)*=(?!=)/,
  /["'`]\/bin\/(?:ba|z)?sh\b[^"'`\n]*<&\s*(?:%d|\d+|#\{)/,
  // Perl: the process's own standard streams duplicated from the socket (`open(STDIN, '<&', $c)`), then exec.
  /\bopen\s*\(\s*STD(?:IN|OUT)\s*,\s*["'][<>]&=?(?:["']\s*,\s*)?\$\w+/,
  // Rust: a child's stdio made from the socket's descriptor; .NET: a process's streams copied to and from it.
  /\bStdio::from_raw_fd\s*\(/,
  /\.Standard(?:Output|Error)\.BaseStream\.CopyTo(?:Async)?\s*\(|\.CopyTo(?:Async)?\s*\(\s*\w+\.StandardInput\b/,
  // .NET: what the connection sends written to the shell's input; Java and Kotlin: bytes pumped between the
  // shell's streams and the socket's.
  /\.StandardInput\.Write(?:Line)?(?:Async)?\s*\(/,
  /\b\w+\.write\s*\(\s*\w+\.read\s*\(\s*\)\s*\)/,
]
// A bind or reverse shell by lines: what the connection sends run as `sh -c LINE` (`Open3.capture2e("/bin/bash",
// "-c", line)`, `subprocess.run(["sh", "-c", data])`), where the chunk reads the connection (`gets`, `recv`).
const LINE_TO_SHELL = /["'`](?:\/bin\/)?(?:ba|z)?sh["'`]\s*,\s*["'`]-c["'`]\s*,\s*(?!["'`])\w+/
// Go: a command's Stdin and Stdout set to one value (`sh.Stdin, sh.Stdout = c, c`, or on two lines).
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const WIRED = /\.Stdin\s*,\s*\w+\.Stdout\b[^\n=]*=\s*(\w+)\s*,\s*\1\b|\.Stdin\s*=\s*(\w+)\b[^\n]*\n[^\n]*\.Stdout\s*=\s*\2\b/
const LISTENS = /\bTCPServer\.(?:open|new)\b|\bcreateServer\b|\bnet\.Listen\b|\bTCPListener\b|\.(?:bind|listen)\s*\(/
const LOOPBACK = /["'](?:127\.0\.0\.1|localhost|::1)["']/
const READS_CONNECTION = /\.(?:gets|recv\w*|readline|read_nonblock)\b|\bReadString\s*\(/
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const SPAWN_SHELL = /["'`](?:\/bin\/)?(?:ba|z)?sh["'`]|["'`]\/bin\/(?:ba|z)?sh\b|["'`]cmd(?:\.exe)?["'`]|["'`]powershell(?:\.exe)?["'`]|\bpty\.spawn\b|\b(?:iex|Invoke-Expression)\b/i

/**
 * The multi-line forms: a socket opened in one statement, and a shell handed the socket in another (Python
 * socket + dup2/pty.spawn, Node net + spawn('/bin/sh') + pipe, PowerShell TCPClient + GetStream + iex).
 */
function shellOverSocket(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  for (const chunk of codeChunks(skill)) {
    if (!opensSocket(chunk.text))
      continue
    // Longer lines are no statement anybody writes; the line patterns read them in bounded windows.
    const lines = chunk.lines.map(l => (l.length > 4000 ? '' : l))
    const sock = lines.findIndex(l => SOCKET.test(l))
    if (sock === -1)
      continue
    const text = lines.join('\n')
    // A local (AF_UNIX) socket reaches no other machine.
    const local = /AF_UNIX/.test(text) && !/AF_INET|\.connect\s*\(\s*\(/.test(text)
    // A command whose input and output are both the connection is remote-controlled whatever it runs (its name
    // may be built from bytes).
    if ((!SPAWN_SHELL.test(text) && !WIRED.test(text)) || local)
      continue
    const reads = READS_CONNECTION.test(text)
    const hand = lines.findIndex((l, i) => i >= sock && i < sock + 60
      && (HANDOFF.some(re => re.test(l)) || (reads && LINE_TO_SHELL.test(l))))
    if (hand === -1)
      continue
    const window = lines.slice(Math.max(0, sock - 10), hand + 1).join(' ')
    found.push({
      chunk,
      line: hand,
      column: lines[hand]!.length - lines[hand]!.trimStart().length,
      message: 'hands a shell to a network connection opened above (reverse shell)',
      excerpt: lines[hand]!,
      // A bind shell listens for whoever connects: an error unless it listens on this machine only.
      severity: LISTENS.test(window) && !LOOPBACK.test(window) ? 'error' : byTarget(/x/.exec('x')!, window),
    })
  }
  return toRaw('reverse_shell', found)
}

// A connection, however it is named: a socket API, Lua's `socket.tcp()`, or a shell descriptor opened both ways
// (`exec 5<>"$dev/$proto/$host/$port"`, where `/dev/tcp` is built from variables).
const CONNECTION = new RegExp(
  `${SOCKET.source}|\\bsocket\\.(?:tcp|connect)\\b|\\/dev\\/(?:tcp|udp)\\/|\\bexec\\s+\\d+<>`
  // R's socket connections, Julia's `connect(host, port)`.
  + `|\\bsocketConnection\\s*\\(|\\bmake\\.socket\\s*\\(|\\bSockets\\.connect\\s*\\(`
  // Godot's TCP peer.
  + `|\\bStreamPeerTCP\\b|\\.connect_to_host\\s*\\(`,
  'i',
)
const connects = literalTest(CONNECTION)
// A variable filled by a read of the connection: `cmd = s:receive("*l")`, `line = conn.recv(1024)`,
// `read -r line <&5`.
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const READ_INTO = /^\s*(?:local\s+|my\s+|var\s+|let\s+(?:mut\s+)?|[A-Z_a-z][\w<>[\]?]*\s+)?\$?(\w+)\s*(?::\s*\w+\s*)?=[^=\n][^\n]*?(?::receive\s*\(|\.recv\w*\s*\(|\.gets\b|\.read_?line\s*\(|\bReadString\s*\(|\.ReadLine(?:Async)?\s*\(|\.get_(?:utf8_)?string\s*\()|\bread\s+(?:-\w+\s+)*(\w+)\s*<&\s*\d|\b(\w+)\s*(?:<-|=)\s*(?:readLines|read\.socket|readline)\s*\(\s*\w+|\bfor\s+(\w+)\s+in\s+\w+\.lines\s*\(\s*\)|\b(?:while|until|if)\s*\(?\s*\$?(\w+)\s*=[^=\n][^\n]*?\.(?:gets|recv\w*|read_?line)\b/i
// An assignment whose value may carry what was read: `a = ...`, `a, b = ...`, `a += ...`.
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const DERIVES = /^\s*(?:local\s+|my\s+|var\s+|let\s+|const\s+)?\$?([A-Z_a-z]\w*(?:\s*,\s*[A-Z_a-z]\w*)*)\s*(?:\+|\.)?=(?!=)(.*)/
// What runs a command line.
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const RUNS_LINE = /\b(?:io\.popen|os\.execute|os\.system|os\.popen|subprocess\.\w+|shell_exec|popen|system|eval|(?:ba|z|k|da)?sh\s+-c)\b\s*\(?\s*(.*)|\b(?:OS\.execute|Process\.Start|ProcessStartInfo|exec\.Command|Command::new)\s*\(\s*["'](?:\/bin\/)?(?:(?:ba|z|k|da)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh)["'](.*)/

/**
 * A remote shell by lines in any language: a line read from a connection is run as a command (a command loop:
 * read, run, send the output back), where no shell is handed the socket itself.
 */
function commandLoop(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  for (const chunk of codeChunks(skill)) {
    if (!connects(chunk.text) || !RUNS_LINE.test(chunk.text))
      continue
    const read = new Set<string>()
    // Names filled from what was read (`buf += data`, `line, buf = buf.split(b"\n", 1)`, `cmd = line.decode()`):
    // they count only as the whole command a shell runs, not as one argument of a command the script names.
    const derived = new Set<string>()
    const mentions = (text: string, names: Set<string>): boolean =>
      [...names].some(v => new RegExp(String.raw`(?:^|[^\w$])\$?\{?${v}\b`).test(text))
    chunk.lines.forEach((line, i) => {
      if (line.length > 4000)
        return
      const into = READ_INTO.exec(line)
      if (into)
        read.add((into[1] ?? into[2] ?? into[3] ?? into[4] ?? into[5])!)
      const assign = into ? null : DERIVES.exec(line)
      if (assign && mentions(assign[2]!, new Set([...read, ...derived]))) {
        for (const name of assign[1]!.split(','))
          derived.add(name.trim())
      }
      const run = read.size ? RUNS_LINE.exec(line) : null
      const args = run ? (run[1] ?? run[2])! : ''
      // The peer names the program (`order`, `order.split()`, `shlex.split(order)`), not one argument of a fixed
      // one.
      const whole = [...derived].some(v =>
        new RegExp(String.raw`^\s*(?:shlex\.split\s*\(\s*)?${v}\b(?:\s*\.split\s*\(|(?!\s*[.[(]))`).test(args))
      if (!run || (!mentions(args, read) && !whole))
        return
      found.push({
        chunk,
        line: i,
        column: line.length - line.trimStart().length,
        message: 'runs command lines read from a network connection (a remote shell)',
        excerpt: line,
        // A loop on this machine only (a test harness on 127.0.0.1) is left to review.
        severity: LOOPBACK.test(chunk.text) && (chunk.text.match(/\b(?:\d{1,3}\.){3}\d{1,3}\b/g) ?? [])
          .every(ip => ip.startsWith('127.'))
          ? 'warning'
          : 'error',
      })
    })
  }
  return toRaw('reverse_shell', found)
}
