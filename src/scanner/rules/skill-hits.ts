import type { SkillFile } from '../../core/types'
import { buildFinder, lazyFinder } from '../finder/index'

/**
 * Literals the whole-skill visitors look for, by visitor. One literal-speed pass per file finds them all
 * (a case-insensitive regex of these alternatives costs more than the rest of those visitors), and each
 * visitor reads only the lines of its own hits.
 */
const GROUPS = {
  agentConfig: [
    'claude',
    'agents\\.md',
    'gemini',
    'memory',
    '\\.cursor',
    'windsurfrules',
    'clinerules',
    'copilot-instructions',
    '[/\\\\]instructions[/\\\\]',
    'mcp\\.json',
    '\\.codex',
    '\\.continue',
    '\\.aider',
    '[/\\\\]hooks[/\\\\]',
    '\\.husky',
    'hookspath',
    'bashrc',
    'bash_profile',
    'bash_login',
    'zshrc',
    'zprofile',
    'zshenv',
    '\\.profile',
    'config\\.fish',
    'powershell_profile',
    '\\$profile',
    'crontab',
    '[/\\\\]cron',
    'launchagents',
    'launchdaemons',
    'launchctl',
    'autostart',
    'systemd',
    'currentversion',
  ],
  install: ['install', 'add\\s', 'npx\\s', 'bunx\\s', 'pnpx\\s', 'npm\\s', 'pnpm\\s', 'bun\\s'],
  run: ['scripts?/', 'bin/', 'tools/', 'resources/', 'lib/', 'hooks/', 'setup/', 'install/'],
  // What names a dependency of another ecosystem (typosquat.ts); Dockerfile's `FROM` is looked for apart, by case.
  deps: [
    'go\\s+get',
    'go\\s+install',
    'require\\s+\\(',
    'require\\s+[\\w-]+\\.',
    'gem\\s+install',
    'gem\\s+[\'"]',
    'bundle\\s+add',
    'cargo\\s+add',
    'cargo\\s+install',
    'uses:',
    'image:',
    'dependencies\\]',
  ],
  // A literal of every alternative of the network sinks of `exfil-flow.ts`: a line without one holds none.
  // Those the sinks match inside a word are wrapped in a group (a token that starts with a word character
  // is matched at a word start).
  sink: [
    '(?:stream_context_create)',
    '(?:wp_(?:safe_)?remote_)',
    '(?:fsockopen)',
    '(?:file_get_contents)',
    '(?:PostAsync|PutAsync|SendAsync|PostAsJsonAsync|PutAsJsonAsync|SendAsJsonAsync)',
    '(?:UnityWebRequest)',
    'Net\\.Sockets',
    'curl',
    'wget',
    'nc',
    'ncat',
    'netcat',
    'socat',
    'telnet',
    'scp',
    'rsync',
    'sftp',
    'ftp',
    'mail',
    'sendmail',
    'mutt',
    'xh',
    'httpie',
    'http',
    '/dev/',
    '(?:openssl)',
    '(?:invoke-)',
    'iwr',
    'irm',
    '(?:send-mailmessage)',
    '(?:net\\.webclient)',
    '(?:upload(?:string|file))',
    'requests',
    'httpx',
    'urlopen',
    'request',
    '(?:https?connection)',
    '\\.send',
    '(?:smtplib)',
    'aiohttp',
    'session',
    'fetch',
    'axios',
    '(?:xmlhttprequest)',
    '(?:sendbeacon)',
    'websocket',
    'got',
    '(?:nodemailer)',
    'net',
    'tls',
    '(?:net::http)',
    'tcpsocket',
    'aws\\s',
    'gsutil',
    'gcloud\\s',
    'az\\s',
    'azcopy',
    'rclone',
    's3cmd',
    'gh\\s',
    'git\\s',
    'httr',
    'curl_fetch_',
    'rcurl',
    'postform',
    'downloads\\.',
  ],
} as const

export type HitGroup = keyof typeof GROUPS

/** The finder's tokens, longest first (the build ships its tables: `finder/builtin.ts`). */
export const SKILL_HIT_TOKENS: readonly string[] = [
  ...new Set(Object.values(GROUPS).flat().map(t => (/^\w/.test(t) ? `\\b${t}` : t))),
].sort((a, b) => b.length - a.length)
const finder = lazyFinder(() => buildFinder(SKILL_HIT_TOKENS, true))
const groupRe = Object.fromEntries(
  Object.entries(GROUPS).map(([g, list]) => [g, new RegExp(`^(?:${list.join('|')})`, 'i')]),
) as Record<HitGroup, RegExp>

/** A line holding a hit: its 0-based number and its text. */
export interface HitLine {
  line: number
  text: string
}

/** Per file: the lines holding a hit of each group. */
const cache = new WeakMap<SkillFile, Record<HitGroup, HitLine[]>>()

/** The lines of a file that hold a literal of `group`, in order (none for binary files). */
export function hitLines(file: SkillFile, group: HitGroup): HitLine[] {
  let found = cache.get(file)
  if (!found) {
    found = { agentConfig: [], install: [], run: [], deps: [], sink: [] }
    const text = file.text ?? ''
    let line = 0
    let pos = 0
    for (let h = finder.next(text, 0); h; h = finder.next(text, h.index + (h.text.length || 1))) {
      for (let nl = text.indexOf('\n', pos); nl !== -1 && nl < h.index; nl = text.indexOf('\n', nl + 1)) {
        line++
        pos = nl + 1
      }
      for (const g of Object.keys(GROUPS) as HitGroup[]) {
        const list = found[g]
        if (list[list.length - 1]?.line !== line && groupRe[g].test(h.text)) {
          const end = text.indexOf('\n', h.index)
          list.push({ line, text: text.slice(pos, end === -1 ? text.length : end).replace(/\r$/, '') })
        }
      }
    }
    cache.set(file, found)
  }
  return found[group]
}
