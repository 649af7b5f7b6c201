import type { LinePattern, RawFinding, RuleModule } from '../types'
import { entropy, isPlaceholder } from '../entropy'
import { redact } from '../excerpt'
import { splitTokens } from './secret-split'

/**
 * Whether most of a value's letters or digits run in order (`A1B2C3D4E5F6...` spells A..F and 1..6): a value
 * typed for documentation. Random keys almost never hold a run of 6.
 */
function typedInOrder(v: string): boolean {
  return [v.replace(/[^A-Z]/gi, '').toLowerCase(), v.replace(/\D/g, '')].some((chars) => {
    let run = 1
    let best = 1
    for (let i = 1; i < chars.length; i++) {
      run = chars.charCodeAt(i) === chars.charCodeAt(i - 1) + 1 ? run + 1 : 1
      best = Math.max(best, run)
    }
    return best >= 6 && best * 2 >= chars.length
  })
}

/** Documentation keys: placeholders, and made-up values typed in order (`AIzaSyA1B2C3D4E5F6G7H8...`). */
const fake = (v: string): boolean => isPlaceholder(v) || typedInOrder(v)
const real = (m: RegExpExecArray): boolean => !fake(m[1] ?? m[0])
/** The first development accounts of Anvil and Hardhat (the `test test ... junk` mnemonic): published keys. */
const DEV_KEYS = new Set([
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
])

function key(anchor: string, re: RegExp, message: string): LinePattern {
  return { anchor, re, langs: ['js', 'py', 'sh', 'prose', 'text'], message, accept: real }
}

/**
 * Whether a PEM body can be key material: key bytes are binary (DER, an OpenSSH blob, ciphertext), while a test
 * fixture's stand-in is often base64 of a sentence ("This is not a real key"), which decodes to text. Encrypted
 * and PGP blocks hold other bytes and are not judged by what they decode to.
 */
function keyShaped(label: string, block: string, body: string): boolean {
  if (/PGP|ENCRYPTED/.test(label) || /\bENCRYPTED\b/.test(block))
    return true
  // Up to the padding (or a PGP checksum line), whole groups of four.
  const end = body.indexOf('=')
  const b64 = body.slice(0, Math.min(end === -1 ? body.length : end, 1024) & ~3)
  let bytes: string
  try {
    bytes = atob(b64)
  }
  catch {
    return false
  }
  let text = 0
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i)
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13)
      text++
  }
  return bytes.length > 0 && text < bytes.length * 0.85
}

/** A PEM header is a secret only when key material follows (docs show `-----BEGIN ... KEY-----` with `...`). */
function pemBody(m: RegExpExecArray, line: string, next: () => string): boolean {
  const rest = line.slice(m.index + m[0].length).replace(/\\n/g, '')
  // The smallest private key, Ed25519's PKCS#8, is 64 characters; a detection rule's pattern holds a shorter
  // prefix (`MIGTAgEAMBMGByqGSM49...`, the start of every P-256 key).
  const body = /[A-Za-z0-9+/=]{60,}/.exec(rest) ?? /^\s*[A-Za-z0-9+/=]{60,}/.exec(next())
  return !!body && !isPlaceholder(body[0]) && entropy(body[0]) > 4
    && keyShaped(m[0], rest + next(), body[0].trim())
}

const PEM = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g
/** Words that mark a documentation key (`...`, `<base64>`, `your key here`); key material has none. */
const DOC_WORDS = /\.\.\.|…|[<>{}]|\b(?:your|example|sample|placeholder|redacted|truncated|here|lorem)\b/i

/**
 * Private key blocks read whole: the body of a real key spans lines, and an OpenSSH key opens with a
 * low-entropy header line (`b3BlbnNzaC1rZXktdjEAAAAA...`) that a one-line check takes for a placeholder.
 */
