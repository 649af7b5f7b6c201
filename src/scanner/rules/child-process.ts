import type { RuleModule } from '../types'

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
}
