import type { Value } from './values'
import type { Budget, Node } from './walk'
import { Buffer } from 'node:buffer'
import { FS_MODULES, GLOBAL_NAMES, GLOBAL_OBJECTS, NETWORK_MODULES, normalizeModule, PROCESS_MODULES } from './values'
import { MAX_SITE_EVALUATIONS, tooLarge } from './walk'

type Binding = () => Value | null

const MAX_EVAL_DEPTH = 48
/**
 * Folded strings longer than this are unknown: what the rules compare (module names, `eval`, paths)
 * is short, and a chain of `s = s + s` would otherwise double a string per line.
 */
const MAX_FOLDED = 64 * 1024
const str = (v: string): Value | null => (v.length > MAX_FOLDED ? null : { k: 'str', v })

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

/** A property of a folded value: what `obj[prop]` names, or null when unknown. */
export function member(obj: Value, prop: string): Value | null {
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

/** The constant folder of one program: the bindings pass 1 records, and a node's value through them. */
export interface Folder {
  /** Names declared without a value to follow (parameters, `let x`): unknown, not the globals of that name. */
  locals: Set<string>
  bind: (name: string, b: Binding) => void
  evalNode: (node: Node | null | undefined, depth?: number) => Value | null
}

export function createFolder(budget: Budget): Folder {
  const bindings = new Map<string, Binding[]>()
  const locals = new Set<string>()
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
      if (budget.evaluations <= MAX_SITE_EVALUATIONS) {
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
    if (!node || depth > MAX_EVAL_DEPTH || ++budget.evaluations > MAX_SITE_EVALUATIONS)
      return null
    if (++budget.work > budget.maxWork)
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
  return { locals, bind, evalNode }
}
