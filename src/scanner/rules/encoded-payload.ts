import type { RuleModule } from '../types'
import { decodedLiterals } from './encoded-literals'
import { decodedThenRun } from './remote-exec-flow'

// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const SH_SINK = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:(?:\/usr)?\/bin\/)?(?:(?:ba|z|k|da)?sh|python[\d.]*|perl|ruby|node|php|xargs|curl|wget|iex|Invoke-Expression|source|eval)\b`
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const PY_DECODE = String.raw`(?:b64decode|b32decode|b85decode|a85decode|b16decode|decodebytes|decodestring|unhexlify|fromhex|decompress|rot.?13|\bchr\s*\(|bytes\s*\(\s*\[|bytearray\s*\(\s*\[|codecs\.decode)`
// eslint-disable-next-line style/max-len -- a pattern is clearer whole
const JS_DECODE = String.raw`(?:(?<![.\w$])atob\s*\(|Buffer\s*\.\s*from\s*\((?:[^()\n]|\([^()\n]*\))*['"](?:base64|hex|base64url)['"]|fromCharCode\s*\(|unescape\s*\(|decodeURIComponent\s*\(\s*['"](?:%[0-9a-f]{2}){4})`

// A payload written as a placeholder (`eval(atob("..."))`, `exec(b64decode('<payload>'))`) names the technique.
const PLACEHOLDER_ARG = /^\s*\(?\s*(["'`])(?:\.{2,}|…|<[\w\s-]*>|x{3,}|payload|base64)\1/i
function decodesLiteral(m: RegExpExecArray, line: string): boolean {
  return !PLACEHOLDER_ARG.test(line.slice(m.index + m[0].length))
}

/**
 * Encoded payloads: a decode that feeds a shell, an interpreter, exec/eval, curl or xargs, and literals that
 * decode to commands, code, secret paths or instructions (read in encoded-literals.ts).
 */
export const encodedPayload: RuleModule = {
  meta: {
    id: 'encoded_payload',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-506',
    description:
      'Encoded payload: base64, hex, escape-chain or character-code data that decodes to commands, code, secret '
      + 'paths or agent instructions, or a decode feeding a shell, exec/eval, curl or xargs (echo ... | base64 -d '
      + '| sh, eval(atob(...)), exec(base64.b64decode(...)), powershell -enc).',
    hint: 'Ship readable commands and code; decode data, never code. Binary assets (images, fonts) are fine.',
  },
  patterns: [
    {
      anchor: 'base64|xxd|openssl|uudecode|basenc|b64',
      re: new RegExp(
        String.raw`\b(?:base64\s+(?:-\w+\s+)*(?:-d|--decode|-D)|basenc\s+[^\n|]*--decode|b64\s+-d|xxd\s+(?:-\w+\s+)*-r`

        + String.raw`|openssl\s+(?:enc\s+)?(?:-\w+\s+)*-?base64\s+(?:-\w+\s+)*-d|uudecode)\b[^\n|]{0,200}`
        // Through a decompressor or a reversal on the way (`base64 -d | gunzip | sh`).
        + String.raw`(?:\|\s*(?:gunzip|zcat|gzip\s+-\w*d|xz\s+-\w*d|unxz|bunzip2|bzip2\s+-\w*d|zstd\s+-\w*d|rev|tr)\b`
        + String.raw`[^\n|]{0,40})*\|\s*${SH_SINK}`,
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'decodes a payload and pipes it to a shell or interpreter',
    },
    {
      anchor: 'base64|xxd',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\$\(\s*(?:echo|printf)\s+(?:-\w+\s+)?["']?(?:[\w+/=-]{8,}|\$\{?\w+\}?)["']?\s*\|\s*(?:base64\s+(?:-\w+\s+)*(?:-d|--decode|-D)|xxd\s+-r)/i,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs or passes on a string decoded at run time',
      lineGate: /\b(?:eval|exec|bash|sh|curl|wget|python[\d.]*|node|source)\b|^\s*\$\(/,
    },
    {
      anchor: 'base64|<<<',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:(?:ba|z)?sh|eval|python[\d.]*|source)\b[^\n]{0,20}(?:-c\s+)?["']?\$\(\s*base64\s+(?:-d|--decode|-D)\s*<<<|\bbase64\s+(?:-d|--decode|-D)\s*<<<[^\n|]{0,200}\|\s*(?:ba|z)?sh\b/i,
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'decodes a payload and runs it',
    },
    {
      anchor: String.raw`\\x[0-9a-fA-F]|\\[0-7]{3}`,
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:printf|echo\s+-e)\s+["']?(?:\\x[0-9a-fA-F]{2}|\\[0-7]{3}){6,}[^\n|]{0,40}\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b/,
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'pipes an escaped payload to a shell',
    },
    {
      anchor:
        'b64decode|b32decode|b85decode|a85decode|b16decode|decodebytes|decodestring|unhexlify|fromhex|decompress'
        + '|rot13|rot_13|rot-13|chr|bytes|bytearray|codecs',
      re: new RegExp(
        // `re.compile(...)` compiles a pattern, not code: the builtins stand alone. `exec` handed over as a callable
        // (`Thread(target=exec, args=(b64decode(...),))`) runs as surely.
        String.raw`(?:(?:(?<![.\w])(?:exec|eval|compile)|\b(?:os\.system|os\.popen|Popen`
        + String.raw`|subprocess\.(?:run|call|check_output|check_call|getoutput)))\s*\(`
        + String.raw`|\b(?:target\s*=\s*|map\s*\(\s*|partial\s*\(\s*)(?:exec|eval)\b)`
        + String.raw`[^\n]{0,200}?${PY_DECODE}`,
      ),
      langs: ['py', 'sh', 'prose', 'text'],
      view: 'noComments',
      message: 'decodes a payload and runs it (Python)',
      accept: decodesLiteral,
    },
    {
      anchor: 'atob|Buffer|fromCharCode|unescape|decodeURIComponent',
      re: new RegExp(
        // eslint-disable-next-line style/max-len -- a pattern is clearer whole
        String.raw`\b(?:eval|Function|runInThisContext|runInNewContext|execSync|exec|spawnSync|spawn|setTimeout|setInterval)`
        + String.raw`\s*\((?:[^\n]{0,200}?)${JS_DECODE}`,
      ),
      langs: ['js', 'sh', 'prose', 'text'],
      view: 'noComments',
      message: 'decodes a payload and runs it (JavaScript)',
      accept: decodesLiteral,
    },
    {
      anchor: String.raw`\s-(?:e|ec|en|enc|enco|encodedcommand)\s`,
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}\s-(?:e|ec|en|enc|enco|encodedcommand)\s+["']?[A-Za-z0-9+/=]{20,}/i,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs a base64-encoded PowerShell command',
    },
    {
      // Perl and PHP: an evaluator of a decode (`eval pack("H*", "...")`, `eval(gzinflate(base64_decode(...)))`).
      // Ruby: `instance_eval(Base64.strict_decode64(BLOB))`, `eval(BLOB.unpack1("m"))`, rot13 by `tr`.
      anchor: 'eval|instance_eval|class_eval|module_eval|assert|create_function',
      re: new RegExp(
        String.raw`\b(?:eval|instance_eval|class_eval|module_eval|assert|create_function)\s*\(?\s*(?:@?\s*)?`
        + String.raw`(?:pack\s*\(\s*["']H\*|unpack\s*\(\s*["']u`
        + String.raw`|decode_base64\s*\(|MIME::Base64::decode|base64_decode\s*\(|gzinflate\s*\(|gzuncompress\s*\(`
        + String.raw`|str_rot13\s*\(|hex2bin\s*\(|Base64\.(?:strict_|urlsafe_)?decode64\s*\(`
        + String.raw`|Zlib::Inflate\.inflate\s*\(|[\w.]+\.unpack1?\s*\(\s*["']m`
        // Ruby's rot13: `eval(BLOB.tr("A-Za-z", "N-ZA-Mn-za-m"))`.
        + String.raw`|[\w.]+\.tr\s*\(\s*["']A-Za-z["']\s*,\s*["']N-ZA-Mn-za-m["'])`,
      ),
      langs: ['sh', 'prose', 'text', 'rb'],
      view: 'noComments',
      message: 'decodes a payload and runs it (Perl, PHP, Ruby)',
      accept: decodesLiteral,
    },
    {
      anchor: 'FromBase64String',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\b(?:iex|Invoke-Expression|Invoke-Command|ScriptBlock\]::Create)\b[^\n]{0,200}FromBase64String|FromBase64String[^\n]{0,200}\|\s*(?:iex|Invoke-Expression)\b/i,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs a base64-decoded PowerShell script',
    },
  ],
  visitSkill: skill => [...decodedLiterals(skill), ...decodedThenRun(skill)],
}
