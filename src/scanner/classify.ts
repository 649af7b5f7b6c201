import type { JsFlavor, Lang } from './types'

export type FileKind
  = { lang: Exclude<Lang, 'prose'>, flavor?: JsFlavor, markdown?: false } | { lang: 'prose', markdown: true }

const EXT: Record<string, FileKind> = {
  js: { lang: 'js', flavor: 'js' },
  mjs: { lang: 'js', flavor: 'js' },
  cjs: { lang: 'js', flavor: 'js' },
  jsx: { lang: 'js', flavor: 'jsx' },
  ts: { lang: 'js', flavor: 'ts' },
  mts: { lang: 'js', flavor: 'ts' },
  cts: { lang: 'js', flavor: 'ts' },
  tsx: { lang: 'js', flavor: 'tsx' },
  py: { lang: 'py' },
  pyw: { lang: 'py' },
  sh: { lang: 'sh' },
  bash: { lang: 'sh' },
  zsh: { lang: 'sh' },
  ksh: { lang: 'sh' },
  fish: { lang: 'sh' },
  ps1: { lang: 'sh' },
  psm1: { lang: 'sh' },
  bat: { lang: 'sh' },
  cmd: { lang: 'sh' },
  command: { lang: 'sh' },
  rb: { lang: 'rb' },
  rake: { lang: 'rb' },
  gemspec: { lang: 'rb' },
  go: { lang: 'go' },
  md: { lang: 'prose', markdown: true },
  mdx: { lang: 'prose', markdown: true },
  markdown: { lang: 'prose', markdown: true },
}

// Files whose name is their language.
const NAMED: Record<string, FileKind> = {
  Rakefile: { lang: 'rb' },
  Gemfile: { lang: 'rb' },
}

/** Language of a skill file from its extension, else its shebang; anything else is plain text. */
export function classify(path: string, text: string): FileKind {
  const base = path.slice(path.lastIndexOf('/') + 1)
  const dot = base.lastIndexOf('.')
  const kind = dot > 0 ? EXT[base.slice(dot + 1).toLowerCase()] : NAMED[base]
  if (kind)
    return kind
  if (text.startsWith('#!')) {
    const first = text.slice(0, text.indexOf('\n') >>> 0 === 4294967295 ? 200 : Math.min(200, text.indexOf('\n')))
    if (/\b(?:node|deno|bun|tsx|ts-node)\b/.test(first))
      return { lang: 'js', flavor: 'js' }
    if (/\bpython[\d.]*\b/.test(first))
      return { lang: 'py' }
    if (/\bruby\b/.test(first))
      return { lang: 'rb' }
    if (/\b(?:ba|z|k|da|fi)?sh\b|\bpwsh\b/.test(first))
      return { lang: 'sh' }
  }
  return { lang: 'text' }
}
