import type { SkillFile } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import { excerptAt } from '../excerpt'
import { LineIndex } from '../lines'
import { findFences, markCautionary } from '../markdown'
import { hitLines } from './skill-hits'

const RULE = 'agent_config_tampering'

/** Files an agent or the user's shell reads and obeys: instructions, memory, settings, hooks, autostart entries. */
const TARGET = new RegExp(
  String.raw`(?:^|[\s"'\`(=/~\\:])(?:(?:CLAUDE|AGENTS|GEMINI|MEMORY|CLAUDE\.local)\.md`
  + String.raw`|\.claude[/\\](?:settings(?:\.local)?`
  + String.raw`\.json|commands[/\\]|agents[/\\]|hooks[/\\]|memory)|\.cursor[/\\]rules|\.cursorrules|\.windsurfrules`
  + String.raw`|\.clinerules|copilot-instructions\.md|\.github[/\\]instructions[/\\]|\.?mcp\.json`
  + String.raw`|claude_desktop_config\.json|\.claude\.json\b`
  + String.raw`|\.codex[/\\]config\.toml|\.gemini[/\\]settings\.json|\.continue[/\\]config|\.aider\.conf`
  + String.raw`|\.git[/\\]hooks[/\\]|\.husky[/\\]|core\.hooksPath|\.(?:bashrc|bash_profile|bash_login|zshrc|zprofile`
  + String.raw`|zshenv`
  + String.raw`|profile|config[/\\]fish[/\\]config\.fish)\b|PowerShell_profile\.ps1|\$PROFILE\b|\bcrontab\b`
  + String.raw`|[/\\]etc[/\\]cron|[/\\]var[/\\]spool[/\\]cron|LaunchAgents|LaunchDaemons|\blaunchctl\b`
  + String.raw`|\.config[/\\]autostart|systemd[/\\]user[/\\]|CurrentVersion\\\\?Run\b)`,
  'i',
)
const MEMORY = new RegExp(
  String.raw`\b(?:save|store|add|write|record|remember|persist|commit)\b[^.\n]{0,60}\b(?:to|in|into)\s+`
  + String.raw`(?:your\s+(?:persistent\s+|long[-\s]term\s+|permanent\s+)?memory|(?:persistent|long[-\s]term|permanent)`
  + String.raw`\s+memory|(?:the\s+)?memory\s+(?:file|tool|store|bank))\b`,
  'i',
)

/** Same line: a shell write into the target, or a prose verb telling the agent to write it. */
const WRITE_SAME = new RegExp(
  String.raw`\btee\b|\b(?:cp|mv|install|rsync|ln)\s|\bsed\s+-i|\bcrontab\s+(?:-\s*$|-\s|[\w./~-]+\s*$)`
  + String.raw`|\|\s*crontab\b|\blaunchctl\s+(?:load|bootstrap|submit)|\bcore\.hooksPath\b|\bchmod\s+\+?[0-7x]+`
  + String.raw`|\b(?:Add-Content|Set-Content|Out-File|New-ItemProperty|reg\s+add)\b`,
  'i',
)
const VERB = new RegExp(
  String.raw`\b(?:add|append|write|insert|save|put|place|create|update|edit|modify|overwrite|replace|copy`
  + String.raw`|store|register|paste|prepend|inject|install|drop|patch)\b`,
  'i',
)
/** "read AGENTS.md", "according to CLAUDE.md": the verb before is about another object. */
const READ_BEFORE = /\b(?:read|check|see|open|review|inspect|look\s+at|according\s+to)\s+\S*$/i
/** Near the target (code): a file write call (JavaScript, Python, shell, PowerShell). */
const WRITE_CODE = new RegExp(
  String.raw`\bopen\s*\([^)\n]*["'][rwb+]*[wa]|\.write_text\s*\(|\.write\s*\(|\b(?:writeFile|appendFile`
  + String.raw`|writeFileSync|appendFileSync|createWriteStream)\s*\(|\bcopyfile\s*\(|\bshutil\.copy`
  + String.raw`|>>?\s*["']?\$\w+|\b(?:Set-Content|Add-Content|Out-File)\b|\[(?:System\.)?IO\.File\]::WriteAll`,
)

