/**
 * The globals a binary pickle (protocol 2 and later) imports that run commands or code when it is loaded:
 * `pickle.load` calls what a `GLOBAL` or `STACK_GLOBAL` opcode names, with the arguments the pickle holds.
 * Read from the opcodes that name them, not by running anything: strings pushed by `SHORT_BINUNICODE`,
 * `BINUNICODE` and `SHORT_BINSTRING` (each maybe memoised), then `STACK_GLOBAL`; and `GLOBAL`'s own text.
 */

// A Map, not an object: a hostile pickle names `constructor` or `__proto__` as its module.
const RUNS_CODE = new Map<string, RegExp>(Object.entries({
  os: /^(?:system|popen|exec\w*|spawn\w*|startfile|posix_spawnp?)$/,
  posix: /^(?:system|popen|exec\w*|spawn\w*|posix_spawnp?)$/,
  nt: /^(?:system|popen|exec\w*|spawn\w*|startfile)$/,
  subprocess: /^(?:Popen|run|call|check_call|check_output|getoutput|getstatusoutput)$/,
  builtins: /^(?:eval|exec|compile|__import__|breakpoint)$/,
  __builtin__: /^(?:eval|exec|execfile|compile|__import__)$/,
  runpy: /^run_\w+$/,
  pty: /^spawn$/,
  commands: /^(?:getoutput|getstatusoutput)$/,
}))

const SHORT_BINUNICODE = 0x8C
const BINUNICODE = 0x58
const SHORT_BINSTRING = 0x55
const MEMOIZE = 0x94
const BINPUT = 0x71
const LONG_BINPUT = 0x72
const STACK_GLOBAL = 0x93
const GLOBAL = 0x63

const latin1 = (b: Uint8Array, from: number, to: number): string => String.fromCharCode(...b.subarray(from, to))

/** Whether the bytes are a binary pickle: PROTO 2-5 first, STOP last. */
export function isPickle(b: Uint8Array): boolean {
  return b.length > 3 && b[0] === 0x80 && b[1]! >= 2 && b[1]! <= 5 && b[b.length - 1] === 0x2E
}

/** `module.name` of each global the pickle imports that runs commands or code, sorted, without repeats. */
export function pickleCalls(b: Uint8Array): string[] {
  const found = new Set<string>()
  const judge = (module: string, name: string): void => {
    if (RUNS_CODE.get(module)?.test(name))
      found.add(`${module}.${name}`)
  }
  // The last two strings pushed, with the offset where each ends (after a memo opcode that follows it).
  let prev: { text: string, end: number } | null = null
  let last: { text: string, end: number } | null = null
  for (let i = 0; i < b.length; i++) {
    const op = b[i]!
    let text: string | null = null
    let end = i
    if (op === SHORT_BINUNICODE || op === SHORT_BINSTRING) {
      const n = b[i + 1] ?? 0
      if (n > 0 && n <= 64 && i + 2 + n <= b.length) {
        text = latin1(b, i + 2, i + 2 + n)
        end = i + 2 + n
      }
    }
    else if (op === BINUNICODE && i + 5 < b.length) {
      const n = b[i + 1]! | (b[i + 2]! << 8) | (b[i + 3]! << 16) | (b[i + 4]! << 24)
      if (n > 0 && n <= 64 && i + 5 + n <= b.length) {
        text = latin1(b, i + 5, i + 5 + n)
        end = i + 5 + n
      }
    }
    else if (op === STACK_GLOBAL && prev && last && last.end === i) {
      judge(prev.text, last.text)
    }
    else if (op === GLOBAL) {
      const m = /^([\w.]{1,64})\n([\w.]{1,64})\n/.exec(latin1(b, i + 1, Math.min(b.length, i + 131)))
      if (m)
        judge(m[1]!, m[2]!)
    }
    if (text === null || !/^[\w.]+$/.test(text))
      continue
    if (b[end] === MEMOIZE)
      end += 1
    else if (b[end] === BINPUT)
      end += 2
    else if (b[end] === LONG_BINPUT)
      end += 5
    const adjacent = last && last.end === i
    prev = adjacent ? last : null
    last = { text, end }
  }
  return [...found].sort()
}
