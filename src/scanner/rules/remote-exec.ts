import type { Severity, SkillSource } from '../../core/types'
import type { AstRule } from '../js/ast-rule'
import type { Node } from '../js/walk'
import type { LinePattern, RawFinding, RuleModule } from '../types'
import { EVAL_CALL_TRIGGERS, isEvalCallee, isNetworkCall } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'
import { bySeverity } from './code-blocks'
import { prepareWrapped, wrappedProse } from './code-units'
import { downloadRisk, hostOf, urlsIn } from './hosts'
import { downloadThenRun } from './remote-exec-flow'

// A shell or an interpreter, by name or by path (`| /bin/bash`, `| /usr/bin/env python3`).
const BIN = String.raw`(?:\/(?:usr\/)?(?:local\/)?bin\/)?`
// Inline code that runs what it is given (`exec(sys.stdin.read())`).
const RUNS_INPUT = String.raw`\b(?:exec|eval|compile|system|popen|spawn|Function|require)\b`
const SHELL = [
  String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:chroot\s+\S+\s+)?(?:${BIN}env\s+[^|\n]{0,60}?\s)?`
  + String.raw`${BIN}(?:ba|z|k|da|fi|c|tc|a)?sh\b`,
  // An interpreter given its own code on the command line (`| python3 -c "import json; ..."`) reads the download
  // as data, unless that code runs what it reads.
  String.raw`|(?:sudo\s+)?${BIN}(?:python[\d.]*|node|perl|ruby|php)\b(?!\s+-m\s+json`
  + String.raw`|\s+-(?:c|e|ne|pe|E|r)\s+(?:"(?![^"\n]*${RUNS_INPUT})[^"\n]*"|'(?![^'\n]*${RUNS_INPUT})[^'\n]*'))`,
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

/**
 * A loop that runs each line it reads as a command (`while read -r c; do eval "$c"; done`, `xargs -I{} sh -c {}`):
 * an interpreter fed line by line.
 */
const LINE_RUNNER = String.raw`while\s+(?:IFS=\S*\s+)?read\b[^;\n]{0,40};\s*do\s+(?:eval\b|(?:ba|z)?sh\s+-c\b`
  + String.raw`|["']?\$\{?\w+\}?["']?\s*(?:;|$))|xargs\b[^|\n;]{0,40}\b(?:(?:ba|z)?sh\s+-c|eval)\b`
/** Commands a download may pass through on its way to the shell (`curl ... | tee x | sh`). */
const FILTER = String.raw`(?:tee|cat|sed|tr|head|tail|gunzip|zcat|gzip\s+-d|base64\s+(?:-d|--decode)|dos2unix|rev)\b`
const RUNNABLE_RE = new RegExp(RUNNABLE, 'i')
/** What makes an inline mshta script fetch code: a URL, a UNC path, a scriptlet moniker (`GetObject("script:")`). */
const INLINE_REMOTE = String.raw`(?:https?:|\\\\|GetObject|script:|\.Open\b)`

/**
 * Severity by where the code comes from: a vendor's documented installer or a documentation host is a warning
 * (it still runs unverified code); anything else, and staging hosts, plain http and raw addresses above all,
 * is an error.
 */
function byHost(m: RegExpExecArray, line: string): Severity {
  // `curl | sh` with nothing to fetch is the idiom named (a checklist's "no `curl | sh`"), not a command.
  // So is `curl ... | sh` or `curl <url> | bash`: an ellipsis or a placeholder where the address goes.
  if (/^\S+\s*\|/.test(m[0]) || /^\S+\s+(?:\.{3}|…|<[\w -]+>|\[[\w -]+\])\s*\|/.test(m[0]))
    return 'warning'
  const risk = downloadRisk(line.slice(m.index, m.index + m[0].length + 300))
  return risk === 'official' || risk === 'doc' ? 'warning' : 'error'
}
const PASTE_VERB = /\b(?:paste|run|execute|copy|type|enter|curl|wget|iex|iwr|sh|bash|powershell)\b/i

// "Download it, read it, verify its checksum, then run it" is the safe way to install, not a threat.
const SAFE_INSTALL
  = /\b(?:verif(?:y|ies|ied)|checksums?|sha-?256|signature|inspect|review|read\s+(?:it|the\s+script))\b/i

// Words of a skill's name that say what kind of skill it is, not which product it is about.
const GENERIC_NAME = new Set(('cli setup skill skills tool tools install installer helper dev kit agent agents server '
  + 'client app sdk api the and for with get use using deploy deployment docs guide manager').split(' '))
/** Link shorteners only their vendor publishes to: the path, not the host, names the product. */
const VENDOR_SHORTLINK = /^(?:aka\.ms)$/i

/**
 * A product's own installer, named so, in a skill about that product: `curl https://aspire.dev/install.sh | bash` in the
 * skill "aspire", `https://aka.ms/InstallAzureCLIDeb` in "azure-devops-cli". Every URL of the command is https
 * and belongs to the product: the host's registered name is a word of the skill's name (the whole label, so
 * `aspire-tools.dev` is not aspire's), or the vendor's shortlink names it in its path. It still runs unverified code
 * (a warning); an unknown host in a skill that is not about it stays an error.
 */
function ownInstaller(f: RawFinding, skill: SkillSource): boolean {
  if (!/pipes a download|PowerShell runs downloaded|runs the output of a download/.test(f.message))
    return false
  const text = skill.files.find(x => x.path === f.path)?.text?.split('\n')[f.line - 1]
  if (!text)
    return false
  const command = text.slice(Math.max(0, f.column - 1), f.column + 400)
  const risk = downloadRisk(command)
  const urls = urlsIn(command)
  if (risk !== 'unknown' || !urls.length)
    return false
  const named = `${skill.name}-${skill.dirName}`.toLowerCase().split(/[^a-z\d]+/)
  const words = named.filter(w => w.length >= 4 && !GENERIC_NAME.has(w))
  return urls.every((url) => {
    const host = hostOf(url)
    const path = url.slice(url.indexOf(host) + host.length).toLowerCase()
    // An installer says so in its name (`/install.sh`, `/InstallAzureCLIDeb`); `https://aliases.sh/k` does not.
    if (!/^https:/i.test(url) || !/^\/(?:[\w.-]+\/)*[\w.-]*(?:install|setup)/.test(path))
      return false
    if (VENDOR_SHORTLINK.test(host))
      return words.some(w => path.includes(w))
    // The registered name, not a subdomain anybody can make: `aspire.evil.example` is not aspire's.
    return words.includes(host.split('.').at(-2) ?? '')
  })
}

/** JS: eval and its kin given what a network call returns (`eval(await (await fetch(u)).text())`). */
const ast: AstRule = {
  triggers: [...EVAL_CALL_TRIGGERS, ...HIDDEN_NAME_TRIGGERS],
  create: (context) => {
    const fromNetwork = (n: Node): boolean => isNetworkCall(n, context.evaluate)
    const call = (node: Node): void => {
      const args: Node[] = node.arguments ?? []
      if (isEvalCallee(context.evaluate(node.callee)) && args.some(a => context.subtreeHas(a, fromNetwork)))
        context.report(node, 'evaluates code downloaded at run time')
    }
    return { CallExpression: call, NewExpression: call }
  },
}

/**
 * "download and run `rustup-init.exe` from https://rustup.rs": the vendor's installer, as `curl | sh` is. `gap` is
 * what may lie between the two verbs: a line's sentence, or, read over wrapped lines, an order that also ends at a
 * colon ("Download X using the following command:" leads a block, and "Then run the installer:" is another step).
 */
function downloadAndRun(gap: string): LinePattern[] {
  return bySeverity({
    anchor: 'download|fetch|grab',
    re: new RegExp(
      [
        String.raw`\b(?:download|fetch|grab)\b${gap}{0,160}?(?:\band\b|\bthen\b|,)\s*(?:then\s+)?`,
        String.raw`(?:run|execute|launch|install|double-click|start)\b`,
      ].join(''),
      'i',
    ),
    langs: ['prose', 'text'],
    message: 'tells the reader to download and run a binary or archive',
    lineGate: RUNNABLE_RE,
  }, (m, line) => {
    // The distribution's package manager is the verified way to install, not a download to run.
    if (SAFE_INSTALL.test(m[0])
      || /^[^.]{0,60}?\b(?:package\s+manager|apt(?:-get)?|dnf|yum|brew|winget|choco(?:latey)?)\b/i
        .test(line.slice(m.index + m[0].length))) {
      return null
    }
    return downloadRisk(line.slice(m.index, m.index + m[0].length + 300)) === 'official' ? 'warning' : 'error'
  })
}
const DOWNLOAD_AND_RUN = downloadAndRun(String.raw`(?:[^.\n]|\.(?=\S))`)
const DOWNLOAD_AND_RUN_WRAPPED = downloadAndRun(String.raw`(?:[^.:\n]|[.:](?=\S))`)
prepareWrapped(DOWNLOAD_AND_RUN_WRAPPED)

/** Code fetched from the network and run unverified (curl | sh and its relatives), and instructions to do so. */
export const remoteExec: RuleModule = {
  meta: {
    id: 'remote_exec',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-494',
    description:
      'Remote code execution: piping downloads into a shell (curl | sh, iex (iwr ...)), downloading a file and '
      + 'running it in later statements, unpacking password-protected archives, or telling the user or agent to '
      + 'download and run a binary/archive or paste a command from a paste site. A vendor\'s documented '
      + 'installer (rustup, uv, Homebrew, ...) is a warning; plain http, raw addresses, paste and tunnel hosts '
      + 'and unknown hosts are errors.',
    hint:
      'Pin and verify what you install (package manager with a lockfile, checksum, signature); never pipe the '
      + 'network into an interpreter.',
  },
  patterns: [
    ...bySeverity({
      anchor: 'curl|wget|iwr|irm|fetch',
      re: new RegExp(
        String.raw`\b(?:curl|wget|iwr|irm|fetch)\b[^|\n;]{0,300}(?:\|\s*${FILTER}[^|\n;]{0,80})*`
        + String.raw`\|\s*(?:${SHELL}|iex\b|Invoke-Expression\b|${LINE_RUNNER})`,
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'pipes a download into an interpreter',
    }, byHost),
    // `.` is the shell's source command only in command position: not "1. `curl ...`" in a numbered list.
    ...bySeverity({
      anchor: 'curl|wget',
      re: new RegExp(
        [
          String.raw`\b(?:(?:ba|z|k)?sh|python[\d.]*|node|perl|ruby|php)\s+(?:-c\s+|-e\s+|-r\s+)?["']?(?:<\(|\$\(|\``,
          // eslint-disable-next-line style/max-len -- a pattern is clearer whole
          String.raw`)\s*(?:curl|wget)\b|(?:\beval|\bsource|(?<![^\s;&|({])\.)\s+["']?(?:<\(|\$\(|\`)\s*(?:curl|wget)\b`,
          String.raw`|<<<\s*["']?\$\(\s*(?:curl|wget)\b`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs the output of a download',
    }, byHost),
    ...bySeverity({
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
    }, byHost),
    ...bySeverity({
      anchor: 'curl|wget|iwr|Invoke-WebRequest',
      re: new RegExp(
        [
          String.raw`\b(?:curl|wget|iwr|Invoke-WebRequest)\b[^\n]{0,200}?`,
          String.raw`(?:\s-o\s*|\s-O\s+|--output(?:-document)?[=\s]+|-OutFile\s+|>\s*)\S+[^\n]{0,200}?`,
          String.raw`(?:&&|;|\|\|)\s*(?:sudo\s+)?`,
          String.raw`(?:chmod\s+(?:[ugoa]*\+x|[0-7]*[1357][0-7]{0,2})\b`,
          String.raw`|\.\/|\.\\|(?:ba|z)?sh\s|python[\d.]*\s|tar\s+-?\w*x`,
          String.raw`|unzip\s|msiexec|Start-Process|&\s*["']?\$?[\w:\\/.-]+`,
          String.raw`|\S+\.(?:sh|exe|bin|run|AppImage|msi|ps1)\b)`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'downloads a file and runs it',
    }, byHost),
    {
      anchor: 'certutil|bitsadmin|mshta|regsvr32|rundll32|Start-BitsTransfer',
      re: new RegExp(
        [
          String.raw`\bcertutil(?:\.exe)?\s[^\n]{0,80}-urlcache\b|\bbitsadmin(?:\.exe)?\s[^\n]{0,40}\/transfer\b`,
          String.raw`|\bmshta(?:\.exe)?\s+["']?(?:https?:|(?:javascript|vbscript):[^\n]{0,300}?${INLINE_REMOTE})`,
          String.raw`|\bregsvr32(?:\.exe)?\s[^\n]{0,60}\/i:\s*https?:`,
          String.raw`|\brundll32(?:\.exe)?\s[^\n]{0,60}javascript:|\bStart-BitsTransfer\b[^\n]{0,200}https?:\/\/`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'downloads or runs remote code through a Windows system binary',
    },
    {
      anchor: 'mshta',
      re: /\bmshta(?:\.exe)?\s+["']?(?:javascript|vbscript):/i,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs an inline script through mshta (a Windows system binary attackers use)',
      severity: 'warning',
    },
    ...bySeverity({
      anchor: 'deno run|bun run|bun x',
      re: /\b(?:deno\s+run|bun\s+(?:run|x))\s+(?:-\S+\s+)*["']?https?:\/\/\S+/i,
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'runs a script straight from a URL',
    }, byHost),
    // A password keeps the archive's content away from scanners on the way in: that is its point in a skill.
    {
      anchor: 'unzip|7z|7za|rar|unrar',
      re: /\bunzip\b[^\n|;]{0,80}\s-P\s*\S|\b(?:7z|7za|unrar|rar)\s+[ex]\b[^\n|;]{0,80}\s-p\S/,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'unpacks a password-protected archive',
    },
    {
      anchor: 'password|passcode|passphrase|pass:|pwd:|pw:',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:pass(?:word|code|phrase)|pass|pwd|pw)\b\s*(?:is\s*|[:=]\s*|to\s+(?:extract|unzip|open)\s*(?:it\s*)?(?:is\s*)?[:=]?\s*)[`'"*]*[^\s`'"*]{3,}/i,
      langs: ['prose', 'text'],
      message: 'gives the password of a downloaded archive',
      lineGate: /\.(?:zip|rar|7z)\b|\b(?:zip|rar|7z|archive)\b/i,
    },
    {
      anchor: 'exec|eval',
      re: /\b(?:exec|eval)\s*\([^\n]{0,40}?\b(?:requests\s*\.\s*get|urlopen|urllib\.request|httpx\s*\.\s*get)\b/,
      langs: ['py'],
      view: 'code',
      message: 'executes code downloaded at run time',
    },
    {
      // Any language, one line: an evaluator applied to a download (`ruby -e 'eval Net::HTTP.get(URI(...))'`,
      // `iex (irm URL)`), or a response body handed to one (`https.get(u, r => ... new Function(s)(...))`).
      anchor: 'eval|instance_eval|loadstring|load|Invoke-Expression|iex|new Function',
      re: new RegExp(
        // The download is in the evaluator's argument: not past the end of its call or statement.
        String.raw`\b(?:eval|instance_eval|loadstring|load|Invoke-Expression|iex)\b\s*\(?\s*[^\n;)]{0,40}?`
        + String.raw`(?:\bNet::HTTP\.get|\bURI\.open|\burlopen|\brequests\s*\.\s*get|\bhttps?\s*\.\s*get|\bfetch\s*\(`
        + String.raw`|\bInvoke-RestMethod|\bInvoke-WebRequest|\birm\s|\bDownloadString`
        + String.raw`|\bfile_get_contents\s*\(\s*["']https?:|\b(?:LWP::Simple::)?get\s*\(\s*["']https?:`
        + String.raw`|\bHTTP::Tiny->new->get\b)`
        // `require('https').get(...)` names the module in the call.
        + String.raw`|\b(?:https?|request|got|axios)(?:['"]\s*\))?\s*\.\s*get\s*\([^\n]{0,300}?`
        + String.raw`(?:\bnew\s+Function\s*\(|\beval\s*\()`,
      ),
      langs: ['js', 'sh', 'rb', 'go', 'text'],
      view: 'noComments',
      message: 'executes code downloaded at run time',
    },
    ...bySeverity({
      // R and Julia running code from a URL: `source("https://...")`, `devtools::source_url(...)`,
      // `eval(parse(text = readLines(url)))`, `include(download("https://..."))`.
      // The call's name with its parenthesis: "source", "parse" and "include" alone are everyday words in prose.
      anchor: String.raw`source\s*\(|source_url|source_gist|parse\s*\(|include\s*\(|include_string`,
      re: new RegExp(
        String.raw`\bsource\s*\(\s*(?:url\s*\(\s*)?["']https?:\/\/|\b(?:devtools::)?source_(?:url|gist)\s*\(`
        + String.raw`|\beval\s*\(\s*parse\s*\(\s*text\s*=\s*(?:readLines|httr::content|RCurl::getURL|url)\b`
        + String.raw`|\binclude(?:_string)?\s*\([^\n]{0,40}?\b(?:download|HTTP\.get)\s*\(`,
      ),
      langs: ['text', 'prose'],
      view: 'noComments',
      message: 'runs code downloaded at run time (R, Julia)',
    }, byHost),
    ...bySeverity({
      // Gradle applying a build script from a URL (`apply(from = "https://...")`, `apply from: '...'`): the
      // build runs whatever that address serves at the time.
      anchor: 'apply',
      re: /\bapply\s*\(?\s*from\s*[:=]\s*["']https?:\/\//,
      langs: ['text', 'prose'],
      view: 'noComments',
      message: 'applies a build script downloaded at build time',
    }, byHost),
    ...DOWNLOAD_AND_RUN,
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
        + '|controlc|bpa.st|justpaste',
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
  ast,
  // The same order wrapped over lines of prose ("download\nhttps://host/fix.sh and execute it").
  visitSkill: skill => [...downloadThenRun(skill), ...wrappedProse(skill, DOWNLOAD_AND_RUN_WRAPPED, 'remote_exec')],
  lowerInSkill: ownInstaller,
}
