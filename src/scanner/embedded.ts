import type { Lang } from './types'
import { maskRanges } from './mask'
import { sniffLang } from './sniff'

/**
 * A copy of a segment's text, as long as it, that shows code the plain line scan does not see whole: logical
 * lines joined (shell continuations, Python brackets), or code written inside another language (`python -c`,
 * heredocs, a YAML `run:` block, a JSON `command`) put back in place, unescaped, every other character blank.
 * Offsets are the segment's own; lines may differ (an unescaped `\n` splits one).
 */
export interface View {
  lang: Lang
  text: string
}

/** Data formats whose string values may hold commands. */
export type Dialect = 'json' | 'yaml'

const MAX_PIECE = 64 * 1024

/** A blank copy of a text: newlines kept (so lines stay where they are), everything else a space. */
/** The text as blanks of the same length, line breaks kept: UTF-16 code units, cheap to fill and to decode. */
function blankCopy(text: string): Uint16Array {
  const out = new Uint16Array(text.length).fill(32)
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out[i] = 10
  return out
}

const UTF16 = new TextDecoder('utf-16le')

class ViewSet {
  private readonly views = new Map<Lang, Uint16Array>()
  constructor(private readonly text: string) {}

  /** Puts `piece` (same length as the source range it replaces) at `from` in the view of `lang`. */
  put(lang: Lang, from: number, piece: string): void {
    let v = this.views.get(lang)
    if (!v)
      this.views.set(lang, (v = blankCopy(this.text)))
    for (let i = 0; i < piece.length; i++) v[from + i] = piece.charCodeAt(i)
  }

  list(): View[] {
    return [...this.views].map(([lang, units]) => ({ lang, text: UTF16.decode(units) }))
  }
}

/**
 * Unescapes `\n`, `\t`, `\"`, `\'` and `\\` in place, keeping the length (the backslash becomes a space), so
 * a string's code reads as code and each character keeps its offset.
 */
