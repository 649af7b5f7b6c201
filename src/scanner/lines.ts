/** Offset → 1-based line/column, with a line-start table built once per text. */
export class LineIndex {
  private readonly starts: number[]
  constructor(readonly text: string) {
    const starts = [0]
    let i = text.indexOf('\n')
    while (i !== -1) {
      starts.push(i + 1)
      i = text.indexOf('\n', i + 1)
    }
    this.starts = starts
  }

  get count(): number {
    return this.starts.length
  }

  /** 0-based line number of an offset (binary search). */
  lineOf(offset: number): number {
    let lo = 0
    let hi = this.starts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.starts[mid]! <= offset)
        lo = mid
      else hi = mid - 1
    }
    return lo
  }

  start(line: number): number {
    return this.starts[line]!
  }

  /** Text of a 0-based line without its terminator (CR stripped). */
  line(line: number): string {
    const s = this.starts[line]!
    let e = line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length
    if (e > s && this.text.charCodeAt(e - 1) === 13)
      e--
    return this.text.slice(s, e)
  }
}
