import type { RuleModule } from '../types'

const PLACEHOLDER = [
  String.raw`(?:\{\{?\s*[\w.$ -]{1,40}\}\}?|\$\{[^}\n]{1,60}\}|\$\([^)\n]{1,60}\)|%7B%7B|%7B[\w-]{1,40}%7D`,
  String.raw`|<[A-Za-z_][\w -]{1,40}>|\[[A-Z][A-Z_ ]{2,40}\])`,
].join('')
const DATA = [
  String.raw`(?:conversation|chat|history|messages?|prompts?|context|secrets?|tokens?|api[_-]?keys?|keys?|passwords?`,
  String.raw`|credentials?|env\w*|summary|memory|user[_-]?(?:data|message|info)|data|answer|response|cookies?|session`,
  String.raw`|ssh|emails?|files?|contents?)`,
].join('')
const SENSITIVE_FILE = [
  String.raw`(?:~\/\.ssh|\.ssh\/|id_rsa|id_ed25519|id_ecdsa|\.aws\/|aws\/credentials|\.env\b|\/etc\/passwd`,
  String.raw`|\/etc\/shadow|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.kube\/config|\.docker\/config\.json|\.gnupg`,
  String.raw`|Login\s+Data|Cookies\.binarycookies)`,
].join('')
const SECRET_VAR
  = String.raw`(?:\$\(\s*(?:env|printenv|set)\s*\)|\$\{?[A-Z_]*(?:TOKEN|KEY|SECRET|PASSWORD|PASS|CREDENTIALS)\}?)`

/** Data leaving through URLs the agent renders or requests: templated images/links, uploads of keys and env. */
export const exfiltration: RuleModule = {
  meta: {
    id: 'exfiltration',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-200',
    description:
      'Exfiltration: markdown images or links that template conversation data into URLs, or code that sends files, '
      + 'keys or environment variables to a remote host.',
    hint: 'Never put conversation data, secrets or environment variables into URLs or uploads; images must be static.',
  },
  patterns: [
    {
      anchor: '!\\[',
      re: new RegExp(String.raw`!\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?\/\/[^)\s]{0,400}?${PLACEHOLDER}`, 'i'),
      langs: ['prose', 'text'],
      message: 'markdown image URL templates data (images load without a click)',
    },
    {
      anchor: ']:',
      re: new RegExp(String.raw`^\s{0,3}\[[^\]\n]{1,100}\]:\s*<?(?:https?:)?\/\/[^\s>]{0,400}?${PLACEHOLDER}`, 'i'),
      langs: ['prose', 'text'],
      message: 'reference-style link/image definition templates data',
    },
    {
      anchor: String.raw`\]\(\s*<?(?:https?:)?\/\/[^)\s]{0,400}[{<\[$%]`,
      re: new RegExp(
        [
          String.raw`\[[^\]\n]{0,200}\]\(\s*<?(?:https?:)?\/\/[^)\s]{0,400}?[?&#=/][^)\s]{0,200}?`,
          String.raw`(?:\{\{?\s*${DATA}\w*\s*\}\}?|\$\{\s*${DATA}\w*[^}\n]{0,40}\}|<${DATA}\w*>|\[${DATA}\w*\])`,
        ].join(''),
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'link URL templates conversation data',
    },
    {
      anchor: [
        String.raw`conversation|chat\s+history|messages|system\s+prompt|credentials|secrets|password`,
        String.raw`|env(?:ironment)?\s+variables|\.env|ssh|private\s+key|id_rsa|id_ed25519|id_ecdsa|\.aws|passwd`,
        String.raw`|shadow|netrc|npmrc|pypirc|git-credentials|kube|docker|gnupg|Login\s+Data|cookies|session\s+token`,
      ].join(''),
      re: new RegExp(
        [
          String.raw`\b(?:send|post|upload|transmit|forward|exfiltrate|leak|copy|smuggle|append|encode)\b`,
          String.raw`(?:[^.\n]|\.(?=\S)){0,80}?`,
          String.raw`\b(?:conversation|chat\s+history|(?:previous|all|user['’]?s?)\s+messages|system\s+prompt`,
          String.raw`|credentials|secrets|passwords?|env(?:ironment)?\s+variables|\.env\b|ssh\s+keys?|private\s+keys?`,
          String.raw`|${SENSITIVE_FILE}|cookies|session\s+tokens?)\b`,
          String.raw`[^.\n]{0,80}?\b(?:to|into|in|as)\b[^.\n]{0,60}?`,
          String.raw`(?:https?:\/\/|\burl\b|webhook|endpoint|server|\blink\b|image|query\s+(?:string|param)`,
          String.raw`|remote|domain)`,
        ].join(''),
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'instructs the agent to send secrets or conversation data to a remote place',
    },
    {
      anchor: 'curl|wget',
      re: new RegExp(
        [
          String.raw`\b(?:curl|wget)\b[^\n]{0,200}?`,
          String.raw`(?:\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-file|--body-file)`,
          String.raw`(?:=|\s+)['"]?[^\s'"]{0,40}?(?:@|=@)?[^\n]{0,120}?`,
          String.raw`(?:${SENSITIVE_FILE}|${SECRET_VAR}))`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'uploads a sensitive file or secret',
    },
    {
      anchor: String.raw`\|\s*(?:base64\s*\|\s*)?(?:curl|wget|nc|ncat|netcat|socat|openssl)`,
      re: new RegExp(
        [
          String.raw`(?:^|[\s;&|(\`$])(?:env|printenv|set`,
          String.raw`|(?:cat|tar\s+\S*c\S*|zip\s+-r\S*)\s+[^\n|]{0,120}?${SENSITIVE_FILE}[^\n|]{0,60}?)\s*\|\s*`,
          String.raw`(?:base64\s*\|\s*)?(?:curl|wget|nc|ncat|netcat|socat|openssl\s+s_client)\b`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'pipes secrets or the environment to the network',
    },
    {
      anchor: 'nc|ncat|netcat|dev/tcp',
      re: new RegExp(
        String.raw`\b(?:nc|ncat|netcat|socat)\b[^\n]{0,120}?<\s*[^\n]{0,40}?${SENSITIVE_FILE}|>\s*\/dev\/tcp\/`,
        'i',
      ),
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'sends data over a raw socket',
    },
    {
      anchor:
        String.raw`(?:requests|httpx|session|client|urllib\.request)\s*\.\s*(?:post|put|patch|get|request|urlopen)`,
      re: new RegExp(
        [
          String.raw`\b(?:requests|httpx|session|client|urllib\.request)\s*\.\s*(?:post|put|patch|get|request|urlopen)`,
          String.raw`\s*\([^\n]{0,200}?(?:os\.environ\b(?!\s*(?:\[|\.get))|dict\s*\(\s*os\.environ|${SENSITIVE_FILE})`,
        ].join(''),
        'i',
      ),
      langs: ['py'],
      view: 'noComments',
      message: 'sends the environment or a sensitive file over the network',
    },
  ],
}
