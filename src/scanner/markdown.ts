import type { SkillFile } from '../core/types'
import type { LineIndex } from './lines'
import type { Lang, RawFinding } from './types'
import { markdownOf } from '../core/markdown'

export interface Fence {
  /** 0-based line of the opening fence. */
  open: number
  /** 0-based line of the closing fence (or the last line when unclosed). */
  close: number
  info: string
  lang: Lang | 'ts' | 'jsx' | 'tsx'
  indent: number
}

const LANG_OF: Record<string, Fence['lang']> = {
  'js': 'js',
  'javascript': 'js',
  'mjs': 'js',
  'cjs': 'js',
  'node': 'js',
  'jsx': 'jsx',
  'ts': 'ts',
  'typescript': 'ts',
  'mts': 'ts',
  'cts': 'ts',
  'tsx': 'tsx',
  'py': 'py',
  'python': 'py',
  'python3': 'py',
  'py3': 'py',
  'ipython': 'py',
  'sh': 'sh',
  'bash': 'sh',
  'shell': 'sh',
  'zsh': 'sh',
  'console': 'sh',
  'terminal': 'sh',
  'shell-session': 'sh',
  'shellsession': 'sh',
  'powershell': 'sh',
  'ps1': 'sh',
  'pwsh': 'sh',
  'ps': 'sh',
  'bat': 'sh',
  'cmd': 'sh',
  'batch': 'sh',
  'fish': 'sh',
  'ksh': 'sh',
  'md': 'prose',
  'markdown': 'prose',
}

/**
 * The fenced code blocks of a markdown file (core/markdown: CommonMark fences), with the language their
 * info string names: its first word, up to a space, a backtick or `{` (`js{1,3}`), lowercased.
 */
export function findFences(file: SkillFile): Fence[] {
  return (markdownOf(file)?.fences ?? []).map((f) => {
    const info = /^[^\s`{]*/.exec(f.info)![0].toLowerCase()
    return { open: f.openLine, close: f.closeLine, info, lang: LANG_OF[info] ?? 'text', indent: f.column }
  })
}

// A warning that *mentions* an attack is documentation. The marker must govern the match:
// before it in the same sentence, or leading the line right above a fenced block.
const LEAD_SAME_LINE
  = /(?:\bnever\b(?!\s+mind)|\bdo\s+not\b|\bdon['’]t\b|\bmust\s+not\b|\bshould\s+not\b|\bnot\s+safe\b|❌|🚫|⛔)/gi
const LEAD_ABOVE_BLOCK = new RegExp(
  String.raw`^[\s>*_#\-:|]*(?:never\b(?!\s+mind)|do\s+not\b|don['’]t\b|bad\b|unsafe\b|insecure\b|dangerous\b|wrong\b`
  + String.raw`|anti-?pattern\b|avoid\b|malicious\b`
  + String.raw`|examples?\s+of\s+(?:\w+\s+){0,3}?(?:attacks?|malicious|injections?|phishing|payloads?)`
  + String.raw`|❌|🚫|⛔|⚠️?\s*(?:never|do\s+not|don['’]t|dangerous|insecure|unsafe))`,
  'i',
)
const QUOTED_ATTACK = new RegExp(
  String.raw`\b(?:detect\w*|flag\w*|block\w*|reject\w*|filter\w*|attack\w*|inject\w*|malicious|adversar\w*|exploit\w*`
  + String.raw`|phrases?\s+(?:like|such\s+as)|such\s+as|e\.g\.|for\s+example|jailbreak\w*)\b`,
  'i',
)

export const CAUTION_RULES = new Set([
  'remote_exec',
  'dangerous_shell',
  'prompt_injection',
  'exfiltration',
  'obfuscation',
  'encoded_payload',
  'reverse_shell',
  'crypto_mining',
  'supply_chain',
])

function governedOnLine(line: string, column: number): boolean {
  const before = line.slice(0, column - 1)
  LEAD_SAME_LINE.lastIndex = 0
  let last = -1
  for (let m = LEAD_SAME_LINE.exec(before); m; m = LEAD_SAME_LINE.exec(before)) last = m.index + m[0].length
  if (last === -1)
    return false
  // Same sentence: no sentence end between the marker and the match.
  return !/[.!?;:]\s|\s-\s/.test(before.slice(last))
}

function isQuoted(line: string, column: number): boolean {
  const before = line.slice(0, column - 1)
  const ticks = (before.match(/`/g) ?? []).length
  const quotes = (before.match(/["“”]/g) ?? []).length
  return ticks % 2 === 1 || quotes % 2 === 1
}

/** Marks findings that a markdown warning only quotes ("never run `curl | sh`"): they are reported as info. */
export function markCautionary(findings: RawFinding[], index: LineIndex, fences: Fence[], path: string): void {
  for (const f of findings) {
    if (f.path !== path || !CAUTION_RULES.has(f.rule))
      continue
    if (f.rule === 'exfiltration' && /image|link/.test(f.message))
      continue
    const line0 = f.line - 1
    const text = index.line(line0)
    let cautious = governedOnLine(text, f.column)
    if (!cautious && f.rule === 'prompt_injection')
      cautious = isQuoted(text, f.column) && QUOTED_ATTACK.test(text)
    const fence = fences.find(fc => line0 > fc.open && line0 < fc.close + (fc.close === index.count - 1 ? 1 : 0))
    if (!cautious && fence) {
      let seen = 0
      for (let i = fence.open - 1; i >= 0 && seen < 2; i--) {
        const above = index.line(i)
        if (!above.trim())
          continue
        seen++
        if (LEAD_ABOVE_BLOCK.test(above)) {
          cautious = true
          break
        }
      }
    }
    if (cautious)
      f.cautionary = true
  }
}
