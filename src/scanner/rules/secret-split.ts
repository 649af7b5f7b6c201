import type { SkillFile } from '../../core/types'
import type { LinePattern, RawFinding } from '../types'
import { redact } from '../excerpt'
import { LineIndex } from '../lines'

/**
 * A token cut into string literals that the language joins again: Python's adjacent literals (`"hf_abc" \` then
 * `"def"` on the next line), `+` in JavaScript, Ruby or Go. Each piece is too short for a token pattern; joined, it
 * is the token. Only pieces that start with a token's prefix are followed.
 */
const START = new RegExp(
  String.raw`(["'\`])(hf_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[baprse]-|sk-|[sr]k_live_|AKIA|ASIA|AIza`
  + String.raw`|SG\.|GOCSPX-|dop_v1_|shpat_|npm_|pypi-|dapi)`,
  'g',
)
const PIECE = /^(["'`])([\w+/=.-]{1,200})\1/
// Between two pieces: a `+`, a line continuation, spaces and at most one line break.
const JOIN = /^[ \t]*\+?[ \t]*(?:\\?[ \t]*\r?\n[ \t]*)?\+?[ \t]*/
const CODE = /\.(?:py|js|mjs|cjs|ts|tsx|jsx|rb|go|sh|bash|kt|kts|java|swift|rs)$/i

export function splitTokens(file: SkillFile, patterns: readonly LinePattern[]): RawFinding[] {
  const text = file.text
  if (text === null || !CODE.test(file.path))
    return []
  const out: RawFinding[] = []
  let index: LineIndex | null = null
  START.lastIndex = 0
  for (let m = START.exec(text); m; m = START.exec(text)) {
    const first = m.index
    let at = first
    const pieces: string[] = []
    for (let p = PIECE.exec(text.slice(at, at + 210)); p; p = PIECE.exec(text.slice(at, at + 210))) {
      pieces.push(p[2]!)
      at += p[0].length
      const gap = JOIN.exec(text.slice(at, at + 200))![0]
      if (!gap || !/["'`]/.test(text[at + gap.length] ?? ''))
        break
      at += gap.length
    }
    START.lastIndex = Math.max(at, first + 1)
    if (pieces.length < 2)
      continue
    const joined = pieces.join('')
    const hit = patterns.find((p) => {
      const t = p.re.exec(joined)
      return t !== null && (!p.accept || p.accept(t, joined, () => ''))
    })
    if (!hit)
      continue
    index ??= new LineIndex(text)
    const line = index.lineOf(first)
    out.push({
      rule: 'secrets',
      path: file.path,
      line: line + 1,
      column: first - index.start(line) + 1,
      message: `${hit.message}, split into string literals`,
      excerpt: redact(joined),
    })
  }
  return out
}
