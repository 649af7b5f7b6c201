import type { Value } from './values'
import { Buffer } from 'node:buffer'
import {
  FS_MODULES,
  FS_READ_FNS,
  FS_WRITE_FNS,
  GLOBAL_NAMES,
  GLOBAL_OBJECTS,
  NETWORK_MODULES,
  normalizeModule,
  PROCESS_MODULES,
  SENSITIVE_PATH,
} from './values'

/** The ESTree node shape oxc returns; typed loosely on purpose (hostile input, partial ASTs). */
export interface Node {
  type: string
  start: number
  end: number
  [key: string]: any
}

export interface AstFinding {
  rule: string
  start: number
  end: number
  message: string
}

type Binding = () => Value | null

const MAX_EVAL_DEPTH = 48
/** Nodes one rule check (one call site, one declaration) may evaluate: beyond, its value is unknown. */
const MAX_SITE_EVALUATIONS = 100_000
/**
 * Evaluations and subtree steps one program may take in all. Beyond, the analysis gives up on the
 * file, which is then read with the token patterns (as after a syntax error): a budget that ran out
 * silently would let padding hide the calls after it. Nodes walked count too. The 37 MB of code in
 * node_modules takes at most 2.7M in a file (`bench/scanner-wild.ts`).
 */
const MAX_WORK = 20_000_000
const MAX_SUBTREE = 4000
/**
 * Folded strings longer than this are unknown: what the rules compare (module names, `eval`, paths)
 * is short, and a chain of `s = s + s` would otherwise double a string per line.
 */
const MAX_FOLDED = 64 * 1024
const str = (v: string): Value | null => (v.length > MAX_FOLDED ? null : { k: 'str', v })

/** Thrown when a program exceeds its work budget (`MAX_WORK`). */
export class AnalysisTooLarge extends Error {}

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
 * Pushes a node's child nodes onto `nodes`, in source order, and the node itself onto `parents` once
 * per child when given: the walks keep two flat stacks instead of an array per node and a pair per child.
 */
function pushChildren(node: Node, nodes: Node[], parents?: Array<Node | null>): void {
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'range' || key === 'loc')
      continue
    const v = node[key]
    if (v === null || typeof v !== 'object')
      continue
    if (Array.isArray(v)) {
      for (const x of v) {
        if (x && typeof x.type === 'string') {
          nodes.push(x)
          parents?.push(node)
        }
      }
    }
    else if (typeof v.type === 'string') {
      nodes.push(v)
      parents?.push(node)
    }
  }
}

function decodeBase64(s: string): string | null {
  if (!/^[A-Za-z0-9+/=_-]*$/.test(s) || s.length > 100_000)
    return null
  try {
    return Buffer.from(s, 'base64').toString('utf8')
  }
  catch {
    return null
  }
}

