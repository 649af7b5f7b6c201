/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (!s)
    return 0
  const counts = new Map<string, number>()
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let h = 0
  for (const c of counts.values()) {
    const p = c / s.length
    h -= p * Math.log2(p)
  }
  return h
}

const PLACEHOLDER_WORDS = new RegExp(
  [
    String.raw`x{4,}|X{4,}|\*{3,}|\.{3}|…|<|>|\{|\}|your|example|sample|placeholder|dummy|fake|changeme|change_me`,
    String.raw`|redacted|replace|insert|secret_here|token_here|key_here|here|test123|foobar|abc123|0123456789`,
    String.raw`|123456789|abcdefgh|qwerty|lorem`,
  ].join(''),
  'i',
)

/** Docs are full of `sk-xxxx`, `your-password`, `AKIAIOSFODNN7EXAMPLE`: those are not secrets. */
export function isPlaceholder(value: string): boolean {
  if (PLACEHOLDER_WORDS.test(value))
    return true
  if (/(.)\1{4,}/.test(value))
    return true
  const body = value.replace(/^[A-Za-z]{2,8}[-_](?:[a-z]{2,8}[-_])?/, '')
  return body.length >= 16 && entropy(body) < 3.0
}
