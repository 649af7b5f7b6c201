import type { AstContext, AstRule } from '../js/ast-rule'
import type { Value } from '../js/values'
import type { Node } from '../js/walk'
import type { RuleModule } from '../types'
import { RUNTIME_TRIGGER } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'
import { loadedModule, MODULE_LOAD_TRIGGERS } from '../js/modules'
import { PROCESS_MODULES } from '../js/values'

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

/** A callee that spawns a process: child_process's functions, a process module, native bindings, Deno and Bun. */
function isProcessCallee(v: Value | null): boolean {
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

const LOADS = {
  import: (name: string) => `imports ${name}, which spawns processes`,
  dynamic: (name: string) => `dynamically imports ${name}`,
  require: (name: string) => `requires ${name}, which spawns processes`,
}

/** Reports an import or `require` of a process module. */
function checkLoad(context: AstContext, node: Node): void {
  const mod = loadedModule(context, node)
  if (mod && PROCESS_MODULES.has(mod.name))
    context.report(node, LOADS[mod.kind](mod.name))
}

const ast: AstRule = {
  triggers: [
    String.raw`\b(?:child_process|execSync|execFileSync|execFile|exec|spawnSync|spawn|fork|execa|shelljs|zx|dlopen`
    + String.raw`|binding|_linkedBinding)\b`,
    RUNTIME_TRIGGER,
    String.raw`\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen)`,
    ...MODULE_LOAD_TRIGGERS,
    ...HIDDEN_NAME_TRIGGERS,
  ],
  create: (context) => {
    const call = (node: Node): void => {
      const fn = context.evaluate(node.callee)
      if (fn?.k === 'gv' && fn.name === 'require')
        checkLoad(context, node)
      else if (isProcessCallee(fn))
        context.report(node, 'spawns a process')
    }
    return {
      ImportDeclaration: node => checkLoad(context, node),
      ImportExpression: node => checkLoad(context, node),
      CallExpression: call,
      NewExpression: call,
    }
  },
}

/**
 * Process spawning. Shell scripts are processes by nature and are governed by `allowed-tools: Bash`, so only JS and
 * Python are read here.
 */
export const childProcess: RuleModule = {
  meta: {
    id: 'child_process',
    kind: 'capability',
    capability: 'process',
    severity: 'error',
    cwe: 'CWE-78',
    description:
      'Process spawning (child_process, subprocess, os.system) can run arbitrary commands and escape the agent '
      + 'sandbox.',
    hint:
      'Declare `capabilities: [process]` (or `allowed-tools: Bash`) if the skill must run commands, and never build '
      + 'command lines from input.',
  },
  patterns: [
    {
      anchor: 'subprocess',
      re: /\bsubprocess\b/,
      langs: ['py'],
      view: 'code',
      message: 'Python subprocess spawns processes',
    },
    {
      anchor: String.raw`os\s*\.\s*(?:system|popen|exec|spawn|posix_spawn|fork)`,
      re: /\bos\s*\.\s*(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?|fork|forkpty)\s*\(/,
      langs: ['py'],
      view: 'code',
      message: 'os-level process spawn',
    },
    {
      anchor: '__import__',
      re: /\b__import__\s*\(\s*['"](?:os|subprocess|pty|commands)['"]\s*\)/,
      langs: ['py'],
      view: 'noComments',
      message: 'imports a process module dynamically',
    },
    {
      anchor: 'pty|commands|create_subprocess',
      re: /\bpty\s*\.\s*spawn\s*\(|\bcommands\s*\.\s*getoutput\s*\(|\bcreate_subprocess_(?:exec|shell)\b/,
      langs: ['py'],
      view: 'code',
      message: 'process spawn',
    },
    {
      anchor: 'child_process',
      re: /\bchild_process\b/,
      langs: ['js'],
      view: 'noComments',
      message: 'child_process spawns processes',
      astCovered: true,
    },
    {
      anchor: 'exec|spawn|fork',
      re: /\b(?:execSync|execFileSync|spawnSync|execFile|spawn|fork)\s*\(/,
      langs: ['js'],
      view: 'code',
      message: 'process spawn call',
      astCovered: true,
    },
    {
      anchor: 'system|exec|spawn|popen|Open3|%x|`',
      re: new RegExp(
        [
          String.raw`(?:^|[^\w.:$@])(?:Kernel\s*\.\s*)?(?:system|exec|spawn)\s*(?:\(|['"%])`,
          String.raw`|\b(?:Process\s*\.\s*spawn|IO\s*\.\s*popen|PTY\s*\.\s*spawn|Open3\s*\.\s*\w+)\b`,
          String.raw`|%x[{([<|!]|(?:^|[=(,\s])\x60[^\x60\n]+\x60`,
        ].join(''),
      ),
      langs: ['rb'],
      view: 'noComments',
      message: 'Ruby runs a command (system, exec, backticks, %x, popen, Open3)',
    },
    {
      anchor: 'os/exec|exec|StartProcess|ForkExec',
      re: new RegExp(
        [
          String.raw`"os\/exec"|\bexec\s*\.\s*Command(?:Context)?\s*\(`,
          String.raw`|\b(?:os\s*\.\s*StartProcess|syscall\s*\.\s*(?:Exec|ForkExec))\s*\(`,
        ].join(''),
      ),
      langs: ['go'],
      view: 'noComments',
      message: 'Go runs a command (os/exec)',
    },
  ],
  ast,
}