export function unescapeInPlace(s: string): string {
  if (!s.includes('\\'))
    return s
  return s.replace(/\\([nrt"'\\])/g, (_, c: string) => ` ${c === 'n' ? '\n' : c === 'r' || c === 't' ? ' ' : c}`)
}

const EXT_LANG: Record<string, Lang> = { py: 'py', rb: 'rb', go: 'go', sh: 'sh', bash: 'sh' }

/** Language of a piece of code from the command that receives it (`python3 -`, `node`, `cat > x.rb`). */
function langOfCommand(cmd: string): Lang | null {
  const target = /(?:>|\btee\s+(?:-a\s+)?)\s*["']?[^\s"'<>|;&]+\.(py|js|mjs|cjs|ts|rb|go|sh|bash)\b/.exec(cmd)
  if (target) {
    const ext = target[1]!
    return EXT_LANG[ext] ?? 'js'
  }
  if (/\bpython[\d.]*\b|\bpy\b|\buv\s+run\b/.test(cmd))
    return 'py'
  if (/\b(?:node|deno|bun|tsx)\b/.test(cmd))
    return 'js'
  if (/\bruby\b/.test(cmd))
    return 'rb'
  if (/\b(?:ba|z|k|da)?sh\b/.test(cmd))
    return 'sh'
  return null
}

const INLINE = new RegExp(
  String.raw`\b(python[\d.]*|node|deno|bun|ruby)\b(?:\s+-{1,2}[\w-]+(?:=\S+)?)*?\s+(?:-c|-e|--eval|-p|--print)\s+`
  + String.raw`(\$?['"])`,
  'g',
)
const HEREDOC = /<<(-?)\s*(['"]?)([A-Za-z_]\w*)\2/g

/** Shell: `python -c '...'`, `node -e "..."`, heredoc bodies fed to an interpreter, continuation lines. */
function shellViews(text: string, views: ViewSet): void {
  if (text.includes('-c') || text.includes('-e') || text.includes('-p')) {
    INLINE.lastIndex = 0
    for (let m = INLINE.exec(text); m; m = INLINE.exec(text)) {
      const quote = m[2]!.slice(-1)
      const from = m.index + m[0].length
      let to = from
      while (to < text.length && text[to] !== quote) to += quote === '"' && text[to] === '\\' ? 2 : 1
      if (to - from > MAX_PIECE)
        continue
      const lang = langOfCommand(m[1]!)
      if (lang)
        views.put(lang, from, unescapeInPlace(text.slice(from, to)))
      INLINE.lastIndex = Math.max(INLINE.lastIndex, to)
    }
  }
  if (text.includes('<<')) {
    HEREDOC.lastIndex = 0
    for (let m = HEREDOC.exec(text); m; m = HEREDOC.exec(text)) {
      const lineStart = text.lastIndexOf('\n', m.index) + 1
      const bodyStart = text.indexOf('\n', m.index)
      if (bodyStart === -1)
        break
      const delim = m[3]!
      let pos = bodyStart + 1
      let end = text.length
      while (pos < text.length) {
        const nl = text.indexOf('\n', pos)
        const lineEnd = nl === -1 ? text.length : nl
        if (text.slice(pos, lineEnd).trim() === delim) {
          end = pos
          break
        }
        pos = lineEnd + 1
      }
      const body = text.slice(bodyStart + 1, end)
      const lang = langOfCommand(text.slice(lineStart, m.index)) ?? sniffLang(body)
      if (lang && lang !== 'sh' && body.length <= MAX_PIECE)
        views.put(lang, bodyStart + 1, body)
      HEREDOC.lastIndex = end
    }
  }
  // Continuation lines: one logical command, read as one line.
  if (/\\\r?\n/.test(text))
    joinLines(text, views, 'sh', /\\\r?\n/g)
}

/** Puts the logical lines joined by `sep` (blanked to spaces) in the view, only the ones that span lines. */
function joinLines(text: string, views: ViewSet, lang: Lang, sep: RegExp): void {
  let spanStart = -1
  const spans: Array<[number, number, number[]]> = []
  for (let m = sep.exec(text); m; m = sep.exec(text)) {
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1
    const last = spans[spans.length - 1]
    if (last && last[1] >= lineStart - 1) {
      last[2].push(m.index, m[0].length)
    }
    else {
      spanStart = lineStart
      spans.push([spanStart, 0, [m.index, m[0].length]])
    }
    const next = text.indexOf('\n', m.index + m[0].length)
    spans[spans.length - 1]![1] = next === -1 ? text.length : next
  }
  for (const [from, to, cuts] of spans) {
    const chars = text.slice(from, to).split('')
    for (let k = 0; k < cuts.length; k += 2) {
      for (let j = 0; j < cuts[k + 1]!; j++) chars[cuts[k]! - from + j] = ' '
    }
    views.put(lang, from, chars.join(''))
  }
}

/** Python: the lines of one bracketed expression (a multi-line call) joined, as Python reads them. */
function pythonViews(text: string, views: ViewSet): void {
  if (!/[([{][^)\]}\n]*\n/.test(text))
    return
  // Newlines inside brackets, outside strings and comments.
  const code = maskRanges(text, 'py').code
  let depth = 0
  let open = -1
  const joins: number[] = []
  let nextMask = 0
  for (let i = 0; i < text.length; i++) {
    while (nextMask < code.length && code[nextMask + 1]! <= i) nextMask += 2
    if (nextMask < code.length && code[nextMask]! <= i) {
      i = code[nextMask + 1]! - 1
      continue
    }
    const c = text[i]
    if (c === '(' || c === '[' || c === '{') {
      if (depth++ === 0)
        open = i
    }
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) {
      if (--depth === 0 && joins.length) {
        flushPy(text, views, open, i, joins)
        joins.length = 0
      }
    }
    else if (c === '\n' && depth > 0) {
      joins.push(i)
    }
  }
}

function flushPy(text: string, views: ViewSet, open: number, close: number, joins: number[]): void {
  const from = text.lastIndexOf('\n', open) + 1
  if (close - from > MAX_PIECE)
    return
  const chars = text.slice(from, close + 1).split('')
  for (const j of joins) {
    chars[j - from] = ' '
    if (chars[j - from - 1] === '\r')
      chars[j - from - 1] = ' '
  }
  views.put('py', from, chars.join(''))
}

const JSON_KEY = new RegExp(
  String.raw`"(command|cmd|run|script|exec|shell|entrypoint|args|[\w:-]*install|prepare|pre\w*|post\w*|start|test`
  + String.raw`|build|dev)"\s*:\s*(\[[^\]]*\]|"(?:[^"\\\n]|\\.)*")`,
  'g',
)
const JSON_STRING = /"((?:[^"\\\n]|\\.)*)"/g

/** JSON: the strings of keys that hold commands (`command`, `args`, npm lifecycle scripts), read as shell. */
function jsonViews(text: string, views: ViewSet): void {
  JSON_KEY.lastIndex = 0
  for (let m = JSON_KEY.exec(text); m; m = JSON_KEY.exec(text)) {
    const valueAt = m.index + m[0].length - m[2]!.length
    JSON_STRING.lastIndex = 0
    for (let s = JSON_STRING.exec(m[2]!); s; s = JSON_STRING.exec(m[2]!))
      views.put('sh', valueAt + s.index + 1, unescapeInPlace(s[1]!))
  }
}

const YAML_KEY = new RegExp(
  String.raw`^(\s*)(?:-\s+)?(?:run|script|command|cmd|entrypoint|before_script|after_script|shell|install`
  + String.raw`|post_?install|pre_?install|setup)\s*:[ \t]*(.*)$`,
)

/** YAML: `run:` and `script:` values, blocks (`run: |`) and lists, read as shell. */
function yamlViews(text: string, views: ViewSet): void {
  const lines = text.split('\n')
  let offset = 0
  const starts = lines.map((l) => {
    const s = offset
    offset += l.length + 1
    return s
  })
  for (let i = 0; i < lines.length; i++) {
    const m = YAML_KEY.exec(lines[i]!)
    if (!m)
      continue
    const indent = m[1]!.length
    const rest = m[2]!.replace(/\s+#.*$/, '')
    if (rest && !/^[|>][-+\d]*$/.test(rest)) {
      const at = lines[i]!.length - m[2]!.length
      views.put('sh', starts[i]! + at, rest.replace(/^(["'])(.*)\1$/, ' $2 '))
      continue
    }
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!
      if (l.trim() && l.length - l.trimStart().length <= indent)
        break
      views.put('sh', starts[j]!, l.replace(/^(\s*)-\s/, '$1  '))
    }
  }
}

// A string literal holding `\n` escapes: code written on one line (`exec("import os\nos.system(...)")`).
const ESCAPED_STRING = /(["'])((?:(?!\1)[^\\\n]|\\.){0,4000}?\\n(?:(?!\1)[^\\\n]|\\.){0,20000}?)\1/g

function escapedStrings(text: string, views: ViewSet): void {
  if (!text.includes('\\n'))
    return
  ESCAPED_STRING.lastIndex = 0
  for (let m = ESCAPED_STRING.exec(text); m; m = ESCAPED_STRING.exec(text)) {
    const inner = unescapeInPlace(m[2]!)
    const lang = sniffLang(inner)
    if (lang)
      views.put(lang, m.index + 1, inner)
  }
}

/** The views of a segment (none for most texts: each check starts with a cheap test). */
export function embeddedViews(text: string, lang: Lang, dialect?: Dialect): View[] {
  const views = new ViewSet(text)
  if (lang === 'sh') {
    shellViews(text, views)
  }
  else if (lang === 'py' || lang === 'js' || lang === 'rb') {
    if (lang === 'py')
      pythonViews(text, views)
    escapedStrings(text, views)
  }
  else if (dialect === 'json') {
    jsonViews(text, views)
  }
  else if (dialect === 'yaml') {
    yamlViews(text, views)
  }
  return views.list()
}
