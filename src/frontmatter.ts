import matter from 'gray-matter'
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml'
import type { Document, Node } from 'yaml'
import type { Severity } from './types'

/** A frontmatter problem, positioned in the file it came from (1-based). */
export interface FrontmatterIssue {
  code: string
  severity: Severity
  message: string
  line: number
  column: number
  hint: string | null
}

export interface ParsedFrontmatter {
  /** The mapping, or null when there is none or it failed to parse. */
  data: Record<string, unknown> | null
  body: string
  /** 1-based line where the body starts. */
  bodyLine: number
  diagnostics: FrontmatterIssue[]
  /** Line/column of a key (dotted path) in the file, or null. */
  locate: (path: string) => { line: number; column: number } | null
}

/** Bounds on what one YAML document may cost: size, aliases, nesting. */
export const FRONTMATTER_LIMITS = { maxBytes: 64 * 1024, maxAliasCount: 50, maxDepth: 32 } as const

const EXECUTABLE = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson'])

/**
 * Parses `---` YAML frontmatter. gray-matter finds the block; YAML is parsed by `yaml` with
 * bounded aliases. gray-matter's JavaScript/CoffeeScript engines (which `eval`) are replaced by
 * engines that refuse: frontmatter never executes code.
 */
export function parseFrontmatter(input: string): ParsedFrontmatter {
  const text = input.charCodeAt(0) === 0xFEFF ? input.slice(1) : input
  const src = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text
  const diagnostics: FrontmatterIssue[] = []
  const fail = (code: string, message: string, line: number, column: number, hint: string | null = null): ParsedFrontmatter => {
    diagnostics.push({ code, severity: 'error', message, line, column, hint })
    return { data: null, body: src, bodyLine: 1, diagnostics, locate: () => null }
  }

  const firstLine = src.slice(0, src.indexOf('\n') >>> 0)
  if (!/^---[ \t]*\S*[ \t]*$/.test(firstLine) || firstLine.startsWith('----'))
    return fail('frontmatter/missing', 'SKILL.md does not start with a `---` frontmatter block', 1, 1, 'Start the file with `---`, the YAML fields (name, description, ...), then a closing `---` line.')

  const language = firstLine.slice(3).trim().toLowerCase()
  if (EXECUTABLE.has(language))
    return fail('frontmatter/executable', `\`---${language}\` frontmatter is executable code and is never run`, 1, 4, 'Use plain YAML frontmatter: `---` followed by `key: value` lines.')
  if (language !== '' && language !== 'yaml' && language !== 'yml')
    return fail('frontmatter/language', `frontmatter language \`${language}\` is not supported`, 1, 4, 'Use plain YAML frontmatter (`---`).')

  // The closing delimiter must be a line of its own: gray-matter alone would accept `---x` or no close at all.
  const close = /\n---[ \t]*(?:\n|$)/g
  close.lastIndex = firstLine.length
  const closing = close.exec(src)
  if (!closing)
    return fail('frontmatter/unterminated', 'the frontmatter block is never closed', 1, 1, 'Add a line with only `---` after the last frontmatter field.')
  if (Buffer.byteLength(src.slice(firstLine.length, closing.index)) > FRONTMATTER_LIMITS.maxBytes)
    return fail('frontmatter/too-large', `frontmatter is larger than ${FRONTMATTER_LIMITS.maxBytes / 1024} KiB`, 2, 1, 'Move long content into the markdown body or references/.')

  if (flowDepth(src, firstLine.length, closing.index) > FRONTMATTER_LIMITS.maxDepth)
    return fail('frontmatter/too-deep', `frontmatter nests deeper than ${FRONTMATTER_LIMITS.maxDepth} levels`, 2, 1, 'Flatten the structure.')

  let doc: Document.Parsed | null = null
  const lineCounter = new LineCounter()
  const yamlEngine = (raw: string): object => {
    doc = parseDocument(raw, { lineCounter, maxAliasCount: FRONTMATTER_LIMITS.maxAliasCount, uniqueKeys: true, prettyErrors: false, strict: true })
    return {}
  }
  const refuse = (): never => {
    throw new Error('executable frontmatter is refused')
  }
  let parsed: { matter?: string }
  try {
    parsed = matter(src, { language: 'yaml', engines: { yaml: yamlEngine, javascript: refuse, coffee: refuse, json: refuse } }) as { matter?: string }
  }
  catch (error) {
    return fail('frontmatter/yaml', `frontmatter could not be parsed: ${(error as Error).message}`, 1, 1)
  }
  // gray-matter closes at the first line that merely starts with `---`; such a line inside the block is ambiguous.
  if (parsed.matter !== src.slice(firstLine.length, closing.index)) {
    const line = countLines(src, firstLine.length + (parsed.matter?.length ?? 0) + 1)
    return fail('frontmatter/delimiter', 'a line starting with `---` inside the frontmatter makes its end ambiguous', line, 1, 'Indent or quote that line, or make the closing delimiter the first line that starts with `---`.')
  }
  const bodyStart = closing.index + closing[0].length
  const result: ParsedFrontmatter = { data: null, body: src.slice(bodyStart), bodyLine: countLines(src, bodyStart), diagnostics, locate: () => null }

  const document = doc as Document.Parsed | null
  if (!document) {
    // gray-matter skips the engine for a block of only blank lines or comments.
    diagnostics.push({ code: 'frontmatter/empty', severity: 'error', message: 'the frontmatter block is empty', line: 2, column: 1, hint: 'Add the required fields, e.g. `name:` and `description:`.' })
    return result
  }
  // matter starts right after the opening `---`, so its line N is the file's line N.
  const position = (offset: number): { line: number; column: number } => {
    const p = lineCounter.linePos(offset)
    return { line: p.line, column: p.col }
  }
  // Later YAML errors are nearly always cascades of the first one.
  const [error] = document.errors
  if (error) {
    const { line, column } = position(error.pos[0])
    diagnostics.push(yamlIssue(error.code, error.message, line, column))
    return result
  }

  let data: unknown
  try {
    data = document.toJS({ maxAliasCount: FRONTMATTER_LIMITS.maxAliasCount })
  }
  catch (error) {
    const message = (error as Error).message
    const alias = /alias/i.test(message)
    diagnostics.push({
      code: alias ? 'frontmatter/alias-limit' : 'frontmatter/yaml',
      severity: 'error',
      message: alias ? `YAML aliases expand beyond the limit (${FRONTMATTER_LIMITS.maxAliasCount}): ${message}` : `frontmatter could not be read: ${message}`,
      line: 2,
      column: 1,
      hint: alias ? 'Write the values out instead of using `&anchor`/`*alias` references.' : null,
    })
    return result
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    diagnostics.push({ code: 'frontmatter/not-a-map', severity: 'error', message: 'frontmatter must be a mapping of `key: value` fields', line: 2, column: 1, hint: 'Write the fields as `name: my-skill` lines.' })
    return result
  }
  if (depthOf(data, 0) > FRONTMATTER_LIMITS.maxDepth) {
    diagnostics.push({ code: 'frontmatter/too-deep', severity: 'error', message: `frontmatter nests deeper than ${FRONTMATTER_LIMITS.maxDepth} levels`, line: 2, column: 1, hint: 'Flatten the structure.' })
    return result
  }
  result.data = data as Record<string, unknown>
  result.locate = (path: string) => {
    const node = keyNode(document.contents, path.split('.'))
    return node?.range ? position(node.range[0]) : null
  }
  return result
}

