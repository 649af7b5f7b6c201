import type { AstContext, AstRule } from '../js/ast-rule'
import type { Node } from '../js/walk'
import type { RuleModule } from '../types'
import { NETWORK_CALL_TRIGGERS, networkCall } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'
import { loadedModule, MODULE_LOAD_TRIGGERS } from '../js/modules'
import { NETWORK_MODULES } from '../js/values'

// The command named, not run: a manual page, a lookup, a package being installed.
const NOT_A_CALL = new RegExp(
  String.raw`(?:(?:\b(?:man|which|whereis|type|apropos|tldr|info|help)|\s-v)\s+$`
  + String.raw`|\b(?:apt(?:-get)?|brew|dnf|yum|apk|pacman|port|choco|winget|scoop|zypper|snap)\s+`
  + String.raw`(?:install|add|-S\w*|search|info)\b[^|;&]*$)`,
)

const LOADS = {
  import: (name: string) => `imports the network module ${name}`,
  dynamic: (name: string) => `dynamically imports the network module ${name}`,
  require: (name: string) => `requires the network module ${name}`,
}

/** Reports an import or `require` of a network module. */
function checkLoad(context: AstContext, node: Node): void {
  const mod = loadedModule(context, node)
  if (mod && NETWORK_MODULES.has(mod.name))
    context.report(node, LOADS[mod.kind](mod.name))
}

const ast: AstRule = {
  triggers: [...NETWORK_CALL_TRIGGERS, ...MODULE_LOAD_TRIGGERS, ...HIDDEN_NAME_TRIGGERS],
  create: (context) => {
    const call = (node: Node): void => {
      const fn = context.evaluate(node.callee)
      if (fn?.k === 'gv' && fn.name === 'require') {
        checkLoad(context, node)
        return
      }
      const request = networkCall(node, fn)
      if (request)
        context.report(node, request.server ? 'starts a network server' : 'makes a network request')
    }
    return {
      ImportDeclaration: node => checkLoad(context, node),
      ImportExpression: node => checkLoad(context, node),
      CallExpression: call,
      NewExpression: call,
    }
  },
}

/**
 * Outbound network access from code. Prose is never read for this rule ("git fetch" in a sentence is not a request).
 */
