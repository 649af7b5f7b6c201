/**
 * A deliberately small Markdown reader for SKILL.md bodies: headings, paragraphs, lists (nested),
 * fenced code, block quotes, rules, and inline code / emphasis / links / images. Not CommonMark.
 *
 * Skill text is untrusted, so parsing yields plain data and rendering builds DOM nodes with
 * `textContent`: no HTML from the skill ever reaches the page. Every scan is linear or bounded.
 */

export type Inline
  = | { type: 'text', text: string }
    | { type: 'code', text: string }
    | { type: 'strong' | 'em', children: Inline[] }
    | { type: 'link', href: string, children: Inline[] }
    | { type: 'image', src: string, alt: string }

export type Block
  = | { type: 'heading', level: number, children: Inline[] }
    | { type: 'paragraph', children: Inline[] }
    | { type: 'code', lang: string, text: string }
    | { type: 'quote', children: Block[] }
    | { type: 'list', ordered: boolean, start: number, items: Block[][] }
    | { type: 'rule' }

/** Deeper nesting than this (hostile input) is read as plain paragraphs. */
const MAX_DEPTH = 8
/** Longer link labels or autolinks are not links: keeps every opener's work bounded. */
const MAX_LABEL = 2000

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/
const QUOTE = /^ {0,3}> ?/
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/

const isBlank = (line: string): boolean => line.trim() === ''
const indentOf = (line: string): number => line.length - line.trimStart().length
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line)
}

export function parseMarkdown(text: string): Block[] {
  return parseBlocks(text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n'), 0)
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (isBlank(line)) {
      i++
      continue
    }
    const fence = FENCE.exec(line)
    if (fence) {
      const marker = fence[1]
      const indent = indentOf(line)
      const body: string[] = []
      i++
      while (i < lines.length && !isClosingFence(lines[i], marker)) body.push(stripIndent(lines[i++], indent))
      i++
      blocks.push({ type: 'code', lang: fence[2], text: body.join('\n') })
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, children: parseInline(heading[2] ?? '') })
      i++
      continue
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' })
      i++
      continue
    }
    if (depth < MAX_DEPTH && QUOTE.test(line)) {
      const inner: string[] = []
      while (i < lines.length && !isBlank(lines[i]) && (QUOTE.test(lines[i]) || !startsBlock(lines[i])))
        inner.push(lines[i++].replace(QUOTE, ''))
      blocks.push({ type: 'quote', children: parseBlocks(inner, depth + 1) })
      continue
    }
    if (depth < MAX_DEPTH && ITEM.test(line)) {
      i = parseList(lines, i, depth, blocks)
      continue
    }
    const para: string[] = [line.trim()]
    i++
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i])) para.push(lines[i++].trim())
    blocks.push({ type: 'paragraph', children: parseInline(para.join('\n')) })
  }
  return blocks
}

/** Parses the list starting at `start`, pushes it, and returns the index of the first line after it. */
function parseList(lines: string[], start: number, depth: number, out: Block[]): number {
  const first = ITEM.exec(lines[start])!
  const ordered = /\d/.test(first[2])
  const kind = (m: RegExpExecArray): string => (/\d/.test(m[2]) ? m[2].slice(-1) : m[2])
  const items: Block[][] = []
  let i = start
  while (i < lines.length) {
    const m = ITEM.exec(lines[i])
    if (!m || kind(m) !== kind(first))
      break
    // Continuation lines are those indented at least to the item's text.
    const contentIndent = m[1].length + m[2].length + (m[3].length || 1)
    const body: string[] = [lines[i].slice(m[0].length)]
    i++
    while (i < lines.length) {
      const line = lines[i]
      if (isBlank(line)) {
        let next = i + 1
        while (next < lines.length && isBlank(lines[next])) next++
        if (next >= lines.length || indentOf(lines[next]) < contentIndent)
          break
        while (i < next) {
          body.push('')
          i++
        }
        continue
      }
      if (indentOf(line) >= contentIndent)
        body.push(line.slice(contentIndent))
      else if (!startsBlock(line) && !isBlank(body[body.length - 1]))
        body.push(line.trim()) // lazy paragraph continuation
      else break
      i++
    }
    items.push(parseBlocks(body, depth + 1))
    // A blank line between items of the same list does not end it.
    let next = i
    while (next < lines.length && isBlank(lines[next])) next++
    const again = next < lines.length ? ITEM.exec(lines[next]) : null
    if (!again || kind(again) !== kind(first))
      break
    i = next
  }
  out.push({ type: 'list', ordered, start: ordered ? Number.parseInt(first[2], 10) : 1, items })
  return i
}

