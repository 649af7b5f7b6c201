import type { Lang } from './types'

type CodeLang = Extract<Lang, 'js' | 'py' | 'sh' | 'rb' | 'go'>

// Line shapes that only one language writes. Checked in this order on each of the first lines.
const SHAPES: ReadonlyArray<[CodeLang, RegExp]> = [
  [
    'go',
    new RegExp(
      String.raw`^\s*(?:package\s+\w+\s*$|func\s+(?:\([^)]*\)\s*)?\w+\s*\(|import\s+\(\s*$`
      + String.raw`|\w+\s*:=\s*\S)`,
    ),
  ],
  [
    'py',
    new RegExp(
      String.raw`^\s*(?:from\s+[\w.]+\s+import\s|import\s+[\w.]+(?:\s+as\s+\w+)?\s*$`
      + String.raw`|def\s+\w+\s*\(.*\)\s*(?:->.*)?:\s*$|print\s*\(|if\s+__name__\s*==)`,
    ),
  ],
  [
    'js',
    new RegExp(
      String.raw`^\s*(?:(?:const|let|var)\s+[\w{[][^=]*=|import\s+[^'"]*\sfrom\s+['"]`
      + String.raw`|export\s+(?:default|const|function|async)|(?:async\s+)?function\s*\w*\s*\(|console\.\w+\s*\(`
      + String.raw`|await\s|module\.exports\b)|\brequire\s*\(\s*['"]`,
    ),
  ],
  [
    'rb',
    new RegExp(
      String.raw`^\s*(?:require(?:_relative)?\s+['"]|def\s+\w+[?!]?\s*(?:\(.*\))?\s*$|puts\s|end\s*$`
      + String.raw`|\w+\s*=\s*%x|\w+\.each\s+do\b)`,
    ),
  ],
  [
    'sh',
    new RegExp(
      String.raw`^\s*(?:\$\s+\S|#!\/|(?:sudo|curl|wget|npm|npx|pnpm|yarn|pip3?|pipx|uv|git|cd|export\s+\w+=|echo`
      + String.raw`|printf|chmod|chown|bash|sh|zsh|apt(?:-get)?|brew|docker|kubectl|python3?|node|mkdir|rm|cat|ls|cp`
      + String.raw`|mv|tar|unzip|ssh|scp|source|set\s+-\w|for\s+\w+\s+in\b|if\s+\[)(?:\s|$))`,
    ),
  ],
]

/**
 * The language of unlabelled code (a fence without an info string, a heredoc body): a shebang, then the
 * first line whose shape only one language writes. `null` when nothing says.
 */
export function sniffLang(text: string): CodeLang | null {
  let seen = 0
  for (const line of text.split('\n', 40)) {
    if (!line.trim())
      continue
    if (++seen > 20)
      break
    if (seen === 1 && line.startsWith('#!')) {
      if (/\b(?:node|deno|bun|tsx|ts-node)\b/.test(line))
        return 'js'
      if (/\bpython[\d.]*\b/.test(line))
        return 'py'
      if (/\bruby\b/.test(line))
        return 'rb'
      return 'sh'
    }
    for (const [lang, re] of SHAPES) {
      if (re.test(line))
        return lang
    }
  }
  return null
}
