import type { RuleModule } from '../types'

const RM_TARGET = [
  String.raw`["']?(?:\/\*?|~\/?\*?|\$HOME\/?\*?|\$\{HOME\}\/?\*?|\*|\.\/?\*?`,
  String.raw`|\/(?:etc|usr|bin|boot|var|home|lib|lib64|opt|root|sbin|dev|sys|proc|System|Users|Library`,
  String.raw`|Applications)\/?\*?|\$\{?\w+\}?\/\*?)["']?(?=\s|$|[;&|)\`])`,
].join('')

/**
 * Destructive or privilege-raising shell commands. `sudo` and `chmod 777` are warnings; wiping disks is an error.
 * Switching security off (TLS verification, SELinux, firewalls, Defender) is `security_control_disablement`'s, and
 * `--trusted-host` is `supply_chain`'s: one finding per line, from the rule that owns what it means.
 */
export const dangerousShell: RuleModule = {
  meta: {
    id: 'dangerous_shell',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-250',
    description:
      'Dangerous shell: recursive deletion of / or home, disk wiping, fork bombs, erasing shell history (errors); '
      + 'sudo, chmod 777 (warnings).',
    hint: 'Scope destructive commands to the working directory and do not ask for root.',
  },
  patterns: [
    {
      anchor: 'rm',
      re: new RegExp(
        [
          String.raw`\brm\s+(?:-[A-Za-z]+\s+|--[a-z-]+\s+)*?(?:-[A-Za-z]*[rR][A-Za-z]*[fF]`,
          String.raw`|-[A-Za-z]*[fF][A-Za-z]*[rR]|-[rR]\s+-[fF]|-[fF]\s+-[rR]|--recursive\s+--force`,
          String.raw`|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?${RM_TARGET}`,
        ].join(''),
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'recursive forced deletion of a root, home or wildcard path',
    },
    {
      anchor: 'mkfs|dd|/dev/sd|/dev/nvme|/dev/disk',
      re: new RegExp(
        [
          String.raw`\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\s+[^\n]{0,100}?\bof=\/dev\/(?:sd|hd|nvme|disk|mmcblk|xvd)`,
          String.raw`|>\s*\/dev\/(?:sd[a-z]|nvme\d|disk\d)`,
        ].join(''),
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'overwrites a disk device',
    },
    {
      anchor: ':\\s*\\(\\s*\\)',
      re: /:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'fork bomb',
    },
    {
      anchor: String.raw`HISTFILE|HISTSIZE|history\s+-c`,
      re: /\bunset\s+HISTFILE\b|\bhistory\s+-c\b|\bHISTSIZE=0\b/,
      langs: ['sh', 'prose', 'text'],
      view: 'noComments',
      message: 'erases shell history (hides actions)',
    },
    {
      anchor: 'chmod',
      re: /\bchmod\s+(?:-[A-Za-z]+\s+)*(?:0?777|a\+rwx|ugo\+rwx|a\+w|o\+w)\b/,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'world-writable permissions',
      severity: 'warning',
    },
    {
      anchor: 'sudo|doas',
      re: /(?:^|[\s;&|(`$"'])(?:sudo|doas)\s+(?!-[lvhkK]\b)[^\s#]/,
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'runs a command as root',
      severity: 'warning',
    },
  ],
}