function yamlIssue(code: string, message: string, line: number, column: number): FrontmatterIssue {
  const first = message.split('\n')[0]
  if (code === 'DUPLICATE_KEY')
    return { code: 'frontmatter/duplicate-key', severity: 'error', message: first, line, column, hint: 'Each field may appear once; remove or merge the duplicate.' }
  const compact = /compact mapping|Nested mappings|Implicit map keys/i.test(message)
  return {
    code: 'frontmatter/yaml',
    severity: 'error',
    message: `YAML syntax error: ${first}`,
    line,
    column,
    hint: compact ? 'A value containing `: ` must be quoted, e.g. `description: "Use when: ..."`.' : null,
  }
}

function keyNode(node: unknown, path: string[]): Node | null {
  let current = node
  let found: Node | null = null
  for (const segment of path) {
    if (isMap(current)) {
      const pair = current.items.find(p => isScalar(p.key) && String(p.key.value) === segment)
      if (!pair) return found
      found = pair.key as Node
      current = pair.value
    }
    else if (isSeq(current) && /^\d+$/.test(segment)) {
      const item = current.items[Number(segment)]
      if (!item) return found
      found = item as Node
      current = item
    }
    else {
      return found
    }
  }
  return found
}

function depthOf(value: unknown, depth: number): number {
  if (depth > FRONTMATTER_LIMITS.maxDepth || value === null || typeof value !== 'object') return depth
  let max = depth
  for (const child of Object.values(value)) max = Math.max(max, depthOf(child, depth + 1))
  return max
}

/** Bracket nesting outside quotes: a cheap guard before the recursive YAML parser sees the text. */
function flowDepth(text: string, start: number, end: number): number {
  let depth = 0
  let max = 0
  let quote = ''
  for (let i = start; i < end; i++) {
    const c = text[i]
    if (quote) {
      if (c === quote) quote = ''
      else if (c === '\\' && quote === '"') i++
    }
    else if (c === '"' || c === "'") quote = c
    else if (c === '[' || c === '{') max = Math.max(max, ++depth)
    else if (c === ']' || c === '}') depth--
    else if (c === '\n') quote = ''
  }
  return max
}

function countLines(text: string, end: number): number {
  let lines = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++
  return lines
}
