/**
 * Positions in a JSON text, for diagnostics about the lock: where its syntax first breaks, and where the value
 * at a JSON pointer (an ajv `instancePath`) starts. `JSON.parse` names a position for only some errors, in words
 * that differ between Node versions; this scanner says the same thing everywhere. Iterative, so a hostile
 * nesting depth can't overflow the stack.
 */

export interface JsonSyntaxError {
  /** UTF-16 offset of the first character that breaks the grammar (the text's length when it ends too soon). */
  offset: number
  message: string
}

/** Where the value at a pointer starts, and where its property name starts (null for array items and the root). */
export interface JsonSpot {
  key: number | null
  value: number
}

/** The first syntax error of a JSON text, or null when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  try {
    new Scan(text, null).run()
    return null
  }
  catch (error) {
    if (error instanceof Broken)
      return { offset: error.offset, message: error.message }
    throw error
  }
}

/** Where the value at a JSON pointer (`/skills/3/files/0`) starts in a JSON text; null when absent or invalid. */
export function locateJsonPointer(text: string, pointer: string): JsonSpot | null {
  const target = pointer === '' ? [] : pointer.split('/').slice(1).map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  const scan = new Scan(text, target)
  try {
    scan.run()
  }
  catch (error) {
    if (!(error instanceof Broken))
      throw error
  }
  return scan.found
}

class Broken extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message)
  }
}

/** An open object or array: the item count so far, and whether it lies on the pointer's path. */
interface Frame {
  array: boolean
  index: number
  onTarget: boolean
}

const END = 'the text ends before the JSON value does'
const WORD = /[a-z_$][\w$]*/iy
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const ESCAPES = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
])

class Scan {
  private i = 0
  private readonly stack: Frame[] = []
  /** Whether the value about to be read lies on the pointer's path, and its property name's offset. */
  private onTarget: boolean
  private key: number | null = null
  found: JsonSpot | null = null

  constructor(
    private readonly text: string,
    private readonly target: readonly string[] | null,
  ) {
    this.onTarget = target !== null
  }

  run(): void {
    const { text, stack } = this
    for (;;) {
      this.value()
      // After a value: close every container that ends here, then the next item, or the end of the text.
      for (;;) {
        this.space()
        const top = stack.at(-1)
        if (!top) {
          if (this.i < text.length)
            this.fail('unexpected text after the JSON value')
          return
        }
        const c = text[this.i]
        if (c === ',') {
          this.i++
          top.index++
          this.item(top)
          break
        }
        if (c === (top.array ? ']' : '}')) {
          this.i++
          stack.pop()
          continue
        }
        if (c === undefined)
          this.fail(END)
        this.fail(top.array ? 'expected \',\' or \']\' after an array item' : 'expected \',\' or \'}\' after a value')
      }
    }
  }

  /** One value; an object or array that isn't empty opens a frame, and its first item's value is read next. */
  private value(): void {
    const { text, target } = this
    for (;;) {
      this.space()
      const start = this.i
      if (this.onTarget && target && this.stack.length === target.length && !this.found)
        this.found = { key: this.key, value: start }
      const c = text[start]
      if (c === '{' || c === '[') {
        this.i++
        this.space()
        if (text[this.i] === (c === '{' ? '}' : ']')) {
          this.i++
          return
        }
        const frame = { array: c === '[', index: 0, onTarget: this.onTarget }
        this.stack.push(frame)
        this.item(frame)
        continue
      }
      if (c === '"') {
        this.string()
        return
      }
      if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
        NUMBER.lastIndex = start
        if (!NUMBER.test(text))
          this.fail('invalid number')
        this.i = NUMBER.lastIndex
        return
      }
      const word = ['true', 'false', 'null'].find(w => text.startsWith(w, start))
      if (!word)
        this.fail(this.unexpected())
      this.i += word.length
      return
    }
  }

  /** Before an item of `frame`: an object's property name and colon; whether the item is on the path. */
  private item(frame: Frame): void {
    const depth = this.stack.length - 1
    const { target } = this
    let segment = String(frame.index)
    this.key = null
    if (!frame.array) {
      this.space()
      if (this.text[this.i] !== '"')
        this.fail(this.i < this.text.length ? 'expected a double-quoted property name' : END)
      this.key = this.i
      segment = this.string()
      this.space()
      if (this.text[this.i] !== ':')
        this.fail('expected \':\' after a property name')
      this.i++
    }
    this.onTarget = frame.onTarget && !!target && depth < target.length && target[depth] === segment
  }

  /** A string at `i` (its opening quote), decoded. */
  private string(): string {
    const { text } = this
    let out = ''
    for (let i = this.i + 1; ; i++) {
      const c = text[i]
      if (c === undefined) {
        this.i = i
        this.fail('unterminated string')
      }
      if (c === '"') {
        this.i = i + 1
        return out
      }
      if (c < ' ') {
        this.i = i
        this.fail('control character in a string (escape it)')
      }
      if (c !== '\\') {
        out += c
        continue
      }
      const e = text[++i]
      const simple = e === undefined ? undefined : ESCAPES.get(e)
      if (simple !== undefined) {
        out += simple
      }
      else if (e === 'u' && /^[0-9a-f]{4}$/i.test(text.slice(i + 1, i + 5))) {
        out += String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 5), 16))
        i += 4
      }
      else {
        this.i = i - 1
        this.fail('invalid escape in a string')
      }
    }
  }

  private space(): void {
    const { text } = this
    let c = text.charCodeAt(this.i)
    while (c === 0x20 || c === 0x0A || c === 0x0D || c === 0x09) c = text.charCodeAt(++this.i)
  }

  private unexpected(): string {
    const c = this.text.codePointAt(this.i)
    if (c === undefined)
      return END
    WORD.lastIndex = this.i
    const word = WORD.exec(this.text)?.[0]
    if (word)
      return `\`${word}\` is not a JSON value (strings are double-quoted; true, false and null are lowercase)`
    // A printable ASCII character as itself; anything else (an invisible or bidi character) by its code point.
    return c > 0x20 && c < 0x7F
      ? `unexpected \`${String.fromCodePoint(c)}\``
      : `unexpected U+${c.toString(16).toUpperCase().padStart(4, '0')}`
  }

  private fail(message: string): never {
    throw new Broken(this.i, message)
  }
}
