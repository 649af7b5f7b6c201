import type { AstRule } from '../js/ast-rule'
import type { Node } from '../js/walk'
import type { RuleModule } from '../types'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'

const ESCAPE_CHAIN = /(?:\\x[0-9A-Fa-f]{2}){6,}|(?:\\u00[0-7][0-9A-Fa-f]){6,}/

const ast: AstRule = {
  triggers: [String.raw`\b(?:atob|fromCharCode|base64)\b`, ...HIDDEN_NAME_TRIGGERS],
  create: (context) => {
    const call = (node: Node): void => {
      const fn = context.evaluate(node.callee)
      const args: Node[] = node.arguments ?? []
      if (fn?.k === 'gv' && fn.name === 'atob') {
        context.report(node, 'decodes base64 at run time (atob)')
      }
      else if (fn?.k === 'mem' && fn.of === 'Buffer' && fn.name === 'from') {
        const enc = args[1] ? context.evaluate(args[1]) : null
        if (enc?.k === 'str' && (enc.v === 'base64' || enc.v === 'hex'))
          context.report(node, `decodes a ${enc.v} payload at run time`)
      }
      else if (
        fn?.k === 'mem'
        && fn.of === 'String'
        && fn.name === 'fromCharCode'
        && (args.length >= 4 || args.some(a => a.type === 'SpreadElement'))
      ) {
        context.report(node, 'builds a string from character codes')
      }
    }
    return {
      CallExpression: call,
      NewExpression: call,
      // `globalThis[x]()` with a computed, non-constant key hides which global is called.
      MemberExpression: (node, parent) => {
        if (node.computed && parent?.type === 'CallExpression' && parent.callee === node) {
          const obj = context.evaluate(node.object)
          if (obj?.k === 'global' && !context.evaluate(node.property))
            context.report(node, 'calls a global looked up by a computed name')
        }
      },
      Literal: (node) => {
        if (typeof node.value === 'string' && typeof node.raw === 'string' && ESCAPE_CHAIN.test(node.raw))
          context.report(node, 'string hidden behind escape sequences')
      },
      TemplateLiteral: (node) => {
        if (node.quasis.some((q: Node) => ESCAPE_CHAIN.test(q.value?.raw ?? '')))
          context.report(node, 'string hidden behind escape sequences')
      },
    }
  },
}

/** Obfuscated code: encoded payloads decoded at run time, escape chains. */
export const obfuscation: RuleModule = {
  meta: {
    id: 'obfuscation',
    kind: 'threat',
    severity: 'warning',
    cwe: 'CWE-506',
    description:
      'Obfuscated code (hex escape chains, atob, base64 decoding, fromCharCode, encoded shell payloads, builtins '
      + 'called by a name built at run time) hides what runs.',
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
      // A builtin fetched by a name the reader cannot see (`getattr(__builtins__, "ex" + "ec")`): calling it
      // directly is what honest code does, so the indirection hides which one runs.
      anchor: 'getattr|__builtins__|globals|builtins',
      re: new RegExp(
        [
          String.raw`(?:\bgetattr\s*\(\s*(?:__builtins__|builtins|__import__\s*\(\s*["']builtins["']\s*\))\s*,`,
          String.raw`|\b(?:__builtins__(?:\.__dict__)?|vars\s*\(\s*__builtins__\s*\)|globals\s*\(\s*\))\s*\[)`,
          // The name is built: pieces joined, characters by code, decoded.
          String.raw`\s*(?:["'][^"'\n]{0,20}["']\s*\+|["']["']\s*\.\s*join\s*\(|chr\s*\(`,
          String.raw`|[\w.]*b(?:64|32|16)decode\s*\(|bytes\.fromhex\s*\()`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'noComments',
      message: 'calls a builtin looked up by a computed name',
      severity: 'error',
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
  ast,
}
