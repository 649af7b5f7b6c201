import type { AstContext } from './ast-rule'
import type { Node } from './walk'
import { normalizeModule } from './values'

/**
 * What loading a module takes in the text when its name is computed or hidden: `import(`, a `require(` whose
 * argument is not a plain string, `process.mainModule` (its `require`).
 */
export const MODULE_LOAD_TRIGGERS: readonly string[] = [
  String.raw`\bimport\s*\(`,
  String.raw`\brequire\s*\(\s*(?!['"][^'"\n]*['"]\s*\))`,
  String.raw`\bprocess\s*\.\s*mainModule`,
]

/** How a node loads a module: an import declaration, a dynamic `import()`, a `require()` call. */
export type LoadKind = 'import' | 'dynamic' | 'require'

/** The module a node loads (`node:` prefix removed), null when the node loads none or its name is unknown. */
export function loadedModule(context: AstContext, node: Node): { kind: LoadKind, name: string } | null {
  if (node.type === 'ImportDeclaration')
    return { kind: 'import', name: normalizeModule(String(node.source?.value ?? '')) }
  if (node.type !== 'ImportExpression' && !isRequire(context, node))
    return null
  const v = context.evaluate(node)
  return v?.k === 'mod' ? { kind: node.type === 'ImportExpression' ? 'dynamic' : 'require', name: v.name } : null
}

/** A call of `require` (through aliases, `module.require`, `process.mainModule.require`...). */
export function isRequire(context: AstContext, node: Node): boolean {
  if (node.type !== 'CallExpression' && node.type !== 'NewExpression')
    return false
  const fn = context.evaluate(node.callee)
  return fn?.k === 'gv' && fn.name === 'require'
}
