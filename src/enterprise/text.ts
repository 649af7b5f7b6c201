import type { SkillFile, SkillSource } from '../core/types'

/** Offset -> 1-based line/column, built once per file and only when a finding needs it. */
export function lineIndex(text: string): (offset: number) => { line: number, column: number } {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    let lo = 0
    let hi = starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (starts[mid] <= offset)
        lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 }
  }
}

/** `decodeURIComponent` that reports malformed escapes as null instead of throwing. */
export function safeDecode(value: string): string | null {
  if (!value.includes('%'))
    return value
  try {
    return decodeURIComponent(value)
  }
  catch {
    return null
  }
}

const MARKDOWN = /\.(?:md|markdown)$/i

export const isMarkdown = (path: string): boolean => MARKDOWN.test(path)

/** Files under one of the progressive-disclosure folders (`references/`, `examples/`, ...). */
export function filesUnder(skill: SkillSource, ...dirs: string[]): SkillFile[] {
  return skill.files.filter(f => dirs.some(d => f.path.startsWith(`${d}/`)))
}

/** posix path of a skill file relative to the project root, as diagnostics carry it. */
export function projectPath(skill: SkillSource, file: string): string {
  return skill.relDir ? `${skill.relDir}/${file}` : file
}

/** Backquoted, shortened, and with control characters made visible, for messages. */
export function quote(value: string, max = 120): string {
  const shown = value.length > max ? `${value.slice(0, max - 1)}…` : value
  // eslint-disable-next-line no-control-regex -- control characters are what it makes visible
  return `\`${shown.replace(/[\u0000-\u001F\u007F]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\``
}
