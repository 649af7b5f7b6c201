const MAX = 80

// Invisible or control characters a reviewer must see spelled out (Trojan Source, zero-width, tags).
const INVISIBLE = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- variation selectors are among what it must spell out
  [
    String.raw`[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F`,
    String.raw`\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]`,
    String.raw`|[\u{E0000}-\u{E0FFF}]|\t`,
  ].join(''),
  'gu',
)

/** Escapes invisible characters as `\u{...}` and caps the length (with an ellipsis). */
export function escapeExcerpt(text: string): string {
  let out = text.replace(INVISIBLE, ch => `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`)
  if (out.length > MAX) {
    let cut = MAX - 1
    // Do not split a surrogate pair or an escape.
    const esc = out.lastIndexOf('\\u{', cut)
    if (esc !== -1 && out.indexOf('}', esc) >= cut)
      cut = esc
    if (cut > 0 && /[\uD800-\uDBFF]/.test(out[cut - 1]!))
      cut--
    out = `${out.slice(0, cut)}…`
  }
  return out
}

/** The matched text, widened with some context when it is too short to read alone. */
export function excerptAt(line: string, index: number, length: number): string {
  const pad = length < 24 ? 16 : 0
  const start = Math.max(0, index - pad)
  return escapeExcerpt(line.slice(start, index + length + pad).trim() || line.slice(index, index + length))
}

/** Secrets are never echoed in full: logs, SARIF and the manifest would leak them again. */
export function redact(secret: string): string {
  const s = secret.trim()
  if (s.length <= 8)
    return '*'.repeat(s.length)
  return `${s.slice(0, Math.min(6, Math.floor(s.length / 4)))}…${'*'.repeat(4)}`
}
