import type { Value } from './values'
import type { Budget, Node } from './walk'
import { createFolder, member } from './fold'
import {
  FS_MODULES,
  FS_READ_FNS,
  FS_WRITE_FNS,
  NETWORK_MODULES,
  normalizeModule,
  PROCESS_MODULES,
  SENSITIVE_PATH,
} from './values'
import { MAX_SUBTREE, MAX_WORK, pushChildren, tooLarge } from './walk'

export interface AstFinding {
  rule: string
  start: number
  end: number
  message: string
}

const PROCESS_FNS = new Set([
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'spawn',
  'spawnSync',
  'fork',
  'execaSync',
  'execaCommand',
  'execaCommandSync',
  '$',
  'execaNode',
])

/**
 * `new URL('./logo.png', import.meta.url)` (and its `.href`): a file shipped next to the module, which a
 * bundler or `fetch` reads from disk or the app's own assets. An absolute URL as first argument is a request.
 */
function isModuleAsset(arg: Node): boolean {
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

/** Analyses one parsed JS/TS program and returns AST findings (offsets into the parsed text). */
export function analyzeProgram(program: Node, maxWork = MAX_WORK): AstFinding[] {
  const interesting: Array<{ node: Node, parent: Node | null }> = []
  const findings: AstFinding[] = []
  const report = (rule: string, node: Node, message: string): void => {
    findings.push({ rule, start: node.start, end: node.end, message })
  }
  // Evaluations of the current rule check and work of the whole program: the folder spends both.
  const budget: Budget = { evaluations: 0, work: 0, maxWork }
  const { locals, bind, evalNode } = createFolder(budget)

  // --- pass 1: bindings and the nodes worth a look ------------------------------------------------
  function bindPattern(pattern: Node | null, source: () => Value | null, depth = 0): void {
    if (!pattern || depth > 8)
      return
    if (pattern.type === 'Identifier') {
      bind(pattern.name, source)
      return
    }
    if (pattern.type === 'AssignmentPattern') {
      bindPattern(pattern.left, source, depth + 1)
      return
    }
    if (pattern.type === 'ObjectPattern') {
      for (const prop of pattern.properties ?? []) {
        if (prop.type !== 'Property')
          continue
        const key = prop.computed
          ? null
          : prop.key?.type === 'Identifier'
            ? prop.key.name
            : typeof prop.key?.value === 'string'
              ? prop.key.value
              : null
        if (key === null && !prop.computed)
          continue
        bindPattern(
          prop.value,
          () => {
            const obj = source()
            if (!obj)
              return null
            const k
              = key
                ?? (() => {
                  const v = evalNode(prop.key)
                  return v && (v.k === 'str' || v.k === 'num') ? String(v.v) : null
                })()
            return k === null ? null : member(obj, k)
          },
          depth + 1,
        )
      }
      return
    }
    if (pattern.type === 'ArrayPattern') {
      pattern.elements?.forEach((el: Node | null, i: number) =>
        bindPattern(
          el,
          () => {
            const a = source()
            return a?.k === 'arr' ? (a.v[i] ?? null) : null
          },
          depth + 1,
        ),
      )
    }
  }

  // Source order: each node's children are pushed, then reversed in place, so they pop first to last.
  const nodes: Node[] = [program]
  const parents: Array<Node | null> = [null]
  while (nodes.length) {
    const node = nodes.pop()!
    const parent = parents.pop()!
    if (++budget.work > budget.maxWork)
      tooLarge()
    switch (node.type) {
      case 'VariableDeclarator': {
        const init = node.init
        if (init)
          bindPattern(node.id, () => evalNode(init))
        else if (node.id?.type === 'Identifier')
          locals.add(node.id.name)
        break
      }
      case 'AssignmentExpression':
        if (
          node.operator === '='
          && (node.left?.type === 'Identifier'
            || node.left?.type === 'ObjectPattern'
            || node.left?.type === 'ArrayPattern')
        ) {
          const right = node.right
          bindPattern(node.left, () => evalNode(right))
        }
        interesting.push({ node, parent })
        break
      case 'ImportDeclaration': {
        const mod = normalizeModule(String(node.source?.value ?? ''))
        for (const s of node.specifiers ?? []) {
          if (s.type === 'ImportSpecifier') {
            const imported = s.imported?.name ?? s.imported?.value
            bind(s.local.name, () =>
              imported === 'default' ? { k: 'mod', name: mod } : { k: 'mem', of: mod, name: String(imported) })
          }
          else {
            bind(s.local.name, () => ({ k: 'mod', name: mod }))
          }
        }
        interesting.push({ node, parent })
        break
      }
      case 'TSImportEqualsDeclaration': {
        const ref = node.moduleReference
        if (ref?.type === 'TSExternalModuleReference' && typeof ref.expression?.value === 'string') {
          const mod = normalizeModule(ref.expression.value)
          bind(node.id.name, () => ({ k: 'mod', name: mod }))
          interesting.push({ node: { ...node, source: ref.expression, type: 'ImportDeclaration' }, parent })
        }
        break
      }
      case 'FunctionDeclaration':
      case 'ClassDeclaration':
        if (node.id?.name) {
          const name = node.id.name
          bind(name, () => ({ k: 'fn' }))
        }
        for (const p of node.params ?? []) collectLocals(p)
        break
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        for (const p of node.params ?? []) collectLocals(p)
        break
      case 'CatchClause':
        if (node.param)
          collectLocals(node.param)
        break
      case 'CallExpression':
      case 'NewExpression':
      case 'ImportExpression':
      case 'MemberExpression':
      case 'Literal':
      case 'TemplateLiteral':
        interesting.push({ node, parent })
        break
    }
    const first = nodes.length
    pushChildren(node, nodes, parents)
    for (let i = first, j = nodes.length - 1; i < j; i++, j--) {
      const t = nodes[i]!
      nodes[i] = nodes[j]!
      nodes[j] = t
    }
  }

  function collectLocals(p: Node | null, depth = 0): void {
    if (!p || depth > 8)
      return
    if (p.type === 'Identifier') {
      locals.add(p.name)
    }
    else if (p.type === 'AssignmentPattern') {
      collectLocals(p.left, depth + 1)
    }
    else if (p.type === 'RestElement') {
      collectLocals(p.argument, depth + 1)
    }
    else if (p.type === 'ObjectPattern') {
      for (const q of p.properties ?? []) collectLocals(q.type === 'RestElement' ? q.argument : q.value, depth + 1)
    }
    else if (p.type === 'ArrayPattern') {
      for (const q of p.elements ?? []) collectLocals(q, depth + 1)
    }
    else if (p.type === 'TSParameterProperty') {
      collectLocals(p.parameter, depth + 1)
    }
  }

  // --- pass 2: rules -------------------------------------------------------------------------------
  const isNetworkCallee = (v: Value | null, isNew: boolean): boolean => {
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
  const isProcessCallee = (v: Value | null): boolean => {
    if (!v)
      return false
    if (v.k === 'mem') {
      return (
        (v.of === 'child_process' && PROCESS_FNS.has(v.name))
        || (PROCESS_MODULES.has(v.of) && v.of !== 'child_process')
        || (v.of === 'process' && (v.name === 'binding' || v.name === '_linkedBinding' || v.name === 'dlopen'))
        || (v.of === 'Deno' && (v.name === 'run' || v.name === 'Command'))
        || (v.of === 'Bun' && (v.name === 'spawn' || v.name === 'spawnSync' || v.name === '$'))
      )
    }
    if (v.k === 'mod')
      return PROCESS_MODULES.has(v.name)
    return false
  }
  const isEvalCallee = (v: Value | null): boolean =>
    !!v
    && ((v.k === 'gv' && (v.name === 'eval' || v.name === 'Function'))
      || (v.k === 'mem' && v.of === 'vm' && /^(?:runIn\w*Context|compileFunction|Script)$/.test(v.name)))
  const isFsWrite = (v: Value | null): boolean =>
    !!v
    && v.k === 'mem'
    && ((FS_MODULES.has(v.of) && FS_WRITE_FNS.has(v.name))
      || (v.of === 'Bun' && v.name === 'write')
      || (v.of === 'Deno' && /^(?:write\w*|mkdir\w*|remove\w*|rename\w*|create\w*)$/.test(v.name)))

  const tainted = new Set<string>()
  function subtreeHas(root: Node, test: (n: Node, parent: Node | null) => boolean): boolean {
    const ns: Node[] = [root]
    const ps: Array<Node | null> = [null]
    let count = 0
    while (ns.length) {
      const n = ns.pop()!
      const p = ps.pop()!
      if (++count > MAX_SUBTREE)
        return false
      if (++budget.work > budget.maxWork)
        tooLarge()
      if (test(n, p))
        return true
      pushChildren(n, ns, ps)
    }
    return false
  }
  const isSecretSource = (n: Node, p: Node | null): boolean => {
    if (n.type === 'Identifier')
      return tainted.has(n.name) && !(p?.type === 'MemberExpression' && p.property === n && !p.computed)
    if (n.type === 'MemberExpression') {
      if (p?.type === 'MemberExpression' && p.object === n)
        return false
      return evalNode(n)?.k === 'env'
    }
    if (n.type === 'CallExpression') {
      const fn = evalNode(n.callee)
      if (fn?.k === 'mem' && FS_MODULES.has(fn.of) && FS_READ_FNS.has(fn.name)) {
        return subtreeHas(
          { type: 'Args', start: 0, end: 0, a: n.arguments },
          x =>
            (x.type === 'Literal' && typeof x.value === 'string' && SENSITIVE_PATH.test(x.value))
            || (x.type === 'TemplateElement' && SENSITIVE_PATH.test(x.value?.raw ?? '')),
        )
      }
    }
    return false
  }
  // Two rounds propagate taint through one level of aliasing (`const d = readFileSync(key); const body = {d}`).
  // Only a network call's arguments ask, so a program without one (most bundles) never pays for the walks.
  let taintKnown = false
  const taint = (): void => {
    if (taintKnown)
      return
    taintKnown = true
    for (let round = 0; round < 2; round++) {
      const declStack: Node[] = [program]
      while (declStack.length) {
        const node = declStack.pop()!
        if (++budget.work > budget.maxWork)
          tooLarge()
        if (
          node.type === 'VariableDeclarator'
          && node.id?.type === 'Identifier'
          && node.init
          && !tainted.has(node.id.name)
        ) {
          budget.evaluations = 0
          if (subtreeHas(node.init, isSecretSource))
            tainted.add(node.id.name)
        }
        pushChildren(node, declStack)
      }
    }
  }

  for (const { node, parent } of interesting) {
    budget.evaluations = 0
    switch (node.type) {
      case 'ImportDeclaration': {
        const mod = normalizeModule(String(node.source?.value ?? ''))
        if (PROCESS_MODULES.has(mod))
          report('child_process', node, `imports ${mod}, which spawns processes`)
        else if (NETWORK_MODULES.has(mod))
          report('network_access', node, `imports the network module ${mod}`)
        break
      }
      case 'ImportExpression': {
        const v = evalNode(node)
        if (v?.k === 'mod' && PROCESS_MODULES.has(v.name))
          report('child_process', node, `dynamically imports ${v.name}`)
        else if (v?.k === 'mod' && NETWORK_MODULES.has(v.name))
          report('network_access', node, `dynamically imports the network module ${v.name}`)
        break
      }
      case 'CallExpression':
      case 'NewExpression': {
        const fn = evalNode(node.callee)
        const args: Node[] = node.arguments ?? []
        if (fn?.k === 'gv' && fn.name === 'require') {
          const v = evalNode(node)
          if (v?.k === 'mod' && PROCESS_MODULES.has(v.name))
            report('child_process', node, `requires ${v.name}, which spawns processes`)
          else if (v?.k === 'mod' && NETWORK_MODULES.has(v.name))
            report('network_access', node, `requires the network module ${v.name}`)
          break
        }
        if (isEvalCallee(fn)) {
          const name
            = fn!.k === 'gv'
              ? fn!.name === 'eval'
                ? 'eval()'
                : 'the Function constructor'
              : `vm.${(fn as { name: string }).name}`
          report('dynamic_eval', node, `${name} runs a string as code`)
          if (
            args.some(a =>
              subtreeHas(
                a,
                x =>
                  (x.type === 'CallExpression' || x.type === 'NewExpression')
                  && isNetworkCallee(evalNode(x.callee), x.type === 'NewExpression'),
              ),
            )
          ) {
            report('remote_exec', node, 'evaluates code downloaded at run time')
          }
          break
        }
        if (fn?.k === 'gv' && (fn.name === 'setTimeout' || fn.name === 'setInterval' || fn.name === 'setImmediate')) {
          const a = args[0] ? evalNode(args[0]) : null
          if (a?.k === 'str')
            report('dynamic_eval', node, `${fn.name} with a string evaluates it as code`)
          break
        }
        if (fn?.k === 'mem' && fn.of === 'Reflect' && (fn.name === 'apply' || fn.name === 'construct')) {
          if (args[0] && isEvalCallee(evalNode(args[0])))
            report('dynamic_eval', node, `Reflect.${fn.name} invokes eval/Function`)
          break
        }
        if (isProcessCallee(fn)) {
          report('child_process', node, 'spawns a process')
          break
        }
        if (isNetworkCallee(fn, node.type === 'NewExpression')) {
          if (fn?.k === 'gv' && fn.name === 'fetch' && args[0] && isModuleAsset(args[0]))
            break
          const server = fn?.k === 'mem' && /^create(?:Secure)?Server$/.test(fn.name)
          report('network_access', node, server ? 'starts a network server' : 'makes a network request')
          if (args.length && (taint(), args.some(a => subtreeHas(a, isSecretSource))))
            report('exfiltration', node, 'sends environment variables or a sensitive file over the network')
          break
        }
        if (isFsWrite(fn)) {
          report('fs_write', node, `writes to the filesystem (${(fn as { name: string }).name})`)
          break
        }
        if (fn?.k === 'gv' && fn.name === 'atob') {
          report('obfuscation', node, 'decodes base64 at run time (atob)')
          break
        }
        if (fn?.k === 'mem' && fn.of === 'Buffer' && fn.name === 'from' && args[1]) {
          const enc = evalNode(args[1])
          if (enc?.k === 'str' && (enc.v === 'base64' || enc.v === 'hex'))
            report('obfuscation', node, `decodes a ${enc.v} payload at run time`)
          break
        }
        if (
          fn?.k === 'mem'
          && fn.of === 'String'
          && fn.name === 'fromCharCode'
          && (args.length >= 4 || args.some(a => a.type === 'SpreadElement'))
        ) {
          report('obfuscation', node, 'builds a string from character codes')
        }
        break
      }
      case 'MemberExpression': {
        // `globalThis[x]` with a computed, non-constant key hides which global is used.
        if (node.computed && parent?.type === 'CallExpression' && parent.callee === node) {
          const obj = evalNode(node.object)
          if (obj?.k === 'global' && !evalNode(node.property))
            report('obfuscation', node, 'calls a global looked up by a computed name')
        }
        break
      }
      case 'Literal':
        if (
          typeof node.value === 'string'
          && typeof node.raw === 'string'
          && /(?:\\x[0-9A-Fa-f]{2}){6,}|(?:\\u00[0-7][0-9A-Fa-f]){6,}/.test(node.raw)
        ) {
          report('obfuscation', node, 'string hidden behind escape sequences')
        }
        break
      case 'TemplateLiteral':
        if (
          node.quasis.some((q: Node) =>
            /(?:\\x[0-9A-Fa-f]{2}){6,}|(?:\\u00[0-7][0-9A-Fa-f]){6,}/.test(q.value?.raw ?? ''),
          )
        ) {
          report('obfuscation', node, 'string hidden behind escape sequences')
        }
        break
      case 'AssignmentExpression':
        break
    }
  }
  return findings
}
