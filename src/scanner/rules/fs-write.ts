import type { SkillSource } from '../../core/types'
import type { AstRule } from '../js/ast-rule'
import type { Value } from '../js/values'
import type { Node } from '../js/walk'
import type { LinePattern, RawFinding, RuleModule } from '../types'
import { excerptAt } from '../excerpt'
import { RUNTIME_TRIGGER } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'
import { FS_MODULES, FS_WRITE_FNS } from '../js/values'
import { maskViews } from '../mask'
import { sniffLang } from '../sniff'
import { markQuoted, unitsOf } from './code-units'

// Filesystem writes as the text names them (node:fs, fs-extra, Deno).
const FS_WRITES = (
  'writeFile writeFileSync appendFile appendFileSync mkdir mkdirSync unlink unlinkSync rm rmSync rmdir '
  + 'rmdirSync rename renameSync copyFile copyFileSync cp cpSync createWriteStream chmod chmodSync chown '
  + 'chownSync truncate truncateSync symlink symlinkSync outputFile outputFileSync writeJson '
  + 'writeJsonSync remove removeSync emptyDir move moveSync writeTextFile write'
).split(' ')

/** A callee that writes: an fs module's writing function, `Bun.write`, Deno's write, mkdir, remove, rename... */
function isFsWrite(v: Value | null): boolean {
  return !!v
    && v.k === 'mem'
    && ((FS_MODULES.has(v.of) && FS_WRITE_FNS.has(v.name))
      || (v.of === 'Bun' && v.name === 'write')
      || (v.of === 'Deno' && /^(?:write\w*|mkdir\w*|remove\w*|rename\w*|create\w*)$/.test(v.name)))
}

const ast: AstRule = {
  triggers: [String.raw`\b(?:${FS_WRITES.join('|')})\b`, RUNTIME_TRIGGER, ...HIDDEN_NAME_TRIGGERS],
  create: (context) => {
    const call = (node: Node): void => {
      const fn = context.evaluate(node.callee)
      if (isFsWrite(fn))
        context.report(node, `writes to the filesystem (${(fn as { name: string }).name})`)
    }
    return { CallExpression: call, NewExpression: call }
  },
}

/**
 * What precedes a shell command word (a lookbehind: a finding points at the command): a line's start (after a
 * `$ ` prompt), a separator or subshell, or a command that runs the next one (`sudo`, `xargs`, `find -exec`).
 * `git rm`, `docker cp` and `aws s3 cp` name a subcommand, not the command: they don't start here.
 */
const SH_COMMAND = [
  String.raw`(?<=^\s*(?:\$\s+)?|[;&|({\`]\s*`,
  String.raw`|(?:^|\s)(?:then|do|else|sudo|doas|xargs|nohup|time|command|-exec|-execdir)\s+(?:-\w+\s+)*)`,
].join('')

// The commands that write whatever their first argument is; `tee` and `sed` only in some forms.
const SH_WRITERS = 'rm|rmdir|mkdir|touch|cp|mv|ln|chmod|chown|truncate'

// Targets that write no file: the null device, the standard streams, and sockets (`/dev/tcp/host/port`).
const NO_FILE = String.raw`["']?\/dev\/(?:null|stdout|stderr|tty|fd\/\d|tcp\/|udp\/)`

/**
 * Whether a position follows an odd number of double quotes with no `$(` or backtick since the last: inside a
 * string (single-quoted text is already blank in the `code` view).
 */