function isClosingFence(line: string, marker: string): boolean {
  const trimmed = line.trim()
  return trimmed.length >= marker.length && trimmed[0] === marker[0] && /^(`+|~+)$/.test(trimmed) && indentOf(line) < 4
}

function stripIndent(line: string, indent: number): string {
  return line.slice(Math.min(indent, indentOf(line)))
}

/**
 * Inline syntax. Each opener looks ahead for its closer with `indexOf`; the last answer is remembered
 * per needle, so a line of a million unmatched `[` stays linear instead of quadratic.
 */
export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = []
  let plain = ''
  const flush = (): void => {
    if (plain)
      out.push({ type: 'text', text: plain })
    plain = ''
  }
  const seen = new Map<string, { from: number, at: number }>()
  const find = (needle: string, from: number): number => {
    const last = seen.get(needle)
    // The previous search from at most `from` already knows the answer when it did not stop before `from`.
    if (last && last.from <= from && (last.at === -1 || last.at >= from))
      return last.at
    const at = text.indexOf(needle, from)
    seen.set(needle, { from, at })
    return at
  }
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1])) {
      plain += text[i + 1]
      i += 2
      continue
    }
    if (c === '`') {
      let run = 1
      while (text[i + run] === '`') run++
      const ticks = '`'.repeat(run)
      const close = find(ticks, i + run)
      if (close !== -1) {
        flush()
        out.push({
          type: 'code',
          text: text
            .slice(i + run, close)
            .replace(/\n/g, ' ')
            .replace(/^ (.*) $/, '$1'),
        })
        i = close + run
        continue
      }
      plain += ticks
      i += run
      continue
    }
    if ((c === '[' || (c === '!' && text[i + 1] === '[')) && depth < MAX_DEPTH) {
      const open = c === '!' ? i + 1 : i
      const close = find(']', open + 1)
      const end = close === -1 || close - open > MAX_LABEL || text[close + 1] !== '(' ? -1 : find(')', close + 2)
      const label = end === -1 ? '' : text.slice(open + 1, close)
      if (end !== -1 && end - close <= MAX_LABEL && !label.includes('\n')) {
        const target
          = text
            .slice(close + 2, end)
            .trim()
            .split(/\s+/)[0] ?? ''
        flush()
        if (c === '!')
          out.push({ type: 'image', src: target, alt: label })
        else out.push({ type: 'link', href: target, children: parseInline(label, depth + 1) })
        i = end + 1
        continue
      }
    }
    if (c === '<') {
      const close = find('>', i + 1)
      const inner = close === -1 || close - i > MAX_LABEL ? '' : text.slice(i + 1, close)
      if (/^(?:https?:\/\/|mailto:)[^\s<>]+$/i.test(inner)) {
        flush()
        out.push({ type: 'link', href: inner, children: [{ type: 'text', text: inner.replace(/^mailto:/i, '') }] })
        i = close + 1
        continue
      }
    }
    if ((c === '*' || c === '_') && depth < MAX_DEPTH) {
      const strong = text[i + 1] === c
      const marker = strong ? c + c : c
      // `_` only at word boundaries, so snake_case_names stay text.
      const boundary = c === '*' || !/\w/.test(text[i - 1] ?? '')
      const inner = i + marker.length
      if (boundary && inner < text.length && !/\s/.test(text[inner])) {
        const close = find(marker, inner + 1)
        const after = close === -1 ? '' : (text[close + marker.length] ?? '')
        if (close !== -1 && !/\s/.test(text[close - 1]) && (c === '*' || !/\w/.test(after))) {
          flush()
          out.push({ type: strong ? 'strong' : 'em', children: parseInline(text.slice(inner, close), depth + 1) })
          i = close + marker.length
          continue
        }
      }
    }
    plain += c
    i++
  }
  flush()
  return out
}

