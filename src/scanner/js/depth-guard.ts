/**
 * The native parser recurses without a depth limit and overflows the native stack (a crash, not an
 * exception) on a few thousand nested constructs, less inside worker threads. Before parsing we
 * estimate the nesting with one linear pass over the tokens and refuse anything deeper than LIMIT.
 * The estimate only ever over-counts (then the file is read with token patterns instead).
 */
export const NESTING_LIMIT = 400

const NEST_KEYWORDS = new Set([
  'if',
  'else',
  'for',
  'while',
  'do',
  'with',
  'new',
  'typeof',
  'void',
  'delete',
  'await',
  'yield',
  'extends',
  'class',
  'function',
  'case',
])
const CONTROL = new Set(['if', 'for', 'while', 'with', 'switch', 'catch'])

function isIdStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127 || c === 92 || c === 35
}
const isIdPart = (c: number): boolean => isIdStart(c) || (c >= 48 && c <= 57)
function isSpace(c: number): boolean {
  return c === 32
    || c === 9
    || c === 13
    || c === 10
    || c === 11
    || c === 12
    || c === 0xA0
    || c === 0xFEFF
    || c === 0x2028
    || c === 0x2029
}

/** True when the estimated nesting of `text` stays within `limit`. */
export function nestingWithin(text: string, limit = NESTING_LIMIT): boolean {
  const n = text.length
  // Per open bracket: accumulated chain weight, and whether it is the `(...)` of a control statement.
  const chain: number[] = [0]
  const control: boolean[] = [false]
  const kind: number[] = [0] // 0 top, 1 bracket, 2 template expression
  let sum = 0
  let operand = false
  let lastCtrlClose = false
  let lastWord = ''
  let i = 0
  const add = (w: number): boolean => {
    chain[chain.length - 1]! += w
    sum += w
    return chain.length + sum <= limit
  }
  const reset = (): void => {
    sum -= chain[chain.length - 1]!
    chain[chain.length - 1] = 0
  }
  const push = (k: number, ctrl: boolean): boolean => {
    chain.push(0)
    control.push(ctrl)
    kind.push(k)
    return chain.length + sum <= limit
  }
  const skipTemplate = (from: number): number => {
    let j = from
    while (j < n) {
      const c = text.charCodeAt(j)
      if (c === 92) {
        j += 2
        continue
      }
      if (c === 96)
        return j + 1
      if (c === 36 && text.charCodeAt(j + 1) === 123)
        return -(j + 2)
      j++
    }
    return n
  }
  while (i < n) {
    const c = text.charCodeAt(i)
    if (isSpace(c)) {
      if (c === 10 && operand && !lastCtrlClose) {
        let j = i + 1
        while (j < n && isSpace(text.charCodeAt(j))) j++
        if (j < n && isIdStart(text.charCodeAt(j)))
          reset()
      }
      i++
      continue
    }
    if (c === 47) {
      const d = text.charCodeAt(i + 1)
      if (d === 47) {
        const e = text.indexOf('\n', i)
        i = e === -1 ? n : e
        continue
      }
      if (d === 42) {
        const e = text.indexOf('*/', i + 2)
        i = e === -1 ? n : e + 2
        continue
      }
      if (!operand) {
        // Regex literal.
        let j = i + 1
        let cls = false
        while (j < n) {
          const x = text.charCodeAt(j)
          if (x === 92) {
            j += 2
            continue
          }
          if (x === 10)
            break
          if (x === 91)
            cls = true
          else if (x === 93)
            cls = false
          else if (x === 47 && !cls)
            break
          j++
        }
        i = j + 1
        operand = true
        lastCtrlClose = false
        continue
      }
    }
    if (c === 39 || c === 34) {
      let j = i + 1
      while (j < n) {
        const x = text.charCodeAt(j)
        if (x === 92) {
          j += 2
          continue
        }
        if (x === c || x === 10)
          break
        j++
      }
      i = j + 1
      operand = true
      lastCtrlClose = false
      continue
    }
    if (c === 96) {
      const r = skipTemplate(i + 1)
      if (r < 0) {
        if (!push(2, false))
          return false
        i = -r
        operand = false
      }
      else {
        i = r
        operand = true
      }
      lastCtrlClose = false
      continue
    }
    if (isIdStart(c)) {
      let j = i + 1
      while (j < n && isIdPart(text.charCodeAt(j))) j++
      const word = text.slice(i, j)
      i = j
      lastCtrlClose = false
      if (NEST_KEYWORDS.has(word)) {
        if (!add(1))
          return false
        operand = false
      }
      else {
        operand = true
      }
      lastWord = word
      continue
    }
    if (c >= 48 && c <= 57) {
      let j = i + 1
      while (j < n && isIdPart(text.charCodeAt(j))) j++
      i = j
      operand = true
      lastCtrlClose = false
      continue
    }
    if (c === 40 || c === 91 || c === 123) {
      if (!push(1, c === 40 && CONTROL.has(lastWord) && !operand ? true : c === 40 && CONTROL.has(lastWord)))
        return false
      i++
      operand = false
      lastCtrlClose = false
      lastWord = ''
      continue
    }
    if (c === 41 || c === 93 || c === 125) {
      if (chain.length > 1) {
        const k = kind.pop()!
        const ctrl = control.pop()!
        sum -= chain.pop()!
        if (c === 125 && k === 2) {
          const r = skipTemplate(i + 1)
          if (r < 0) {
            if (!push(2, false))
              return false
            i = -r
            operand = false
            continue
          }
          i = r
          operand = true
          lastCtrlClose = false
          continue
        }
        lastCtrlClose = ctrl
      }
      i++
      operand = !lastCtrlClose
      lastWord = ''
      continue
    }
    if (c === 59 || c === 44) {
      reset()
      i++
      operand = false
      lastCtrlClose = false
      lastWord = ''
      continue
    }
    // Operator run.
    let j = i
    while (j < n) {
      const x = text.charCodeAt(j)
      if (
        x === 61
        || x === 43
        || x === 45
        || x === 42
        || x === 37
        || x === 38
        || x === 124
        || x === 94
        || x === 33
        || x === 126
        || x === 63
        || x === 58
        || x === 60
        || x === 62
        || x === 46
        || x === 64
      ) {
        j++
      }
      else {
        break
      }
    }
    if (j === i) {
      i++
      continue
    }
    const op = text.slice(i, j)
    i = j
    lastCtrlClose = false
    lastWord = ''
    let w: number
    if (!operand) {
      w = op === '.' ? 0.1 : op.length
    }
    else if (op === '++' || op === '--') {
      w = 0
      if (!add(w))
        return false
      continue
    }
    else if (op === '.' || op === '?.') {
      w = 0.1
    }
    else if (
      op.includes('=>')
      || op === '?'
      || op === ':'
      || op === '**'
      || op.includes('<')
      || op === '...'
      || op.includes('@')
    ) {
      w = op.length
    }
    else if (
      op.endsWith('=')
      && op !== '=='
      && op !== '==='
      && op !== '!='
      && op !== '!=='
      && op !== '<='
      && op !== '>='
    ) {
      w = op.length
    }
    else {
      w = 0.1 * op.length
    }
    if (!add(w))
      return false
    operand = false
  }
  return true
}