/** Analyses one parsed JS/TS program and returns AST findings (offsets into the parsed text). */
export function analyzeProgram(program: Node, maxWork = MAX_WORK): AstFinding[] {
  const bindings = new Map<string, Binding[]>()
  const locals = new Set<string>()
  const interesting: Array<{ node: Node, parent: Node | null }> = []
  const findings: AstFinding[] = []
  const report = (rule: string, node: Node, message: string): void => {
    findings.push({ rule, start: node.start, end: node.end, message })
  }
  // --- budgets ----------------------------------------------------------------------------------
  let evaluations = 0 // this rule check's
  let work = 0 // the program's
  const tooLarge = (): never => {
    throw new AnalysisTooLarge('too much to analyse')
  }
  /**
   * A binding evaluated at most once: bundled code refers to the same constants from thousands of
   * call sites, and re-evaluating each definition chain per reference went exponential on a real
   * bundle. A reference met while its own value is being computed (a cycle) is unknown;
   * a value cut short by the check's budget is not kept (another check may afford it).
   */
  const once = (b: Binding): Binding => {
    let state = 0 // 0: not yet, 1: being computed, 2: known
    let value: Value | null = null
    return () => {
      if (state === 2)
        return value
      if (state === 1)
        return null
      state = 1
      let v: Value | null = null
      try {
        v = b()
      }
      finally {
        state = 0
      }
      if (evaluations <= MAX_SITE_EVALUATIONS) {
        state = 2
        value = v
      }
      return v
    }
  }
  const bind = (name: string, b: Binding): void => {
    const list = bindings.get(name)
    if (list) {
      if (list.length < 16)
        list.push(once(b))
    }
    else {
      bindings.set(name, [once(b)])
    }
  }

  // --- constant folding -------------------------------------------------------------------------
  const resolving = new Set<string>()
  function evalNode(node: Node | null | undefined, depth = 0): Value | null {
    if (!node || depth > MAX_EVAL_DEPTH || ++evaluations > MAX_SITE_EVALUATIONS)
      return null
    if (++work > maxWork)
      tooLarge()
    switch (node.type) {
      case 'Literal':
        if (typeof node.value === 'string')
          return str(node.value)
        if (typeof node.value === 'number')
          return { k: 'num', v: node.value }
        return null
      case 'TemplateLiteral': {
        let out = ''
        for (let i = 0; i < node.quasis.length; i++) {
          out += node.quasis[i].value.cooked ?? node.quasis[i].value.raw
          if (i < node.expressions.length) {
            const v = evalNode(node.expressions[i], depth + 1)
            if (!v || (v.k !== 'str' && v.k !== 'num'))
              return null
            out += String(v.v)
            if (out.length > MAX_FOLDED)
              return null
          }
        }
        return str(out)
      }
      case 'BinaryExpression': {
        if (node.operator !== '+')
          return null
        const a = evalNode(node.left, depth + 1)
        if (!a || (a.k !== 'str' && a.k !== 'num'))
          return null
        const b = evalNode(node.right, depth + 1)
        if (!b || (b.k !== 'str' && b.k !== 'num'))
          return null
        if (a.k === 'num' && b.k === 'num')
          return { k: 'num', v: a.v + b.v }
        return str(String(a.v) + String(b.v))
      }
      case 'Identifier':
        return evalIdentifier(node.name, depth)
      case 'ThisExpression':
        return null
      case 'ArrayExpression': {
        if (node.elements.length > 256)
          return null
        return {
          k: 'arr',
          v: node.elements.map((e: Node | null) => (e && e.type !== 'SpreadElement' ? evalNode(e, depth + 1) : null)),
        }
      }
      case 'ParenthesizedExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
      case 'ChainExpression':
      case 'AwaitExpression':
      case 'TSInstantiationExpression':
        return evalNode(node.expression ?? node.argument, depth + 1)
      case 'SequenceExpression':
        return evalNode(node.expressions[node.expressions.length - 1], depth + 1)
      case 'ConditionalExpression':
        return evalNode(node.consequent, depth + 1) ?? evalNode(node.alternate, depth + 1)
      case 'LogicalExpression':
        return evalNode(node.left, depth + 1) ?? evalNode(node.right, depth + 1)
      case 'AssignmentExpression':
        return evalNode(node.right, depth + 1)
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ClassExpression':
        return { k: 'fn' }
      case 'MemberExpression':
        return evalMember(node, depth)
      case 'ImportExpression': {
        const s = evalNode(node.source, depth + 1)
        return s?.k === 'str' ? { k: 'mod', name: normalizeModule(s.v) } : null
      }
      case 'CallExpression':
      case 'NewExpression':
        return evalCall(node, depth)
      default:
        return null
    }
  }

  function evalIdentifier(name: string, depth: number): Value | null {
    const list = bindings.get(name)
    if (list) {
      if (resolving.has(name))
        return null
      resolving.add(name)
      try {
        for (const b of list) {
          const v = b()
          if (v)
            return v
        }
      }
      finally {
        resolving.delete(name)
      }
      return null
    }
    if (locals.has(name))
      return null
    if (GLOBAL_OBJECTS.has(name))
      return { k: 'global' }
    if (GLOBAL_NAMES.has(name))
      return { k: 'gv', name }
    void depth
    return null
  }

  function propName(node: Node, depth: number): string | null {
    if (!node.computed) {
      return node.property?.type === 'Identifier' || node.property?.type === 'PrivateIdentifier'
        ? node.property.name
        : null
    }
    const p = evalNode(node.property, depth + 1)
    return p && (p.k === 'str' || p.k === 'num') ? String(p.v) : null
  }

  function member(obj: Value, prop: string): Value | null {
    if (prop === 'constructor') {
      if (obj.k === 'fn' || obj.k === 'gv' || obj.k === 'mem')
        return { k: 'gv', name: 'Function' }
      return { k: 'fn' }
    }
    switch (obj.k) {
      case 'global':
        if (GLOBAL_OBJECTS.has(prop))
          return obj
        return { k: 'gv', name: prop }
      case 'gv':
        if (obj.name === 'process' && prop === 'env')
          return { k: 'env' }
        if (obj.name === 'process' && prop === 'mainModule')
          return { k: 'gv', name: 'module' }
        if (obj.name === 'module' && prop === 'require')
          return { k: 'gv', name: 'require' }
        if (obj.name === 'module' && prop === 'constructor')
          return { k: 'gv', name: 'Module' }
        if (obj.name === 'Module' && prop === '_load')
          return { k: 'gv', name: 'require' }
        return { k: 'mem', of: obj.name, name: prop }
      case 'mod':
        if (FS_MODULES.has(obj.name) && prop === 'promises')
          return { k: 'mod', name: 'fs/promises' }
        if (prop === 'default')
          return obj
        return { k: 'mem', of: obj.name, name: prop }
      case 'mem':
        // fs.promises.writeFile, axios.default.post: keep the module, take the last name.
        if (
          (FS_MODULES.has(obj.of) || NETWORK_MODULES.has(obj.of) || PROCESS_MODULES.has(obj.of))
          && (obj.name === 'promises' || obj.name === 'default')
        ) {
          return { k: 'mem', of: obj.of, name: prop }
        }
        return null
      case 'str':
      case 'num':
        return null
      case 'arr': {
        const i = Number(prop)
        return Number.isInteger(i) && i >= 0 && i < obj.v.length ? (obj.v[i] ?? null) : null
      }
      default:
        return null
    }
  }

  function evalMember(node: Node, depth: number): Value | null {
    const obj = evalNode(node.object, depth + 1)
    const prop = propName(node, depth)
    if (prop === null)
      return null
    if (!obj)
      return prop === 'constructor' ? { k: 'fn' } : null
    return member(obj, prop)
  }

  function evalCall(node: Node, depth: number): Value | null {
    const callee = node.callee
    const args: Node[] = node.arguments ?? []
    const fn = evalNode(callee, depth + 1)
    const arg = (i: number): Value | null => (args[i] ? evalNode(args[i], depth + 1) : null)
    if (fn?.k === 'gv' && fn.name === 'require') {
      const a = arg(0)
      return a?.k === 'str' ? { k: 'mod', name: normalizeModule(a.v) } : null
    }
    if (fn?.k === 'mem' && fn.of === 'module' && fn.name === 'createRequire')
      return { k: 'gv', name: 'require' }
    if (fn?.k === 'gv' && fn.name === 'atob') {
      const a = arg(0)
      const d = a?.k === 'str' ? decodeBase64(a.v) : null
      return d === null ? null : str(d)
    }
    if (fn?.k === 'mem' && fn.of === 'Buffer' && fn.name === 'from') {
      const a = arg(0)
      const enc = arg(1)
      if (a?.k !== 'str')
        return null
      if (enc?.k === 'str' && enc.v === 'base64') {
        const d = decodeBase64(a.v)
        return d === null ? null : str(d)
      }
      if (enc?.k === 'str' && enc.v === 'hex')
        return /^(?:[0-9a-f]{2})*$/i.test(a.v) ? str(Buffer.from(a.v, 'hex').toString('utf8')) : null
      return a
    }
    if (fn?.k === 'mem' && fn.of === 'String' && fn.name === 'fromCharCode') {
      if (args.length > 4096)
        return null
      let out = ''
      for (let i = 0; i < args.length; i++) {
        const c = arg(i)
        if (c?.k !== 'num')
          return null
        out += String.fromCharCode(c.v)
      }
      return str(out)
    }
    if (callee?.type === 'MemberExpression') {
      const method = propName(callee, depth)
      if (!method)
        return null
      const target = evalNode(callee.object, depth + 1)
      if (!target)
        return null
      if (target.k === 'str') {
        const a = arg(0)
        const b = arg(1)
        switch (method) {
          case 'toString':
          case 'valueOf':
          case 'trim':
            return target
          case 'toLowerCase':
            return str(target.v.toLowerCase())
          case 'toUpperCase':
            return str(target.v.toUpperCase())
          case 'concat':
            return a && (a.k === 'str' || a.k === 'num') ? str(target.v + String(a.v)) : null
          case 'split':
            return a?.k === 'str' && target.v.length <= 10_000 ? { k: 'arr', v: target.v.split(a.v).map(str) } : null
          case 'replace':
          case 'replaceAll': {
            if (a?.k !== 'str' || b?.k !== 'str')
              return null
            // Bounded before it is built: `s.replaceAll('', big)` puts `big` between every two characters.
            const times = method === 'replace' ? 1 : a.v === '' ? target.v.length + 1 : target.v.split(a.v).length - 1
            if (target.v.length + times * b.v.length > MAX_FOLDED)
              return null
            return str(method === 'replace' ? target.v.replace(a.v, () => b.v) : target.v.split(a.v).join(b.v))
          }
          case 'slice':
          case 'substring':
            return a?.k === 'num' ? str(target.v[method](a.v, b?.k === 'num' ? b.v : undefined)) : null
          case 'repeat':
            return a?.k === 'num' && a.v >= 0 && a.v * target.v.length <= 10_000 ? str(target.v.repeat(a.v)) : null
          default:
            return null
        }
      }
      if (target.k === 'arr') {
        if (method === 'reverse')
          return { k: 'arr', v: [...target.v].reverse() }
        if (method === 'join') {
          const a = arg(0)
          const sep = a?.k === 'str' ? a.v : args.length ? null : ','
          if (sep === null || target.v.some(x => !x || (x.k !== 'str' && x.k !== 'num')))
            return null
          const parts = target.v.map(x => String((x as { v: string | number }).v))
          if (parts.reduce((n, p) => n + p.length, 0) + parts.length * sep.length > MAX_FOLDED)
            return null
          return str(parts.join(sep))
        }
        return null
      }
      if (target.k === 'gv' && target.name === 'Reflect' && method === 'get') {
        const o = arg(0)
        const p = arg(1)
        return o && p && (p.k === 'str' || p.k === 'num') ? member(o, String(p.v)) : null
      }
      if (target.k === 'gv' && target.name === 'Object' && method === 'getPrototypeOf')
        return arg(0)?.k === 'fn' ? { k: 'fn' } : null
    }
    return null
  }

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
    if (++work > maxWork)
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
      if (++work > maxWork)
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
        if (++work > maxWork)
          tooLarge()
        if (
          node.type === 'VariableDeclarator'
          && node.id?.type === 'Identifier'
          && node.init
          && !tainted.has(node.id.name)
        ) {
          evaluations = 0
          if (subtreeHas(node.init, isSecretSource))
            tainted.add(node.id.name)
        }
        pushChildren(node, declStack)
      }
    }
  }

  for (const { node, parent } of interesting) {
    evaluations = 0
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
          report('network_access', node, 'makes a network request')
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
