import type { SkillSource } from '../core/types'
import type { RawFinding } from './types'

/**
 * Constants put back where they are used: `URL=http://...` then `curl "$URL" | sh`, a Makefile's
 * `FETCH := curl -fsSL` then `$(FETCH) $(TOOL_URL) -o $(BIN)`, a Dockerfile's `ARG` or `ENV`, PowerShell's
 * `$u = "..."` then `iwr $u | iex`. An attacker names a command, a host or a path once and uses the name, so
 * that no line shows what runs; the line patterns and the whole-skill rules read the text with the names
 * replaced by what they hold. Only literal values are put back (no command substitution: `$(mktemp)` holds
 * nothing known before it runs), and every line keeps its number: an edit records where it sits, so a
 * finding's column is the file's own.
 */

/** One use replaced on a line: `[from, to)` of the original line became `length` characters. */
export interface Edit {
  from: number
  to: number
  length: number
}

export interface Inlined {
  /** The lines with every known constant put back (the same count as given). */
  lines: string[]
  /** The edits of each line that changed (0-based line), in order. */
  edits: Map<number, Edit[]>
}

/** Which assignments a text may hold: shell and PowerShell only, or also Make and Dockerfile forms. */
export type ConstantSyntax = 'shell' | 'build'

const MAX_VALUE = 1024
const MAX_LINE = 8192
const MAX_NAMES = 512