/** What makes the write an attack rather than a setup step: permissions, concealment, remote instructions, payloads. */
const ESCALATE: Array<[RegExp, string]> = [
  [
    new RegExp(
      // Every command allowed (`"Bash"`, `"*"`, `Bash(*)`), not a list of scoped ones (`"Bash(npm run lint)"`).
      String.raw`Bash\(\*\)|"allow"\s*:\s*\[[^\]]{0,400}?"(?:\*|Bash|Bash\(:?\*\))"`
      + String.raw`|bypassPermissions|dangerously|autoApprove`
      + String.raw`|alwaysAllow|"defaultMode"|approval_policy|danger-full-access|enableAllProjectMcpServers`
      + String.raw`|skip\s+(?:all\s+)?(?:permission|confirmation)|["']mcp__[\w-]+__\*["']`,
      'i',
    ),
    'grants permissions',
  ],
  [
    new RegExp(
      String.raw`\b(?:do\s+not|don['’]t|never)\s+(?:tell|mention|inform|show|reveal|disclose|ask)\b|\bsilently\b`
      // "never overwrite a file without showing a diff" asks for the showing.
      + String.raw`|\bquietly\b|\bsecretly\b`
      + String.raw`|(?<!\b(?:never|not|n['’]t)\b[^.;\n]{0,60})\bwithout\s+`
      + String.raw`(?:telling|asking|informing|notifying|showing|listing|mentioning|including|reporting)\b|\b(?:hide`
      + String.raw`|conceal)\b`,
      'i',
    ),
    'hides actions from the user',
  ],
  [
    new RegExp(
      String.raw`\b(?:fetch|load|read|download|pull|get|follow|import|source|obey|apply)\b[^\n]{0,80}https?:\/\/`
      + String.raw`|@https?:\/\/|\b(?:curl|wget|iwr|Invoke-WebRequest|Invoke-RestMethod|irm)\b[^\n]*(?:https?:\/\/`
      + String.raw`|\$)|["']url["']\s*:\s*f?["']https?:\/\/|\/dev\/tcp\/|\bbase64\s+(?:-d|--decode)|\bnc\s+-[a-z]*e\b`,
      'i',
    ),
    'pulls instructions or code from a remote host',
  ],
  [
    /\b(?:curl|wget)\b[^\n]*\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file|--post-data)[\s=]/,
    'sends data to a remote host',
  ],
]

