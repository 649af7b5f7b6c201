import { buildFinder, lazyFinder, splitAlternatives } from '../finder'

// Calls, modules and globals the AST rules read (process, network, eval, obfuscation).
const NAMES = (
  'eval Function child_process execSync execFileSync execFile exec spawnSync spawn fork fetch http2 '
  + 'dgram tls net WebSocket XMLHttpRequest EventSource sendBeacon axios got undici superagent needle '
  + 'execa shelljs zx Deno Bun dlopen binding _linkedBinding atob fromCharCode base64 globalThis global '
  + 'window self Reflect vm runInThisContext runInNewContext runInContext compileFunction'
).split(' ')
// Filesystem writes the AST rules read (node:fs, fs-extra, Deno).
const FS_WRITES = (
  'writeFile writeFileSync appendFile appendFileSync mkdir mkdirSync unlink unlinkSync rm rmSync rmdir '
  + 'rmdirSync rename renameSync copyFile copyFileSync cp cpSync createWriteStream chmod chmodSync chown '
  + 'chownSync truncate truncateSync symlink symlinkSync outputFile outputFileSync writeJson '
  + 'writeJsonSync remove removeSync emptyDir move moveSync writeTextFile write'
).split(' ')

/**
 * Tokens without which no AST rule can fire. Files without any of them skip the (slow) parse.
 * Literal module names matter only when sensitive; `require`/`import()` only when their argument is computed.
 */
export const AST_TRIGGER = new RegExp(
  [
    String.raw`\b(?:${NAMES.join('|')})\b`,
    String.raw`\b(?:${FS_WRITES.join('|')})\b`,
    String.raw`\bhttps?\b(?!:\/\/)`,
    String.raw`\.\s*constructor\b|['"\`]constructor\b|\bconstructor['"\`]`,
    String.raw`\bimport\s*\(`,
    String.raw`\brequire\s*\(\s*(?!['"][^'"\n]*['"]\s*\))`,
    String.raw`\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen|mainModule|env\b(?!\s*\.|\s*\[))`,
    String.raw`\bset(?:Timeout|Interval|Immediate)\s*\(\s*['"\`]`,
    String.raw`\[\s*['"\`][^'"\`\n]{0,40}['"\`]\s*\+`,
    String.raw`(?:\\x[0-9A-Fa-f]{2}){4}|(?:\\u00[0-7][0-9A-Fa-f]){4}`,
  ].join('|'),
)

/** `AST_TRIGGER.test` at literal-search speed (same answer); its tables are built on the first test. */
export const AST_TRIGGER_TOKENS: readonly string[] = splitAlternatives(AST_TRIGGER.source)
export const AST_TRIGGER_FINDER = lazyFinder(() => buildFinder(AST_TRIGGER_TOKENS, false))
