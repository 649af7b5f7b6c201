import type { AstContext, AstRuleUse, AstVisitor } from './ast-rule'
import type { Value } from './values'
import type { Budget, Node } from './walk'
import { createFolder, member } from './fold'
import { normalizeModule } from './values'
import { MAX_SUBTREE, MAX_WORK, pushChildren, tooLarge } from './walk'

/** Not folded yet (a folded value may be null). */
const UNKNOWN = Symbol('unknown')

export interface AstFinding {
  rule: string
  start: number
  end: number
  message: string
}

/**
 * Analyses one parsed JS/TS program with the rules' AST visitors and returns their findings (offsets into the
 * parsed text). Pass 1 records the bindings the constant folder reads and the nodes some rule visits; pass 2
 * visits those in source order, each with the visitors of the rules that asked for its type, in the rules' order.
 */
export function analyzeProgram(program: Node, rules: readonly AstRuleUse[], maxWork = MAX_WORK): AstFinding[] {
  const interesting: Array<{ node: Node, parent: Node | null, visit: AstVisitor[] }> = []
  const findings: AstFinding[] = []
  // Evaluations of the current rule check and work of the whole program: the folder spends both.
  const budget: Budget = { evaluations: 0, work: 0, maxWork }
  const { locals, bind, evalNode } = createFolder(budget)

  // The visited node and its callee: most rules fold them, once per visit between them.
  let visited: Node | null = null
  let visitedValue: Value | null | typeof UNKNOWN = UNKNOWN
  let calleeValue: Value | null | typeof UNKNOWN = UNKNOWN
  const evaluate = (node: Node | null | undefined): Value | null => {
    if (!node || !visited)
      return evalNode(node)
    if (node === visited)
      return visitedValue === UNKNOWN ? (visitedValue = evalNode(node)) : visitedValue
    if (node === visited.callee)
      return calleeValue === UNKNOWN ? (calleeValue = evalNode(node)) : calleeValue
    return evalNode(node)
  }
  const subtreeHas = (root: Node, test: (n: Node, parent: Node | null) => boolean): boolean => {
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
  const visitors = new Map<string, AstVisitor[]>()
  for (const { id, ast } of rules) {
    const context: AstContext = {
      report: (node, message) => {
        findings.push({ rule: id, start: node.start, end: node.end, message })
      },
      evaluate,
      subtreeHas,
      program,
      budget,
    }
    for (const [type, visit] of Object.entries(ast.create(context))) {
      if (!visit)
        continue
      const list = visitors.get(type)
      if (list)
        list.push(visit)
      else visitors.set(type, [visit])
    }
  }
  const importVisitors = visitors.get('ImportDeclaration')

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
        break
      }
      case 'TSImportEqualsDeclaration': {
        const ref = node.moduleReference
        if (ref?.type === 'TSExternalModuleReference' && typeof ref.expression?.value === 'string') {
          const mod = normalizeModule(ref.expression.value)
          bind(node.id.name, () => ({ k: 'mod', name: mod }))
          // `import x = require('m')` is an import of m for the rules.
          if (importVisitors) {
            const visit = importVisitors
            interesting.push({ node: { ...node, source: ref.expression, type: 'ImportDeclaration' }, parent, visit })
          }
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
    }
    const visit = visitors.get(node.type)
    if (visit)
      interesting.push({ node, parent, visit })
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

  // --- pass 2: the rules' visitors --------------------------------------------------------------------
  for (const { node, parent, visit } of interesting) {
    budget.evaluations = 0
    visited = node
    visitedValue = UNKNOWN
    calleeValue = UNKNOWN
    for (let i = 0; i < visit.length; i++) visit[i]!(node, parent)
  }
  visited = null
  return findings
}