// A rule about what the file may hold, to the end of its sentence ("Never add instructions that ... hide"); "never
// tell the user" is itself the content.
const FORBIDDEN
  = /\b(?:never|do\s+not|don['’]t|must\s+not|should\s+not)\s+(?:add|write|include|insert|put|allow)\b[^.!?\n]*/gi

// A download saved to the file (`curl -fsSL https://... -o .cursor/rules/x.mdc`, `wget -O`, `-OutFile`).
const DOWNLOAD_TO = new RegExp(
  String.raw`\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]*`
  + String.raw`(?:\s-[a-zA-Z]*[oO]|--output(?:-document)?|-OutFile)\s*=?\s*["']?[^\s"']*$`,
)

/** The content a write carries: the line, then what follows up to the end of its paragraph or fenced block. */
function contentOf(lines: string[], at: number): string {
  const out = [lines[at]!]
  // A heredoc's content ends at its delimiter.
  const heredoc = /<<-?\s*["']?(\w+)/.exec(lines[at]!)?.[1]
  if (heredoc) {
    for (let i = at + 1; i < lines.length && i <= at + 60 && lines[i]!.trim() !== heredoc; i++) out.push(lines[i]!)
    return out.join('\n')
  }
  let fence = false
  for (let i = 0; i < at; i++) {
    if (/^\s*(?:```|~~~)/.test(lines[i]!))
      fence = !fence
  }
  for (let i = at + 1; i < lines.length && i <= at + 30; i++) {
    const l = lines[i]!
    if (/^\s*(?:```|~~~)/.test(l)) {
      out.push(l)
      if (fence)
        break
      fence = true
      continue
    }
    // A heading ends it (an indented line is a code block's, not a heading).
    if (!fence && /^\s{0,3}#{1,6}\s/.test(l))
      break
    // A blank line ends the paragraph, unless the paragraph leads (`... the following block:`) into a fenced or
    // indented block: that block is the content.
    const leads = /:\s*$/.test(out[out.length - 1]!) && /^(?: {4}|\t)\S/.test(lines[i + 1] ?? '')
    if (!fence && !l.trim() && !/^\s*(?:```|~~~)/.test(lines[i + 1] ?? '') && !leads)
      break
    out.push(l)
  }
  return out.join('\n')
}

/** Code joins path parts (`Path.home() / ".claude" / "settings.json"`, `join(home, ".bashrc")`): read them as one. */
const joined = (line: string): string => line.replace(/["']\s*\)?\s*(?:\/|,|\+)\s*["']/g, '/')

/**
 * The files a write installs from the skill itself (`cp resources/rules/ops.mdc .cursor/rules/`, `cat
 * resources/block.md >> CLAUDE.md`, "merge `resources/hooks.json` into settings"): their text is the content too.
 */
function installed(content: string, self: string, shipped: readonly SkillFile[]): string {
  const texts = shipped.filter(f => f.path !== self && f.path.includes('/') && f.text && content.includes(f.path))
  return texts.length ? `${content}\n${texts.map(f => f.text).join('\n')}` : content
}

function scanFile(file: SkillFile, shipped: readonly SkillFile[]): RawFinding[] {
  const text = file.text!
  const builds = /\.(?:[cm]?[jt]sx?|py|ps[md]?1)$/i.test(file.path)
  const candidates = hitLines(file, 'agentConfig').map(h => h.line)
  if (!candidates.length)
    return []
  const lines = text.split('\n')
  const out: RawFinding[] = []
  for (const i of candidates) {
    const line = lines[i]!
    const norm = joined(line)
    const t = TARGET.exec(norm)
    const memory = t ? null : MEMORY.exec(line)
    if (!t && !memory)
      continue
    const at = t ? t.index + (t[0].length - t[0].trimStart().length) : memory!.index
    // A sentence wrapped over lines keeps its verb on the line before ("also append\nthe block to `CLAUDE.md`").
    const prev = i > 0 ? lines[i - 1]! : ''
    const continues = prev.trim() && !/[.:!?]\s*$/.test(prev) && !/^\s*(?:```|~~~|[#|]|[\w-]+:\s)/.test(prev)
      && !/^\s*(?:[-*+>|#]|\d{1,3}[.)])\s/.test(line)
    const before = (continues ? `${prev} ` : '') + norm.slice(0, at)
    const near = lines.slice(i, i + 4).join('\n')
    // Code may name the file in one place and write it in another (`TARGETS = [Path("CLAUDE.md")]`, then
    // `t.write_text(text)` in a loop): a script that names it as a string and writes files writes it.
    const quoted = (norm.slice(0, at + 1).match(/["'`]/g) ?? []).length % 2 === 1
    const comment = /^\s*(?:#|\/\/|\/?\*)/.test(line)
    const elsewhere = builds && t !== null && quoted && !comment && !WRITE_CODE.test(near) && WRITE_CODE.test(text)
    const written = memory !== null || />>?\s*["']?[^\s"'<>|;&]*$/.test(before) || WRITE_SAME.test(norm)
      || DOWNLOAD_TO.test(before)
      || WRITE_CODE.test(near) || elsewhere
      || (VERB.test(before) && !READ_BEFORE.test(before))
    // "never overwrite AGENTS.md", "do not add it to ~/.bashrc": a rule about the file, not a write.
    if (!written || /\b(?:never|not|don['’]t|avoid)\b[^.;:!?]*$/i.test(before))
      continue
    // JS and Python build the content before they write it (`rules = [...]; appendFileSync('AGENTS.md', rules)`);
    // shell and prose carry it on the line, in a heredoc or in the block that follows.
    const content = installed(elsewhere
      ? text
      : (builds ? lines.slice(Math.max(0, i - 8), i).join('\n') : '') + contentOf(lines, i), file.path, shipped)
    // What the text forbids is not in the content: "Never add instructions that ... hide anything".
    const asked = content.replace(/\n[ \t]+(?=\S)/g, ' ').replace(FORBIDDEN, ' ')
    const why = ESCALATE.filter(([re]) => re.test(asked)).map(([, w]) => w).join(', ') || undefined
    const what = t ? t[0].trim().replace(/^["'`(=/~\\:]+/, '') : 'its memory'
    out.push({
      rule: RULE,
      path: file.path,
      line: i + 1,
      column: Math.min(at, line.length) + 1,
      message: why
        ? `writes ${what} (agent or shell configuration) with content that ${why}`
        : `writes ${what}: agent instructions, settings, hooks or autostart entries are read on every later run`,
      excerpt: excerptAt(line, Math.min(at, line.length), what.length),
      ...(why ? {} : { severity: 'warning' as const }),
    })
  }
  return out
}

/** Writes to agent instructions, memory and settings, git hooks, shell rc files and autostart entries. */
export const agentConfig: RuleModule = {
  meta: {
    id: RULE,
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-15',
    description:
      'Agent configuration and memory tampering: writing (or telling the agent to write) CLAUDE.md, AGENTS.md, '
      + 'MEMORY.md, .claude/settings.json, .cursor/rules, .mcp.json, git hooks, shell rc files, cron or launchd '
      + 'entries. An error when the content grants permissions, hides actions or pulls remote instructions.',
    hint:
      'Show the user the change and let them make it; a skill that needs a setting says so in its documentation '
      + 'instead of writing it.',
  },
  patterns: [],
  visitSkill(skill) {
    const out: RawFinding[] = []
    for (const file of skill.files) {
      const text = file.text
      if (!text)
        continue
      const markdown = /\.(?:md|mdx|markdown)$/i.test(file.path)
      const found = scanFile(file, skill.files)
      if (found.length && markdown)
        markCautionary(found, new LineIndex(text), findFences(file), file.path)
      out.push(...found)
    }
    return out
  },
}
