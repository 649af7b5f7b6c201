import type { Value } from './values'
import type { Node } from './walk'
import { NETWORK_MODULES } from './values'

/** Globals of the JS runtimes that also spawn processes, open sockets and write files (`Deno.run`, `Bun.write`). */
export const RUNTIME_TRIGGER = String.raw`\b(?:Deno|Bun)\b`

/** What a call to the network needs in the text: the clients' and modules' names (`http` not as a URL scheme). */
export const NETWORK_CALL_TRIGGERS: readonly string[] = [
  String.raw`\b(?:fetch|http2|dgram|tls|net|WebSocket|XMLHttpRequest|EventSource|sendBeacon|axios|got|undici`
  + String.raw`|superagent|needle)\b`,
  RUNTIME_TRIGGER,
  String.raw`\bhttps?\b(?!:\/\/)`,
]

/** What a call that evaluates code needs in the text: `eval`, `Function` and `vm`'s runners. */
export const EVAL_CALL_TRIGGERS: readonly string[] = [
  String.raw`\b(?:eval|Function|vm|runInThisContext|runInNewContext|runInContext|compileFunction)\b`,
]

/** A callee that makes a request or opens a socket: fetch, the browser's network APIs, a network module's member. */
export function isNetworkCallee(v: Value | null, isNew: boolean): boolean {
  if (!v)
    return false
  if (v.k === 'gv') {
    return (
      v.name === 'fetch'
      || (isNew && (v.name === 'WebSocket' || v.name === 'XMLHttpRequest' || v.name === 'EventSource'))
    )
  }
  if (v.k === 'mem') {
    return (
      (v.of === 'navigator' && v.name === 'sendBeacon')
      || NETWORK_MODULES.has(v.of)
      || (v.of === 'Deno' && (v.name === 'connect' || v.name === 'connectTls'))
      || (v.of === 'Bun' && v.name === 'connect')
    )
  }
  if (v.k === 'mod')
    return NETWORK_MODULES.has(v.name)
  return false
}

/** A callee that runs a string as code: `eval`, the Function constructor, `vm.runIn*Context` and its kin. */
export function isEvalCallee(v: Value | null): boolean {
  return !!v
    && ((v.k === 'gv' && (v.name === 'eval' || v.name === 'Function'))
      || (v.k === 'mem' && v.of === 'vm' && /^(?:runIn\w*Context|compileFunction|Script)$/.test(v.name)))
}

/** A call or `new` (a node of a subtree) whose callee is a network one. */
export function isNetworkCall(node: Node, evaluate: (n: Node) => Value | null): boolean {
  return (node.type === 'CallExpression' || node.type === 'NewExpression')
    && isNetworkCallee(evaluate(node.callee), node.type === 'NewExpression')
}

/**
 * `new URL('./logo.png', import.meta.url)` (and its `.href`): a file shipped next to the module, which a
 * bundler or `fetch` reads from disk or the app's own assets. An absolute URL as first argument is a request.
 */
export function isModuleAsset(arg: Node): boolean {
  const n = arg.type === 'MemberExpression' && arg.property?.name === 'href' ? arg.object : arg
  if (n?.type !== 'NewExpression' || n.callee?.type !== 'Identifier' || n.callee.name !== 'URL')
    return false
  const [spec, base] = n.arguments ?? []
  return (
    spec?.type === 'Literal'
    && typeof spec.value === 'string'
    && !/^[a-z][\w+.-]*:/i.test(spec.value)
    && base?.type === 'MemberExpression'
    && base.object?.type === 'MetaProperty'
    && base.property?.name === 'url'
  )
}

/**
 * The network call a node is, as the network rules read it: a call or `new` of a network callee that is not a
 * `fetch` of the module's own asset. `server`: it starts a server (`http.createServer`) rather than a request.
 */
export function networkCall(node: Node, callee: Value | null): { server: boolean } | null {
  if (!isNetworkCallee(callee, node.type === 'NewExpression'))
    return null
  const first = node.arguments?.[0]
  if (callee?.k === 'gv' && callee.name === 'fetch' && first && isModuleAsset(first))
    return null
  return { server: callee?.k === 'mem' && /^create(?:Secure)?Server$/.test(callee.name) }
}
