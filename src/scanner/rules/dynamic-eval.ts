import type { AstRule } from '../js/ast-rule'
import type { Node } from '../js/walk'
import type { RuleModule } from '../types'
import { EVAL_CALL_TRIGGERS, isEvalCallee } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'

const ast: AstRule = {
  triggers: [
    ...EVAL_CALL_TRIGGERS,
    String.raw`\bReflect\b`,
    String.raw`\bset(?:Timeout|Interval|Immediate)\s*\(\s*['"\`]`,
    ...HIDDEN_NAME_TRIGGERS,
  ],
  create: (context) => {
    const call = (node: Node): void => {
      const fn = context.evaluate(node.callee)
      const args: Node[] = node.arguments ?? []
      if (isEvalCallee(fn)) {
        const name = fn!.k === 'gv'
          ? fn!.name === 'eval' ? 'eval()' : 'the Function constructor'
          : `vm.${(fn as { name: string }).name}`
        context.report(node, `${name} runs a string as code`)
      }
      else if (fn?.k === 'gv' && /^set(?:Timeout|Interval|Immediate)$/.test(fn.name)) {
        const a = args[0] ? context.evaluate(args[0]) : null
        if (a?.k === 'str')
          context.report(node, `${fn.name} with a string evaluates it as code`)
      }
      else if (fn?.k === 'mem' && fn.of === 'Reflect' && (fn.name === 'apply' || fn.name === 'construct')) {
        if (args[0] && isEvalCallee(context.evaluate(args[0])))
          context.report(node, `Reflect.${fn.name} invokes eval/Function`)
      }
    }
    return { CallExpression: call, NewExpression: call }
  },
}

/** Dynamic code execution: eval, the Function constructor, vm, string timers. JS is handled by the AST pass. */
export const dynamicEval: RuleModule = {
  meta: {
    id: 'dynamic_eval',
    kind: 'capability',
    capability: 'dynamic-code',
    severity: 'error',
    cwe: 'CWE-95',
    description: 'Dynamic code execution (eval, new Function, vm.run*, exec/compile in Python) lets text become code.',
    hint: 'Call the code directly; never build code from strings or data.',
  },
  patterns: [
    {
      // `compile()` alone only builds a code object (syntax checks do it): running it takes `exec` or `eval`.
      anchor: 'eval|exec|__import__',
      re: /(?<![.\w$])(?:eval|exec)\s*\(|\b__import__\s*\(/,
      langs: ['py'],
      view: 'code',
      message: 'Python evaluates a string as code',
    },
    {
      anchor: 'eval',
      re: /(?<![.\w$])eval\s*\(/,
      langs: ['js'],
      view: 'code',
      message: 'eval() runs a string as code',
      astCovered: true,
    },
    {
      anchor: 'Function',
      re: /(?<![.\w$])(?:new\s+)?Function\s*\(/,
      langs: ['js'],
      view: 'code',
      message: 'the Function constructor runs a string as code',
      astCovered: true,
    },
    {
      anchor: 'setTimeout|setInterval',
      re: /\b(?:setTimeout|setInterval)\s*\(\s*['"`]/,
      langs: ['js'],
      view: 'noComments',
      message: 'a timer given a string evaluates it as code',
      astCovered: true,
    },
    {
      anchor: 'runIn|compileFunction',
      re: /\b(?:runInThisContext|runInNewContext|runInContext|compileFunction)\s*\(/,
      langs: ['js'],
      view: 'code',
      message: 'vm runs a string as code',
      astCovered: true,
    },
    {
      anchor: 'Invoke-Expression',
      re: /\bInvoke-Expression\b/i,
      langs: ['sh'],
      view: 'code',
      message: 'PowerShell Invoke-Expression runs a string as code',
    },
    {
      anchor: 'eval',
      re: /(?<![\w$])(?:eval|instance_eval|class_eval|module_eval|instance_exec)\s*[( ]\s*[^\s)]|\bsend\s*\(\s*:eval\b/,
      langs: ['rb'],
      view: 'code',
      message: 'Ruby evaluates a string as code',
    },
  ],
  ast,
}
