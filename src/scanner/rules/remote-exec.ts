import type { RuleModule } from '../types'

const SHELL = [
  String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+[^|\n]{0,60}?\s)?(?:ba|z|k|da|fi|c|tc|a)?sh\b`,
  String.raw`|(?:sudo\s+)?(?:python[\d.]*|node|perl|ruby|php)\b(?!\s+-m\s+json)`,
].join('')
const PASTE = [
  String.raw`(?:pastebin\.com|paste\.ee|hastebin\.com|ghostbin\.\w+|rentry\.(?:co|org)|dpaste\.(?:com|org)`,
  String.raw`|termbin\.com|0x0\.st|transfer\.sh|ix\.io|sprunge\.us|paste\.rs|privatebin\.\w+|justpaste\.it`,
  String.raw`|controlc\.com|pastes\.io|bpa\.st|pastebin\.\w+)`,
].join('')
const RUNNABLE = [
  String.raw`(?:\.(?:exe|msi|dmg|pkg|deb|rpm|appimage|bin|run|sh|bat|cmd|ps1|scr|jar|zip|tar\.gz|tgz|tar\.xz|7z`,
  String.raw`|rar)\b|\b(?:binary|binaries|installer|executable|archive|\.exe)\b)`,
].join('')

const RUNNABLE_RE = new RegExp(RUNNABLE, 'i')
const PASTE_VERB = /\b(?:paste|run|execute|copy|type|enter|curl|wget|iex|iwr|sh|bash|powershell)\b/i

/** Code fetched from the network and run unverified (curl | sh and its relatives), and instructions to do so. */
export const remoteExec: RuleModule = {
  meta: {
    id: 'remote_exec',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-494',
    description:
      'Remote code execution: piping downloads into a shell (curl | sh, iex (iwr ...)), or telling the user or '
      + 'agent to download and run a binary/archive or paste a command from a paste site.',
    hint:
      'Pin and verify what you install (package manager with a lockfile, checksum, signature); never pipe the '
      + 'network into an interpreter.',
  },
  patterns: [
    {
      anchor: 'curl|wget|iwr|irm|fetch',
      re: new RegExp(
        String.raw`\b(?:curl|wget|iwr|irm|fetch)\b[^|\n;]{0,300}\|\s*(?:${SHELL}|iex\b|Invoke-Expression\b)`,
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'pipes a download into an interpreter',
    },
    {
      anchor: 'curl|wget',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:(?:ba|z|k)?sh|python[\d.]*|node|perl|ruby)\s+(?:-c\s+)?["']?(?:<\(|\$\(|`)\s*(?:curl|wget)\b|\b(?:eval|source|\.)\s+["']?(?:<\(|\$\(|`)\s*(?:curl|wget)\b/i,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs the output of a download',
    },
    {
      anchor: 'iex|Invoke-Expression|DownloadString|WebClient',
      re: new RegExp(
        [
          String.raw`\b(?:iex|Invoke-Expression)\b\s*\(?\s*\(?\s*(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod`,
          String.raw`|New-Object\s+(?:System\.)?Net\.WebClient|\(?\s*New-Object)\b`,
          String.raw`|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|]{0,300}\|\s*(?:iex|Invoke-Expression)\b`,
          String.raw`|\.DownloadString\s*\([^\n]{0,200}\)\s*\|?\s*(?:iex|Invoke-Expression)?`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'js', 'py'],
      view: 'noComments',
      message: 'PowerShell runs downloaded code',
    },
    {
      anchor: 'curl|wget|iwr|Invoke-WebRequest',
      re: new RegExp(
        [
          String.raw`\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n]{0,200}?`,
          String.raw`(?:\s-o\s*|\s-O\s+|--output(?:-document)?[=\s]+|-OutFile\s+|>\s*)\S+[^\n]{0,200}?`,
          String.raw`(?:&&|;|\|\|)\s*(?:sudo\s+)?`,
          String.raw`(?:chmod\s+(?:[ugoa]*\+x|[0-7]*[1357][0-7]{0,2})\b`,
          String.raw`|\.\/|\.\\|(?:ba|z)?sh\s|python[\d.]*\s|tar\s+-?\w*x`,
          String.raw`|unzip\s|msiexec|Start-Process|\S+\.(?:sh|exe|bin|run|AppImage|msi)\b)`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'downloads a file and runs it',
    },
    {
      anchor: 'exec|eval',
      re: /\b(?:exec|eval)\s*\([^\n]{0,40}?\b(?:requests\s*\.\s*get|urlopen|urllib\.request|httpx\s*\.\s*get)\b/,
      langs: ['py'],
      view: 'code',
      message: 'executes code downloaded at run time',
    },
    {
      anchor: 'download|fetch|grab',
      re: new RegExp(
        [
          String.raw`\b(?:download|fetch|grab)\b(?:[^.\n]|\.(?=\S)){0,160}?(?:\band\b|\bthen\b|,)\s*(?:then\s+)?`,
          String.raw`(?:run|execute|launch|install|double-click|start)\b`,
        ].join(''),
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'tells the reader to download and run a binary or archive',
      lineGate: RUNNABLE_RE,
    },
    // Anchored on the URL's preposition, which every match has: the four nouns are common words in docs
    // (105 hits against 19 in 695 READMEs of node_modules), each a hit to gate.
    {
      anchor: String.raw`\b(?:from|at)\s+<?https?:\/\/`,
      re: new RegExp(
        [
          String.raw`\b(?:run|execute|launch|open|install)\b[^.\n]{0,60}?\b(?:the\s+)?`,
          String.raw`(?:binary|installer|executable|archive)\b[^.\n]{0,40}?\b`,
          String.raw`(?:from|at|downloaded\s+from)\s+<?https?:\/\/`,
        ].join(''),
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'tells the reader to run a binary from a URL',
    },
    {
      anchor:
        'pastebin|paste|hastebin|ghostbin|rentry|dpaste|termbin|0x0|transfer.sh|ix.io|sprunge|privatebin'
        + '|controlc|bpa.st',
      re: new RegExp(String.raw`\b${PASTE}`, 'i'),
      langs: ['prose', 'text', 'sh', 'py', 'js'],
      view: 'noComments',
      message: 'runs or pastes a command from a paste site',
      lineGate: PASTE_VERB,
    },
    {
      anchor: String.raw`Win(?:dows)?(?:\s*key)?\s*\+\s*R|Run\s+dialog`,
      re: new RegExp(
        [
          String.raw`\b(?:Win(?:dows)?(?:\s*key)?\s*\+\s*R|Run\s+dialog)\b[^\n]{0,200}?`,
          String.raw`\b(?:paste|Ctrl\s*\+\s*V|type)\b`,
          String.raw`|\b(?:paste|Ctrl\s*\+\s*V)\b[^\n]{0,200}?\b(?:Win(?:dows)?(?:\s*key)?\s*\+\s*R|Run\s+dialog)\b`,
        ].join(''),
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'tells the user to paste a command into the Run dialog (ClickFix)',
    },
  ],
}
