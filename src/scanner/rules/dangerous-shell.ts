import type { RuleModule } from '../types'

const RM_TARGET = [
  String.raw`["']?(?:\/\*?|~\/?\*?|\$HOME\/?\*?|\$\{HOME\}\/?\*?|\*|\.\/?\*?`,
  String.raw`|\/(?:etc|usr|bin|boot|var|home|lib|lib64|opt|root|sbin|dev|sys|proc|System|Users|Library`,
  String.raw`|Applications)\/?\*?|\$\{?\w+\}?\/\*?)["']?(?=\s|$|[;&|)\`])`,
].join('')

/**
 * Destructive or privilege-raising shell commands. `sudo`, `chmod 777` and TLS opt-outs are warnings; wiping disks is
 * an error.
 */
export const dangerousShell: RuleModule = {
  meta: {
    id: 'dangerous_shell',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-250',
    description:
      'Dangerous shell: recursive deletion of / or home, disk wiping, fork bombs, disabling security (errors); '
      + 'sudo, chmod 777, disabled TLS verification (warnings).',
    hint: 'Scope destructive commands to the working directory, do not ask for root, keep TLS verification on.',
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
      anchor: 'setenforce|ufw|MpPreference|iptables|spctl|csrutil',
      re: new RegExp(
        [
          String.raw`\bsetenforce\s+0\b|\bufw\s+disable\b|\bSet-MpPreference\b[^\n]{0,80}-Disable\w*\s+\$?true`,
          String.raw`|\biptables\s+-F\b|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'disables a system security control',
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
    {
      anchor: [
        String.raw`insecure|\s-k\b|no-check-certificate|NODE_TLS_REJECT|rejectUnauthorized|verify\s*=\s*False`,
        String.raw`|PYTHONHTTPSVERIFY|GIT_SSL_NO_VERIFY|sslVerify|strict-ssl|_create_unverified_context|CERT_NONE`,
        String.raw`|InsecureSkipVerify`,
        String.raw`|trusted-host`,
      ].join(''),
      re: new RegExp(
        [
          String.raw`\bcurl\b[^\n]{0,200}?\s(?:-k|--insecure)\b|\bwget\b[^\n]{0,200}?--no-check-certificate\b`,
          String.raw`|NODE_TLS_REJECT_UNAUTHORIZED\s*[=:]\s*['"]?0|rejectUnauthorized\s*:\s*false`,
          String.raw`|\bverify\s*=\s*False\b|PYTHONHTTPSVERIFY\s*=\s*['"]?0|GIT_SSL_NO_VERIFY\s*=\s*['"]?(?:1|true)`,
          String.raw`|http\.sslVerify\s+false|strict-ssl\s+false|_create_unverified_context|\bCERT_NONE\b`,
          String.raw`|InsecureSkipVerify\s*:\s*true|--trusted-host\b`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'prose', 'text', 'py', 'js'],
      view: 'noComments',
      message: 'disables TLS certificate verification',
      severity: 'warning',
    },
  ],
}