function inDoubleQuotes(before: string): boolean {
  const quotes = before.replace(/\\./g, '  ').match(/"/g)?.length ?? 0
  return quotes % 2 === 1 && !/\$\(|`/.test(before.slice(before.lastIndexOf('"')))
}

// Text before a `>` that is not a shell command's: a test or arithmetic still open (`[[ a > b`, `(( n > 1`),
// a call or condition still open (`print(a > b`, `if (a > b`), an open tag (`<div class="x">`), a label
// (`Usage: tool > out`), an assignment with spaces (`x = a > b`): code and text in heredocs, usage lines.
const NOT_SHELL = new RegExp(
  [
    String.raw`(?:\(\(|\[\[?\s)[^\])]*$|(?:\w|\b(?:if|elif|while|return)\s*)\([^)]*$|(?<!<)<[a-z/!?][^>]*$`,
    String.raw`|^\s*[a-z][\w -]*:\s|^\s*[\w.]+\s+=\s`,
  ].join(''),
  'i',
)

/**
 * A `>` or `>>` that sends output to a file: after a command (a line that opens with `>` is a quote or a
 * prompt), outside strings and what `NOT_SHELL` says is no command, and not to a number or a block's head
 * (`if x > 0:`, `if x > y:`).
 */
function isFileRedirect(m: RegExpExecArray, line: string): boolean {
  const before = line.slice(0, m.index)
  if (!before.trim() || inDoubleQuotes(before) || NOT_SHELL.test(before))
    return false
  const target = line.slice(m.index + m[0].length - 1)
  return !/^\d+(?:[\s:;)]|$)|^[\w.$]+:\s*$/.test(target)
}

const SH_COMMANDS: LinePattern = {
  anchor: 'rm|rmdir|mkdir|touch|cp|mv|ln|chmod|chown|truncate|tee|sed',
  re: new RegExp(
    [
      // The first argument is not a `<placeholder>`: `cp <src> <dst>` is a usage line, not a command.
      String.raw`${SH_COMMAND}(?:(?:${SH_WRITERS})\s+(?!--?(?:help|version)\b)[^\s#;|&)<]`,
      String.raw`|tee\s+(?:-\w+\s+)*(?!${NO_FILE}|>)[^\s#;|&)<]|sed\s+(?:-\w+\s+)*(?:-[a-zA-Z]*i|--in-place)\b)`,
    ].join(''),
  ),
  langs: ['sh'],
  view: 'code',
  message: 'shell filesystem write',
  accept: (m, line) => !inDoubleQuotes(line.slice(0, m.index)),
}

const PS_COMMANDS: LinePattern = {
  anchor: 'Set-Content|Add-Content|Out-File|New-Item|Remove-Item|Copy-Item|Move-Item|Rename-Item',
  re: /\b(?:Set-Content|Add-Content|Out-File|New-Item|Remove-Item|Copy-Item|Move-Item|Rename-Item)\b/i,
  langs: ['sh'],
  view: 'code',
  message: 'PowerShell filesystem write',
}

const SH_REDIRECT: LinePattern = {
  anchor: '>',
  re: new RegExp(String.raw`(?<![\w\-=<>&|$\\])[&\d]?>>?(?![>&(=])\s*(?!${NO_FILE})(?:["'][^"']|[\w.~/$\{])`),
  langs: ['sh'],
  view: 'code',
  message: 'shell redirection to a file',
  accept: isFileRedirect,
}

// What every match of the shell patterns contains: a text or line without it is not read further.
const WRITE_WORD = /\b(?:rm|rmdir|mkdir|touch|cp|mv|ln|chmod|chown|truncate|tee|sed)\b|>|-(?:Content|File|Item)\b/i
const WRITE_COMMAND = /\b(?:rm|rmdir|mkdir|touch|cp|mv|ln|chmod|chown|truncate|tee|sed)\b|-(?:Content|File|Item)\b/i
// A Dockerfile's commands write inside the image it builds, not on the user's machine.
const DOCKERFILE = /(?:^|\/)(?:Dockerfile|Containerfile)(?:\.[\w-]+)?$|^\s*FROM\s+\S/im
// A heredoc's opening (not a `<<<` here-string); its body is data unless a shell reads it.
const HEREDOC = /(?<!<)<<-?\s*(["']?)([A-Za-z_]\w*)\1/
const SHELL_READS = /(?:^|[\s;&|(])(?:sudo\s+)?(?:ba|z|k|da)?sh(?:\s+-\w+)*\s*<</

/**
 * Blocks the line scan reads as text (`text` and unlabelled fences, extensionless and `.txt` scripts), read as
 * shell here: all of it when the text looks like shell, its write commands when it looks like nothing (`touch`
 * or `tee` leads no line that says shell), nothing when it looks like another language or is a Dockerfile.
 * Heredoc bodies are data (a usage text, a file's content) unless a shell reads them.
 */
function textAsShell(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  for (const unit of unitsOf(skill)) {
    if (unit.lang !== 'text')
      continue
    const text = unit.lines.join('\n')
    if (!WRITE_WORD.test(text))
      continue
    // Without a write command only a redirect can match, and redirects are read only in text that looks like shell.
    const commands = WRITE_COMMAND.test(text)
    const looks = sniffLang(text)
    if ((looks && looks !== 'sh') || (!commands && !looks) || DOCKERFILE.test(unit.path)
      || DOCKERFILE.test(text.slice(0, 2000))) {
      continue
    }
    const patterns = looks ? [SH_COMMANDS, PS_COMMANDS, SH_REDIRECT] : [SH_COMMANDS, PS_COMMANDS]
    const code = maskViews(text, 'sh').code.split('\n')
    let body: string | null = null
    for (let i = 0; i < code.length; i++) {
      const raw = unit.lines[i]!
      if (body !== null) {
        if (raw.trim() === body)
          body = null
        continue
      }
      const line = code[i]!
      // Found in the text as written (the view blanks a quoted delimiter), outside comments and strings.
      const opens = line.includes('<<') ? HEREDOC.exec(raw) : null
      if (opens && !SHELL_READS.test(raw))
        body = opens[2]!
      const m = WRITE_WORD.test(line) ? firstWrite(patterns, line, () => code[i + 1] ?? '') : null
      if (m) {
        const at = { path: unit.path, line: unit.first + i + 1, column: m.index + 1 }
        out.push({ rule: 'fs_write', ...at, message: m.message, excerpt: excerptAt(raw, m.index, m.length) })
      }
    }
  }
  return markQuoted(skill, out)
}

const GLOBAL = new WeakMap<LinePattern, RegExp>()

/** The leftmost match on a line that its pattern accepts, as the line scan keeps it (every match is tried). */
function firstWrite(
  patterns: readonly LinePattern[],
  line: string,
  next: () => string,
): { index: number, length: number, message: string } | null {
  let best: { index: number, length: number, message: string } | null = null
  for (const p of patterns) {
    let re = GLOBAL.get(p)
    if (!re)
      GLOBAL.set(p, (re = new RegExp(p.re.source, `${p.re.flags}g`)))
    re.lastIndex = 0
    for (let m = re.exec(line); m && (!best || m.index < best.index); m = re.exec(line)) {
      if (!p.accept || p.accept(m, line, next)) {
        best = { index: m.index, length: m[0].length, message: p.message }
        break
      }
    }
  }
  return best
}

/** Filesystem writes: JS, Python, Ruby and Go calls; shell commands and redirections to a file. */
export const fsWrite: RuleModule = {
  meta: {
    id: 'fs_write',
    kind: 'capability',
    capability: 'fs:write',
    severity: 'error',
    cwe: 'CWE-73',
    description: 'Filesystem writes (writeFile, mkdir, unlink, rm, open(..., "w"), shutil) change the user\'s machine.',
    hint: 'Declare `capabilities: [fs:write]` (or `allowed-tools: Write`) and write only inside the working directory.',
  },
  patterns: [
    {
      anchor: 'open',
      re: /(?<![.\w])open\s*\([^)\n]*,\s*(?:mode\s*=\s*)?[rbf]?['"][rbt]?[wax]/,
      langs: ['py'],
      view: 'noComments',
      message: 'opens a file for writing',
    },
    {
      anchor: 'os|shutil',
      re: new RegExp(
        [
          String.raw`\b(?:os\s*\.\s*(?:remove|unlink|rmdir|removedirs|makedirs|mkdir|rename|renames|replace|chmod`,
          String.raw`|chown|truncate|symlink|link)`,
          String.raw`|shutil\s*\.\s*(?:rmtree|move|copy2?|copyfile|copytree|make_archive|chown))\s*\(`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'code',
      message: 'filesystem write',
    },
    {
      anchor: 'write_text|write_bytes|unlink|rmdir|touch|mkdir',
      re: /\.\s*(?:write_text|write_bytes|unlink|rmdir|touch|mkdir)\s*\(/,
      langs: ['py'],
      view: 'code',
      message: 'pathlib filesystem write',
    },
    {
      anchor: 'write|append|mkdir|unlink|rm|rmdir|rmSync|rename|copyFile|createWriteStream|chmod|truncate|symlink',
      re: new RegExp(
        [
          String.raw`\b(?:writeFile|writeFileSync|appendFile|appendFileSync|mkdir|mkdirSync|unlink|unlinkSync|rmSync`,
          String.raw`|rmdir|rmdirSync|rename|renameSync|copyFile|copyFileSync|createWriteStream|chmod|chmodSync`,
          String.raw`|truncate|truncateSync|symlink|symlinkSync)\s*\(`,
        ].join(''),
      ),
      langs: ['js'],
      view: 'code',
      message: 'filesystem write',
      astCovered: true,
    },
    {
      anchor: 'File|FileUtils|IO',
      re: new RegExp(
        [
          String.raw`\b(?:File|IO)\s*\.\s*(?:write|binwrite|delete|unlink|rename|chmod|symlink)\s*[( ]`,
          String.raw`|\bFile\s*\.\s*open\s*\([^)\n]*,\s*['"][wa]`,
          String.raw`|\bFileUtils\s*\.\s*(?:rm\w*|mkdir\w*|mv|cp\w*|touch|ln\w*|chmod\w*|remove\w*|install)\b`,
        ].join(''),
      ),
      langs: ['rb'],
      view: 'code',
      message: 'filesystem write',
    },
    {
      anchor: 'os|ioutil',
      re: new RegExp(
        [
          String.raw`\b(?:os\s*\.\s*(?:WriteFile|Create|Remove|RemoveAll|Mkdir|MkdirAll|Rename|Chmod|Symlink|Truncate)`,
          String.raw`|ioutil\s*\.\s*WriteFile)\s*\(|\bos\s*\.\s*OpenFile\s*\([^)\n]*O_(?:WRONLY|RDWR|CREATE|APPEND)`,
        ].join(''),
      ),
      langs: ['go'],
      view: 'code',
      message: 'filesystem write',
    },
    SH_COMMANDS,
    PS_COMMANDS,
    SH_REDIRECT,
  ],
  ast,
  visitSkill: textAsShell,
}