function pemBlocks(path: string, text: string): RawFinding[] {
  const out: RawFinding[] = []
  PEM.lastIndex = 0
  for (let m = PEM.exec(text); m; m = PEM.exec(text)) {
    const end = text.indexOf('-----END', m.index + m[0].length)
    const block = text.slice(m.index + m[0].length, end === -1 ? m.index + 8000 : end)
    // Armour headers (`Proc-Type: ...`, `Comment: ...`) are not key material.
    const body = block.split(/\r?\n|\\n/).filter(l => !/^[\w-]+:\s/.test(l)).join('').replace(/[\s"'+,]/g, '')
    if (body.length < 64 || DOC_WORDS.test(block) || !/^[A-Za-z0-9+/=]+$/.test(body) || entropy(body) < 4.5
      || !keyShaped(m[1]!, block, body)) {
      continue
    }
    const line = text.slice(0, m.index).split('\n').length
    const column = m.index - (text.lastIndexOf('\n', m.index - 1) + 1) + 1
    out.push({ rule: 'secrets', path, line, column, message: 'private key', excerpt: redact(m[0]) })
  }
  return out
}

/** Hard-coded credentials: private keys, cloud and API tokens. Excerpts are redacted. */
/** A value that looks like a real credential, not a placeholder, a reference or a name. */
function hardCoded(v: string, { digit = true }: { digit?: boolean } = {}): boolean {
  return (
    !fake(v)
    && !/pass(?:word)?|secret|example|sample|demo|dummy|changeme|placeholder/i.test(v)
    // Named for what it stands for (`sk-or-v1-project1-key`): a real key does not end in the word "key".
    && !/[-_](?:api[-_]?)?(?:key|token)$/i.test(v)
    && !/^\$|^%|process\.env|os\.environ|getenv|^env[:.]/i.test(v)
    && (!digit || /\d/.test(v))
    && /[A-Za-z]/.test(v)
    && entropy(v) >= 3.5
  )
}

export const secrets: RuleModule = {
  meta: {
    id: 'secrets',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-798',
    description:
      'Hard-coded secrets: private keys, cloud credentials and API tokens (placeholders such as sk-xxxx or '
      + 'AKIAIOSFODNN7EXAMPLE are ignored).',
    hint:
      'Revoke the credential now, remove it from the skill and its history, and read secrets from the environment '
      + 'at run time.',
  },
  visitSkill(skill) {
    const tokens = secrets.patterns.filter(p => p.accept === real)
    return skill.files.flatMap(f => [
      ...(f.text?.includes('PRIVATE KEY') ? pemBlocks(f.path, f.text) : []),
      ...splitTokens(f, tokens),
    ])
  },
  patterns: [
    {
      anchor: 'PRIVATE KEY',
      re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
      langs: ['js', 'py', 'sh', 'prose', 'text'],
      message: 'private key',
      accept: pemBody,
    },
    {
      // An EVM account's private key (32 bytes in hex) where the line names it one: a deployer's fallback
      // (`process.env.DEPLOYER_KEY ?? "0x..."`), `--private-key 0x...`. Hashes and storage slots look the same, so
      // the line must say key; Anvil's and Hardhat's development keys are public.
      anchor: '0x',
      re: /(?:["'`]|--private-key[=\s]+|\b[A-Z_]*KEY\s*=\s*)(0x[0-9a-fA-F]{64})(?![0-9a-fA-F])/,
      langs: ['js', 'py', 'sh', 'prose', 'text'],
      message: 'Ethereum private key',
      accept: (m, line) => /private[_-]?key|deployer|mnemonic|\baccounts\b|signer|wallet/i.test(line)
        && !DEV_KEYS.has(m[1]!.toLowerCase()) && real(m),
    },
    key('AKIA|ASIA|ABIA|ACCA|A3T', /\b((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16})\b/, 'AWS access key id'),
    key(
      'secret_?access',
      /\b(?:aws_?secret_?access_?key|SecretAccessKey)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/i,
      'AWS secret access key',
    ),
    key(
      'ghp_|gho_|ghu_|ghs_|ghr_|github_pat_',
      /\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{60,})\b/,
      'GitHub token',
    ),
    key('glpat-', /\b(glpat-[A-Za-z0-9_-]{20,})\b/, 'GitLab token'),
    key('xox', /\b(xox[baprse]-(?:\d{8,13}-){1,2}[A-Za-z0-9-]{8,})/, 'Slack token'),
    key(
      'hooks.slack',
      /(https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{8,}\/B[A-Z0-9]{8,}\/[A-Za-z0-9]{20,})/,
      'Slack webhook URL',
    ),
    key(
      'sk-',
      /(?<![\w-])(sk-(?:ant-(?:api|admin|oat)\d{2}-)?(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,})/,
      'OpenAI / Anthropic API key',
    ),
    key('sk_live|rk_live', /\b([sr]k_live_[A-Za-z0-9]{20,})\b/, 'Stripe key'),
    // A test-mode key reaches only test data (Stripe's own docs publish one): worth removing, not a leak.
    { ...key('sk_test|rk_test', /\b([sr]k_test_[A-Za-z0-9]{20,})\b/, 'Stripe test-mode key'), severity: 'warning' },
    key('AIza', /\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/, 'Google API key'),
    key('SG.', /\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})\b/, 'SendGrid key'),
    key('GOCSPX-', /\b(GOCSPX-[A-Za-z0-9_-]{28})(?![A-Za-z0-9_-])/, 'Google OAuth client secret'),
    key('dop_v1_', /\b(dop_v1_[a-f0-9]{64})\b/, 'DigitalOcean token'),
    key('shpat_|shpss_', /\b(shp(?:at|ss)_[a-fA-F0-9]{32})\b/, 'Shopify token'),
    key('LS0tLS1CRUdJTi', /\b(LS0tLS1CRUdJTi[A-Za-z0-9+/=]{120,})/, 'base64-encoded private key or certificate'),
    {
      anchor: 'password',
      re: /^\s*machine\s+\S+\s+login\s+\S+\s+password\s+(\S{8,})/,
      langs: ['text'],
      message: 'netrc credential',
      accept: m => !isPlaceholder(m[1]!) && !/^\$/.test(m[1]!),
    },
    {
      anchor: '://',
      re: new RegExp(
        String.raw`\b(?:https?|ftp|postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis`
        + String.raw`|amqps?):\/\/[\w.%-]{1,64}:([^@\s/'"$<>{}]{8,})@[\w-]+\.[\w.-]+`,
      ),
      langs: ['js', 'py', 'sh', 'prose', 'text'],
      message: 'credentials in a URL',
      accept: (m) => {
        const v = m[1]!
        return !isPlaceholder(v) && !/pass(?:word)?|secret|changeme|^\*+$/i.test(v) && /\d/.test(v)
          && /[A-Za-z]/.test(v) && entropy(v) >= 3
      },
    },
    key('npm_', /\b(npm_[A-Za-z0-9]{36})\b/, 'npm token'),
    key('cio', /\b(cio[A-Za-z0-9]{32})\b/, 'crates.io token'),
    key('AGE-SECRET-KEY-', /\b(AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58})\b/, 'age secret key'),
    key('pypi-', /\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})/, 'PyPI token'),
    key('hf_', /\b(hf_[A-Za-z0-9]{34,})\b/, 'Hugging Face token'),
    key('dapi', /\b(dapi[0-9a-f]{32})(?:-\d)?\b/, 'Databricks token'),
    key('AccountKey', /\bAccountKey=([A-Za-z0-9+/]{80,}={0,2})/, 'Azure storage key'),
    key(':AA', /\b(\d{8,10}:AA[A-Za-z0-9_-]{33})\b/, 'Telegram bot token'),
    key(
      'discord',
      /(https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{16,}\/[\w-]{60,})/,
      'Discord webhook URL',
    ),
    {
      anchor: String.raw`(?:password|passwd|pwd|secret|api[_-]?key|apikey|token|private[_-]?key)["']?\s*[:=]`,
      re: new RegExp(
        [
          String.raw`\b(?:[A-Za-z0-9]{1,20}_)?(?:password|passwd|pwd|secret|client_secret|api[_-]?key|apikey`,
          String.raw`|access[_-]?token|auth[_-]?token|private[_-]?key)\b["']?\s*[:=]\s*["']([^"'\s]{12,})["']`,
        ].join(''),
        'i',
      ),
      langs: ['js', 'py', 'sh', 'prose', 'text'],
      message: 'hard-coded credential',
      accept: m => hardCoded(m[1]!),
    },
    {
      // A properties, dotenv or ini line: the value unquoted (`storePassword=...`, `MYAPP_KEY_PASSWORD=...`).
      // An anchor is found at a word's start: camelCase names are anchors of their own.
      anchor: 'password|passwd|secret|token|storePassword|keyPassword|clientSecret|accessToken|authToken|apiToken',
      re: /^\s*[\w.-]{0,40}?(?:password|passwd|secret|token)\s*[=:]\s*([^\s"'`$%{}<>]{12,})\s*$/i,
      langs: ['text'],
      message: 'hard-coded credential',
      accept: m => hardCoded(m[1]!),
    },
    {
      // Gradle's signing config, Groovy or Kotlin: `storePassword "..."`, `keyPassword = "..."`.
      anchor: 'storePassword|keyPassword',
      // A password need not hold a digit, as a key does.
      re: /^\s*(?:store|key)Password\s*(?:=\s*)?\(?\s*["']([^"'\s$]{10,})["']\s*\)?\s*$/i,
      langs: ['text', 'js'],
      message: 'hard-coded credential',
      accept: m => hardCoded(m[1]!, { digit: false }),
    },
  ],
}
