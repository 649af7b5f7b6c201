/** Abstract values of the constant folder: just enough to see through string building and aliases. */
export type Value
  = | { k: 'str', v: string }
    | { k: 'num', v: number }
    | { k: 'arr', v: Array<Value | null> }
  /** The global object (globalThis, window, self, global). */
    | { k: 'global' }
  /** A global binding: eval, Function, fetch, require, process, Buffer, String, Reflect, ... */
    | { k: 'gv', name: string }
  /** A module namespace or default export. */
    | { k: 'mod', name: string }
  /** A member of a module or of a global (`child_process.exec`, `Buffer.from`). */
    | { k: 'mem', of: string, name: string }
  /** Some function value: its `.constructor` is the Function constructor. */
    | { k: 'fn' }
  /** `process.env` as a whole (secrets when sent away). */
    | { k: 'env' }

export const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global', 'frames'])
export const GLOBAL_NAMES = new Set([
  'eval',
  'Function',
  'fetch',
  'require',
  'process',
  'Buffer',
  'String',
  'Reflect',
  'atob',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'WebSocket',
  'XMLHttpRequest',
  'EventSource',
  'navigator',
  'Deno',
  'Bun',
  'module',
  'Object',
  'JSON',
])

const NODE_PREFIX = /^node:/
export const normalizeModule = (name: string): string => name.replace(NODE_PREFIX, '')

export const PROCESS_MODULES = new Set([
  'child_process',
  'execa',
  'cross-spawn',
  'shelljs',
  'zx',
  'node-pty',
  'spawn-sync',
  'cluster',
])
export const NETWORK_MODULES = new Set([
  'http',
  'https',
  'http2',
  'net',
  'dgram',
  'tls',
  'undici',
  'axios',
  'got',
  'node-fetch',
  'ws',
  'request',
  'superagent',
  'needle',
  'socket.io-client',
  'ky',
  'cross-fetch',
  'isomorphic-fetch',
  'phin',
  'bent',
  'ftp',
  'ssh2',
  'nodemailer',
])
export const FS_MODULES = new Set(['fs', 'fs/promises', 'fs-extra', 'graceful-fs', 'original-fs'])
export const FS_WRITE_FNS = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'unlink',
  'unlinkSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'rename',
  'renameSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'createWriteStream',
  'chmod',
  'chmodSync',
  'chown',
  'chownSync',
  'truncate',
  'truncateSync',
  'symlink',
  'symlinkSync',
  'link',
  'linkSync',
  'utimes',
  'utimesSync',
  'write',
  'writeSync',
  'writev',
  'outputFile',
  'outputFileSync',
  'outputJson',
  'outputJsonSync',
  'writeJson',
  'writeJsonSync',
  'remove',
  'removeSync',
  'emptyDir',
  'emptyDirSync',
  'move',
  'moveSync',
  'copy',
  'copySync',
  'ensureDir',
  'ensureDirSync',
  'ensureFile',
  'ensureFileSync',
  'mkdirp',
  'mkdirpSync',
])
export const FS_READ_FNS = new Set(['readFileSync', 'readFile', 'createReadStream'])
export const SENSITIVE_PATH = new RegExp(
  [
    String.raw`(?:\.ssh\b|id_rsa|id_ed25519|id_ecdsa|\.aws\b|\.env\b|\/etc\/passwd|\/etc\/shadow|\.netrc|\.npmrc`,
    String.raw`|\.pypirc|\.git-credentials|\.kube\b|\.docker\/config|\.gnupg|Login Data|Cookies)`,
  ].join(''),
)
