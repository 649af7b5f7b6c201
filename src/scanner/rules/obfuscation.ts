import type { RuleModule } from '../types'

/** Obfuscated code: encoded payloads decoded at run time, escape chains. */
export const obfuscation: RuleModule = {
  meta: {
    id: 'obfuscation',
    kind: 'threat',
    severity: 'warning',
    cwe: 'CWE-506',
    description:
      'Obfuscated code (hex escape chains, atob, base64 decoding, fromCharCode, encoded shell payloads) hides what '
      + 'runs.',
    hint: 'Ship readable source; decode data, never code.',
  },
  patterns: [
    {
      anchor: '\\\\x',
      re: /(?:\\x[0-9A-Fa-f]{2}){6,}/,
      langs: ['js', 'py', 'sh'],
      view: 'noComments',
      message: 'hex escape chain',
      astCovered: true,
    },
    {
      anchor: 'atob|fromCharCode|base64',
      re: new RegExp(
        [
          String.raw`(?<![.\w$])atob\s*\(|\bString\s*\.\s*fromCharCode\s*\(`,
          String.raw`|\bBuffer\s*\.\s*from\s*\([^)\n]*['"](?:base64|hex)['"]`,
        ].join(''),
      ),
      langs: ['js'],
      view: 'noComments',
      message: 'decodes an encoded string at run time',
      astCovered: true,
    },
    {
      anchor: 'b64decode|b32decode|b85decode|decodebytes|decompress|fromhex|rot.?13',
      re: new RegExp(
        [
          String.raw`\b(?:exec|eval|compile|loads|system|Popen|run)\s*\([^\n]{0,200}?\b(?:b64decode|b32decode`,
          String.raw`|b85decode|decodebytes|decompress|fromhex|rot.?13)\b`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'noComments',
      message: 'decodes a payload and runs it',
    },
    {
      anchor: 'marshal',
      re: /\bmarshal\s*\.\s*loads\s*\(/,
      langs: ['py'],
      view: 'code',
      message: 'loads marshalled bytecode',
    },
    {
      anchor: 'base64|xxd|openssl',
      re: new RegExp(
        [
          String.raw`\b(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r`,
          String.raw`|openssl\s+(?:enc\s+)?(?:-d\s+)?-?base64\s+-d)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b`,
        ].join(''),
      ),
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'decodes a payload and pipes it to a shell',
    },
    {
      anchor: 'base64',
      re: /\becho\s+['"]?[A-Za-z0-9+/=]{24,}['"]?\s*\|\s*base64\s+(?:-d|--decode|-D)\b/,
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'decodes an embedded base64 payload',
    },
    {
      anchor: String.raw`\s-(?:e|ec|enc|encodedcommand)\s|FromBase64String`,
      re: /\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{20,}|\bFromBase64String\s*\(/i,
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'PowerShell encoded command',
    },
  ],
}
