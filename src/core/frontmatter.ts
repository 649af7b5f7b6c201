import type { Severity } from './types'
import { Buffer } from 'node:buffer'
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml'
import { detach } from './detach'

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
  locate: (path: string) => { line: number, column: number } | null
}

/** Bounds on what one YAML document may cost: size, aliases, nesting. */
export const FRONTMATTER_LIMITS = { maxBytes: 64 * 1024, maxNodes: 10_000, maxDepth: 32 } as const

const EXECUTABLE = new Set(['js', 'javascript', 'coffee', 'coffeescript', 'cson'])

/**
 * Parses `---` YAML frontmatter: js-yaml reads the block with the core schema (no timestamps or custom tags;
 * duplicate keys rejected), bounded in size, nesting and alias expansion. `---js` and other executable
 * frontmatter languages are refused: frontmatter never executes code.
 */
export function parseFrontmatter(input: string): ParsedFrontmatter {
  const text = input.charCodeAt(0) === 0xFEFF ? input.slice(1) : input
  const src = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text
  const diagnostics: FrontmatterIssue[] = []
  const fail = (
    code: string,
    message: string,
    line: number,
    column: number,
    hint: string | null = null,
  ): ParsedFrontmatter => {
    diagnostics.push({ code, severity: 'error', message, line, column, hint })
    return { data: null, body: src, bodyLine: 1, diagnostics, locate: () => null }
  }

  const firstLine = src.slice(0, src.indexOf('\n') >>> 0)
  if (!/^---[ \t]*\S*[ \t]*$/.test(firstLine) || firstLine.startsWith('----')) {
    return fail(
      'frontmatter/missing',
      'SKILL.md does not start with a `---` frontmatter block',
      1,
      1,
      'Start the file with `---`, the YAML fields (name, description, ...), then a closing `---` line.',
    )
  }

  const language = firstLine.slice(3).trim().toLowerCase()
  if (EXECUTABLE.has(language)) {
    return fail(
      'frontmatter/executable',
      `\`---${language}\` frontmatter is executable code and is never run`,
      1,
      4,
      'Use plain YAML frontmatter: `---` followed by `key: value` lines.',
    )
  }
  if (language !== '' && language !== 'yaml' && language !== 'yml') {
    return fail(
      'frontmatter/language',
      `frontmatter language \`${language}\` is not supported`,
      1,
      4,
      'Use plain YAML frontmatter (`---`).',
    )
  }

  // The closing delimiter must be a line of its own (`---x` does not close the block).
  const close = /\n---[ \t]*(?:\n|$)/g
  close.lastIndex = firstLine.length
  const closing = close.exec(src)
  if (!closing) {
    return fail(
      'frontmatter/unterminated',
      'the frontmatter block is never closed',
      1,
      1,
      'Add a line with only `---` after the last frontmatter field.',
    )
  }
  if (Buffer.byteLength(src.slice(firstLine.length, closing.index)) > FRONTMATTER_LIMITS.maxBytes) {
    return fail(
      'frontmatter/too-large',
      `frontmatter is larger than ${FRONTMATTER_LIMITS.maxBytes / 1024} KiB`,
      2,
      1,
      'Move long content into the markdown body or references/.',
    )
  }

  if (flowDepth(src, firstLine.length, closing.index) > FRONTMATTER_LIMITS.maxDepth) {
    return fail(
      'frontmatter/too-deep',
      `frontmatter nests deeper than ${FRONTMATTER_LIMITS.maxDepth} levels`,
      2,
      1,
      'Flatten the structure.',
    )
  }

  // The block ends at the first line that starts with `---`; a closing line of its own must be that line, or
  // where the block ends is ambiguous (tools that stop at the first `\n---` read another block than ours).
  const block = src.slice(firstLine.length, closing.index)
  const early = block.indexOf('\n---')
  if (early !== -1) {
    return fail(
      'frontmatter/delimiter',
      'a line starting with `---` inside the frontmatter makes its end ambiguous',
      countLines(src, firstLine.length + early + 1),
      1,
      'Indent or quote that line, or make the closing delimiter the first line that starts with `---`.',
    )
  }
  let data: unknown
  let yamlError: YAMLException | null = null
  // A block of blank and comment lines holds no document: it is empty, not a YAML error.
  if (block.replace(/^\s*#[^\n]+/gm, '').trim() !== '') {
    try {
      // Values are substrings of what js-yaml reads: a copy of the block keeps them from holding the whole file.
      data = load(detach(block), { schema: CORE_SCHEMA, json: false })
    }
    catch (error) {
      if (!(error instanceof YAMLException))
        return fail('frontmatter/yaml', `frontmatter could not be parsed: ${(error as Error).message}`, 1, 1)
      yamlError = error
    }
  }
  const bodyStart = closing.index + closing[0].length
  const result: ParsedFrontmatter = {
    data: null,
    body: src.slice(bodyStart),
    bodyLine: countLines(src, bodyStart),
    diagnostics,
    locate: () => null,
  }

  const error = yamlError as YAMLException | null
  if (error) {
    // The block starts right after the opening `---`, so its line N (0-based) is the file's line N + 1.
    diagnostics.push(
      yamlIssue(error.reason ?? error.message, (error.mark?.line ?? 0) + 1, (error.mark?.column ?? 0) + 1),
    )
    return result
  }
  if (data === undefined || data === null) {
    diagnostics.push({
      code: 'frontmatter/empty',
      severity: 'error',
      message: 'the frontmatter block is empty',
      line: 2,
      column: 1,
      hint: 'Add the required fields, e.g. `name:` and `description:`.',
    })
    return result
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    diagnostics.push({
      code: 'frontmatter/not-a-map',
      severity: 'error',
      message: 'frontmatter must be a mapping of `key: value` fields',
      line: 2,
      column: 1,
      hint: 'Write the fields as `name: my-skill` lines.',
    })
    return result
  }
  // Aliases load as shared references: bound the size they would expand to before anything walks or serialises it.
  const size = expandedSize(data)
  if (size > FRONTMATTER_LIMITS.maxNodes) {
    diagnostics.push({
      code: 'frontmatter/alias-limit',
      severity: 'error',
      message: `YAML aliases expand the frontmatter beyond ${FRONTMATTER_LIMITS.maxNodes} values`,
      line: 2,
      column: 1,
      hint: 'Write the values out instead of using `&anchor`/`*alias` references.',
    })
    return result
  }
  if (depthOf(data, 0) > FRONTMATTER_LIMITS.maxDepth) {
    diagnostics.push({
      code: 'frontmatter/too-deep',
      severity: 'error',
      message: `frontmatter nests deeper than ${FRONTMATTER_LIMITS.maxDepth} levels`,
      line: 2,
      column: 1,
      hint: 'Flatten the structure.',
    })
    return result
  }
  result.data = data as Record<string, unknown>
  result.locate = (path: string) => locateKey(block, path.split('.'))
  return result
}

function yamlIssue(reason: string, line: number, column: number): FrontmatterIssue {
  if (/duplicated mapping key/.test(reason)) {
    return {
      code: 'frontmatter/duplicate-key',
      severity: 'error',
      message: 'a key appears twice in the frontmatter',
      line,
      column,
      hint: 'Each field may appear once; remove or merge the duplicate.',
    }
  }
  const compact = /mapping entry|mapping pair|implicit key/i.test(reason)
  return {
    code: 'frontmatter/yaml',
    severity: 'error',
    message: `YAML syntax error: ${reason}`,
    line,
    column,
    hint: compact ? 'A value containing `: ` must be quoted, e.g. `description: "Use when: ..."`.' : null,
  }
}

/**
 * Line/column of a (dotted) key in block-style YAML: `name`, `metadata.owner`, `tags.1`.
 * A cheap line scan; keys inside flow mappings resolve to their nearest located parent.
 */
function locateKey(block: string, path: string[]): { line: number, column: number } | null {
  const lines = block.split('\n')
  let found: { line: number, column: number } | null = null
  let from = 0
  let parentIndent = -1
  for (const segment of path) {
    let hit = -1
    let indent = 0
    let seq = 0
    for (let i = from; i < lines.length; i++) {
      const text = lines[i]
      const current = text.length - text.trimStart().length
      if (text.trim() === '' || text.trimStart().startsWith('#'))
        continue
      if (i > from && current <= parentIndent)
        break
      if (/^\d+$/.test(segment) && text.trimStart().startsWith('- ')) {
        if (seq++ === Number(segment)) {
          hit = i
          // A sequence item is located at its value, after `- `.
          indent = text.length - text.slice(current + 2).trimStart().length
          break
        }
        continue
      }
      const key = /^(\s*)(?:"([^"]*)"|'([^']*)'|([^\s:#][^:#]*?))\s*:(?:\s|$)/.exec(text)
      if (
        key
        && (key[2] ?? key[3] ?? key[4]) === segment
        && (parentIndent < 0 ? current === 0 : current > parentIndent)
      ) {
        hit = i
        indent = current
        break
      }
    }
    if (hit < 0)
      return found
    found = { line: hit + 1, column: indent + 1 }
    from = hit + 1
    parentIndent = indent
  }
  return found
}