/** Plain text of inline nodes (for ids, titles and alt text). */
export function inlineText(nodes: Inline[]): string {
  return nodes
    .map(n => (n.type === 'text' || n.type === 'code' ? n.text : n.type === 'image' ? n.alt : inlineText(n.children)))
    .join('')
}

export interface RenderOptions {
  /** Headings are shifted by this many levels (the page owns h1/h2). */
  headingOffset: number
  /**
   * Turns a link target into an href, or null to render the label as text.
   * Relative targets point into the skill; the caller decides what they become.
   */
  link: (href: string) => { href: string, external: boolean } | null
}

/** Renders parsed blocks as DOM nodes; untrusted text only ever goes through `textContent`. */
export function renderMarkdown(blocks: Block[], options: RenderOptions): DocumentFragment {
  const fragment = document.createDocumentFragment()
  for (const block of blocks) fragment.append(renderBlock(block, options))
  return fragment
}

function renderBlock(block: Block, options: RenderOptions): Node {
  switch (block.type) {
    case 'heading': {
      const level = Math.min(6, block.level + options.headingOffset)
      const el = document.createElement(`h${level}`)
      el.append(renderInline(block.children, options))
      return el
    }
    case 'paragraph': {
      const el = document.createElement('p')
      el.append(renderInline(block.children, options))
      return el
    }
    case 'code': {
      const pre = document.createElement('pre')
      const code = document.createElement('code')
      if (/^[\w+-]{1,20}$/.test(block.lang))
        code.dataset.lang = block.lang
      code.textContent = block.text
      pre.append(code)
      return pre
    }
    case 'quote': {
      const el = document.createElement('blockquote')
      el.append(renderMarkdown(block.children, options))
      return el
    }
    case 'rule':
      return document.createElement('hr')
    case 'list': {
      const el = document.createElement(block.ordered ? 'ol' : 'ul')
      if (block.ordered && block.start !== 1)
        el.setAttribute('start', String(block.start))
      for (const item of block.items) {
        const li = document.createElement('li')
        // Tight items: a lone paragraph renders without its <p>.
        if (item.length === 1 && item[0].type === 'paragraph')
          li.append(renderInline(item[0].children, options))
        else li.append(renderMarkdown(item, options))
        el.append(li)
      }
      return el
    }
  }
}

function renderInline(nodes: Inline[], options: RenderOptions): DocumentFragment {
  const fragment = document.createDocumentFragment()
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        fragment.append(node.text)
        break
      case 'code': {
        const el = document.createElement('code')
        el.textContent = node.text
        fragment.append(el)
        break
      }
      case 'strong':
      case 'em': {
        const el = document.createElement(node.type)
        el.append(renderInline(node.children, options))
        fragment.append(el)
        break
      }
      case 'link': {
        const target = options.link(node.href)
        if (!target) {
          fragment.append(renderInline(node.children, options))
          break
        }
        const a = document.createElement('a')
        a.href = target.href
        if (target.external) {
          a.target = '_blank'
          a.rel = 'noopener noreferrer'
        }
        a.append(renderInline(node.children, options))
        fragment.append(a)
        break
      }
      case 'image': {
        // Skill resources are not served by the app: show what the image is, not a broken <img>.
        const el = document.createElement('span')
        el.className = 'md-image'
        el.textContent = `Image: ${node.alt || node.src}`
        el.title = node.src
        fragment.append(el)
        break
      }
    }
  }
  return fragment
}