export const networkAccess: RuleModule = {
  meta: {
    id: 'network_access',
    kind: 'capability',
    capability: 'network',
    severity: 'error',
    cwe: 'CWE-918',
    description:
      'Outbound network access (fetch, http/https/net, requests, curl/wget) can leak data or pull unreviewed content.',
    hint: 'Declare `capabilities: [network]` (or `allowed-tools: WebFetch`) if the skill needs the network.',
  },
  patterns: [
    {
      // `socket` alone is also local IPC (AF_UNIX): its calls are read below; `urllib.parse` and `.error`
      // only handle URLs.
      anchor: 'requests|urllib|httpx|aiohttp|ftplib|smtplib|paramiko|websocket|http\\.client|pycurl',
      re: new RegExp(
        [
          String.raw`\b(?:import\s+(?:requests|urllib3?(?!\.(?:parse|error)\b)|httpx|aiohttp|ftplib|smtplib|paramiko`,
          String.raw`|websockets?|http\.client|pycurl)\b`,
          String.raw`|from\s+(?:requests|urllib\.request|urllib3|httpx|aiohttp|ftplib|smtplib|paramiko`,
          String.raw`|websockets?|http\.client)\s+import\b`,
          String.raw`|from\s+urllib\s+import\s+[^\n]*\brequest\b)`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'code',
      message: 'imports a network client',
    },
    {
      anchor: 'requests|httpx|urlopen|socket|aiohttp',
      re: new RegExp(
        [
          String.raw`\b(?:(?:requests|httpx)\s*\.\s*`,
          String.raw`(?:get|post|put|patch|delete|head|request|Session|Client|AsyncClient)\b`,
          String.raw`|urlopen\s*\(|socket\s*\.\s*(?:socket|create_connection)\s*\(|aiohttp\s*\.\s*ClientSession\b`,
          String.raw`|\bsocket\s*\(\s*(?:socket\s*\.\s*)?AF_INET)`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'code',
      message: 'network request',
      // A Unix domain socket talks to a local process, not the network.
      accept: (m, line, next) => !/\bAF_UNIX\b/.test(`${line.slice(m.index, m.index + m[0].length + 60)} ${next()}`),
    },
    {
      anchor: 'curl|wget|nc|ncat|netcat|socat|telnet|scp|sftp|ssh|rsync|ftp',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /(?:^|[\s;&|(`$])(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|sftp|ssh|ftp)\s+[^\s#]|(?:^|[\s;&|(`$])rsync\s+[^\n]*\S+:/,
      langs: ['sh'],
      view: 'code',
      message: 'shell network command',
      accept: (m, line) =>
        !NOT_A_CALL.test(line.slice(0, m.index + 1))
        && !/^\S+\s+--?(?:version|help|V)\b/.test(line.slice(m.index + 1).trimStart()),
    },
    {
      anchor: 'Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|BitsTransfer',
      re: /\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm|Net\.WebClient|Start-BitsTransfer)\b/i,
      langs: ['sh'],
      view: 'code',
      message: 'PowerShell network command',
    },
    {
      anchor: 'fetch',
      re: /(?<![.\w$])fetch\s*\(/,
      langs: ['js'],
      view: 'code',
      message: 'fetch() makes a network request',
      astCovered: true,
    },
    {
      anchor: 'http|net|dgram|tls|undici|axios|got|ws',
      re: new RegExp(
        [
          String.raw`\b(?:require\s*\(\s*|from\s+|import\s*\(\s*)['"](?:node:)?(?:https?|http2|net|dgram|tls|undici`,
          String.raw`|axios|got|node-fetch|ws)['"]`,
        ].join(''),
      ),
      langs: ['js'],
      view: 'noComments',
      message: 'imports a network module',
      astCovered: true,
    },
    {
      anchor: 'WebSocket|XMLHttpRequest|EventSource|sendBeacon',
      re: /\b(?:new\s+(?:WebSocket|XMLHttpRequest|EventSource)\b|sendBeacon\s*\()/,
      langs: ['js'],
      view: 'code',
      message: 'browser network API',
      astCovered: true,
    },
    {
      anchor: 'Net::|net/|open-uri|socket|URI|HTTParty|Faraday|RestClient|TCPSocket|UDPSocket',
      re: new RegExp(
        [
          String.raw`\bNet::(?:HTTP|FTP|SMTP|Telnet)\b`,
          String.raw`|\brequire\s*\(?\s*['"](?:open-uri|net\/\w+|socket|httparty|faraday|rest-client)['"]`,
          String.raw`|\bURI\s*\.\s*open\s*\(|\b(?:HTTParty|Faraday|RestClient)\s*(?:\.|::)\s*\w+`,
          String.raw`|\b(?:TCPSocket|UDPSocket)\s*\.\s*(?:new|open)\b`,
        ].join(''),
      ),
      langs: ['rb'],
      view: 'noComments',
      message: 'Ruby network access (Net::HTTP, open-uri, sockets, HTTP clients)',
    },
    {
      anchor: 'net/http|http|net',
      re: new RegExp(
        [
          // The imports, on an import line or alone on a line of an import block.
          String.raw`^\s*(?:import\s+)?(?:[\w.]+\s+)?"net(?:\/http)?"\s*$`,
          String.raw`|\bhttp\s*\.\s*(?:Get|Post|PostForm|Head|NewRequest(?:WithContext)?|DefaultClient)\b`,
          String.raw`|\bnet\s*\.\s*(?:Dial(?:Timeout|TCP|UDP)?|Listen(?:TCP|UDP)?)\s*\(`,
        ].join(''),
      ),
      langs: ['go'],
      view: 'noComments',
      message: 'Go network access (net/http, net)',
    },
    {
      anchor: 'ListenAndServe|Serve',
      re: /\bhttp\s*\.\s*(?:ListenAndServe(?:TLS)?|Serve)\s*\(/,
      langs: ['go'],
      view: 'code',
      message: 'starts a network server',
    },
  ],
  ast,
}