// `NAME=value` at the start of a command (export, readonly, local, declare, Dockerfile's ENV and ARG).
const SHELL_ASSIGN = /^\s*(?:(?:export|readonly|local|declare(?:\s+-\w+)?|ENV|ARG)\s+)?([A-Z_a-z]\w*)=/
// PowerShell: `$name = "value"` (a quoted literal, the whole statement).
const PS_ASSIGN = /^\s*\$([A-Z_a-z]\w*)\s*=\s*(["'])([^"'`$\n]*)\2\s*;?\s*$/
// Make: `NAME := value`, `NAME = value`, `NAME ?= value`, `NAME += value`; Dockerfile: `ENV NAME value`.
const MAKE_ASSIGN = /^(?:export\s+|override\s+)?([A-Z_a-z][\w.]*)\s*(:{1,3}=|\?=|\+=|=)\s*(.*)$/
const DOCKER_ENV = /^\s*(?:ENV|ARG)\s+([A-Z_a-z]\w*)\s+(\S[^=\n]*)$/
// A use: `$NAME`, `${NAME}`, `$(NAME)` (the last only for names a Make assignment defined).
const USE = /\$(?:\{([A-Z_a-z]\w*)\}|\(([A-Z_a-z][\w.]*)\)|([A-Z_a-z]\w*))/g
// What a literal value may not hold: a command runs (`$(...)`, backticks) or a Make function does.
const NOT_LITERAL = /\$\(|`/
// Make's `$(NAME)` names a variable; `$(shell ...)`, `$(wildcard ...)` and other functions compute a value.
const MAKE_FUNCTION = /`|\$[({][a-z-]+\s/

/** The value of a shell assignment starting at `at` (after `=`), or null when it is not a literal. */
function shellValue(line: string, at: number): string | null {
  const c = line[at]
  if (c === '"' || c === '\'') {
    const end = line.indexOf(c, at + 1)
    if (end === -1)
      return null
    const value = line.slice(at + 1, end)
    return c === '"' && NOT_LITERAL.test(value) ? null : value
  }
  const m = /^[^\s;&|()<>'"`]*/.exec(line.slice(at))![0]
  // A value that goes on in quotes or brackets (`$(cmd)`, `a"b"`) is not one literal word.
  const next = line[at + m.length]
  return NOT_LITERAL.test(m) || (next !== undefined && /[()<>'"`]/.test(next)) ? null : m
}

/**
 * The lines of a shell script, a Makefile, a Dockerfile or a fenced block with its constants put back, or null
 * when no line changed (most texts: they define nothing they use).
 */
export function inlineConstants(lines: readonly string[], syntax: ConstantSyntax): Inlined | null {
  // Cheap refusal first: a text with no `$` uses nothing.
  if (!lines.some(l => l.includes('$')))
    return null
  // Make's assignments hold for the whole file, whatever their order (recipes run after every line is read).
  const global = new Map<string, string>()
  if (syntax === 'build') {
    for (const line of lines) {
      // A recipe line (a tab first) is shell, not Make.
      if (line.startsWith('\t'))
        continue
      const m = MAKE_ASSIGN.exec(line) ?? DOCKER_ENV.exec(line)
      if (!m)
        continue
      const [name, op, raw] = m.length === 4 ? [m[1]!, m[2]!, m[3]!] : [m[1]!, '=', m[2]!]
      const value = raw.replace(/\s+#.*$/, '').trim()
      if (MAKE_FUNCTION.test(value) || value.length > MAX_VALUE || (!global.has(name) && global.size >= MAX_NAMES))
        continue
      global.set(name, op === '+=' && global.has(name) ? `${global.get(name)} ${value}` : value)
    }
    // A value may name others (`URL = $(HOST)/x`): put back a few levels deep, as Make expands at use.
    for (let round = 0; round < 3; round++) {
      for (const [name, value] of global) {
        const expanded = value.replace(USE, (use: string, a?: string, b?: string, c?: string) =>
          global.get((a ?? b ?? c)!) ?? use)
        if (expanded.length <= MAX_VALUE)
          global.set(name, expanded)
      }
    }
  }
  const known = new Map(global)
  const out = lines.slice()
  const edits = new Map<number, Edit[]>()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (known.size && line.includes('$') && line.length <= MAX_LINE) {
      const list: Edit[] = []
      let built = ''
      let last = 0
      USE.lastIndex = 0
      for (let m = USE.exec(line); m; m = USE.exec(line)) {
        const name = m[1] ?? m[2] ?? m[3]!
        const value = known.get(name)
        // `$(name)` in a shell line runs a command named so: only Make's names are read that way.
        if (value === undefined || (m[2] !== undefined && !global.has(name)))
          continue
        built += line.slice(last, m.index) + value
        list.push({ from: m.index, to: m.index + m[0].length, length: value.length })
        last = m.index + m[0].length
        if (built.length > MAX_LINE)
          break
      }
      if (list.length && built.length <= MAX_LINE) {
        out[i] = built + line.slice(last)
        edits.set(i, list)
      }
    }
    // Shell assignments hold from where they are made, with what they hold then (uses already put back).
    const assigned = out[i]!
    // `$a = "..."` is PowerShell's in a shell text; in a build file or an unlabelled block it may be anything's (a
    // YARA rule's strings).
    const ps = syntax === 'shell' ? PS_ASSIGN.exec(assigned) : null
    const sh = ps ? null : SHELL_ASSIGN.exec(assigned)
    const name = ps?.[1] ?? sh?.[1]
    if (!name)
      continue
    const value = ps ? ps[3]! : shellValue(assigned, sh![0].length)
    if (value === null || value.length > MAX_VALUE || value.includes(`$${name}`))
      known.delete(name)
    else if (known.has(name) || known.size < MAX_NAMES)
      known.set(name, value)
  }
  return edits.size ? { lines: out, edits } : null
}

// Where the constants put back in a skill's code moved its text (`path\0line`, 1-based line): whole-skill rules
// read the inlined code, their findings are put back at the file's own columns.
const EDITS = new WeakMap<SkillSource, Map<string, Edit[]>>()

/**
 * The lines of one piece of a skill's code (a shell or build file or block, its first line at 0-based `first`)
 * with its constants put back; the same array when none is. Its edits are kept for `restoreColumns`.
 */
export function inlineSkillCode(
  skill: SkillSource,
  path: string,
  lang: 'sh' | 'text',
  lines: string[],
  first: number,
): string[] {
  const done = inlineConstants(lines, lang === 'sh' ? 'shell' : 'build')
  if (!done)
    return lines
  let edits = EDITS.get(skill)
  if (!edits)
    EDITS.set(skill, (edits = new Map()))
  for (const [i, list] of done.edits) edits.set(`${path}\0${first + i + 1}`, list)
  return done.lines
}

/** Puts whole-skill findings that lie on a line whose constants were put back at the file's own column. */
export function restoreColumns(skill: SkillSource, findings: readonly RawFinding[]): void {
  const edits = EDITS.get(skill)
  if (!edits)
    return
  for (const f of findings) {
    const list = edits.get(`${f.path}\0${f.line}`)
    if (list)
      f.column = originalColumn(list, f.column - 1) + 1
  }
}

/** The original line's 0-based column of a 0-based column of the inlined line (a use's start inside it). */
export function originalColumn(edits: readonly Edit[], column: number): number {
  let shift = 0
  for (const e of edits) {
    const at = e.from + shift
    if (column < at)
      break
    if (column < at + e.length)
      return e.from
    shift += e.length - (e.to - e.from)
  }
  return column - shift
}