/** The number of values `data` would have with every alias expanded, counted without expanding (memoised per node). */
function expandedSize(data: unknown): number {
  const memo = new Map<object, number>()
  const visiting = new Set<object>()
  const size = (value: unknown): number => {
    if (value === null || typeof value !== 'object')
      return 1
    const known = memo.get(value)
    if (known !== undefined)
      return known
    if (visiting.has(value))
      return Number.POSITIVE_INFINITY
    visiting.add(value)
    let total = 1
    for (const child of Object.values(value)) {
      total += size(child)
      if (total > FRONTMATTER_LIMITS.maxNodes)
        break
    }
    visiting.delete(value)
    memo.set(value, total)
    return total
  }
  return size(data)
}

function depthOf(value: unknown, depth: number): number {
  if (depth > FRONTMATTER_LIMITS.maxDepth || value === null || typeof value !== 'object')
    return depth
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
      if (c === quote)
        quote = ''
      else if (c === '\\' && quote === '"')
        i++
    }
    else if (c === '"' || c === '\'') {
      quote = c
    }
    else if (c === '[' || c === '{') {
      max = Math.max(max, ++depth)
    }
    else if (c === ']' || c === '}') {
      depth--
    }
    else if (c === '\n') {
      quote = ''
    }
  }
  return max
}

function countLines(text: string, end: number): number {
  let lines = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++
  return lines
}
