import type { AstContext } from '../js/ast-rule'
import type { Node } from '../js/walk'
import { FS_MODULES, FS_READ_FNS, SENSITIVE_PATH } from '../js/values'
import { pushChildren, tooLarge } from '../js/walk'

/**
 * An identifier that names rather than reads: `x.body`'s property, and the key of `{ body: 'hello' }`, a class
 * field or a method (a shorthand `{ body }` reads `body`).
 */
function isName(n: Node, p: Node | null): boolean {
  if (!p || p.computed)
    return false
  if (p.type === 'MemberExpression')
    return p.property === n
  return (p.type === 'Property' || p.type === 'PropertyDefinition' || p.type === 'MethodDefinition')
    && p.key === n && !p.shorthand
}

/**
 * The exfiltration rule's secret sources in one program: `process.env` and its members, reads of sensitive files
 * (`readFileSync('~/.ssh/id_rsa')`), and variables initialised from either. `holdsSecret(arg)`: whether a subtree
 * reads one.
 */
export function secretSources(context: AstContext): { holdsSecret: (root: Node) => boolean } {
  const { budget, evaluate, subtreeHas } = context
  const tainted = new Set<string>()
  const isSecretSource = (n: Node, p: Node | null): boolean => {
    if (n.type === 'Identifier')
      return tainted.has(n.name) && !isName(n, p) && !(p?.type === 'FunctionDeclaration' && p.id === n)
    if (n.type === 'MemberExpression') {
      if (p?.type === 'MemberExpression' && p.object === n)
        return false
      return evaluate(n)?.k === 'env'
    }
    if (n.type === 'CallExpression') {
      const fn = evaluate(n.callee)
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
      const declStack: Node[] = [context.program]
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
        // A function declared to return a secret taints its calls, as `const f = () => process.env` does.
        if (node.type === 'FunctionDeclaration' && node.id?.type === 'Identifier' && !tainted.has(node.id.name)) {
          budget.evaluations = 0
          if (subtreeHas(node.body, x => x.type === 'ReturnStatement' && !!x.argument
            && subtreeHas(x.argument, isSecretSource))) {
            tainted.add(node.id.name)
          }
        }
        pushChildren(node, declStack)
      }
    }
  }
  return {
    holdsSecret: (root) => {
      taint()
      return subtreeHas(root, isSecretSource)
    },
  }
}
