import type { RuleModule } from '../types'

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
}
