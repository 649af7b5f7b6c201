// WCAG 2.x contrast ratio between two sRGB colours, as used by the audit's
// contrast checks. Pure functions: no DOM, no dependencies.

export type Rgb = readonly [r: number, g: number, b: number]

/** Parses `#rgb` or `#rrggbb`; returns null for anything else. */
export function parseHex(hex: string): Rgb | null {
  const m = hex.trim().match(/^#?([0-9a-f]{3}|[0-9a-f]{6})$/i)
  if (!m) return null
  const digits = m[1].length === 3 ? [...m[1]].map((d) => d + d).join('') : m[1]
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as unknown as Rgb
}

/** Relative luminance (WCAG 2.2, definition "relative luminance"). */
export function relativeLuminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/** (L1 + 0.05) / (L2 + 0.05), lighter over darker; ranges from 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

export type TextSize = 'normal' | 'large' // large: >= 24px, or >= 18.66px bold

/** Success criteria 1.4.3 (AA) and 1.4.6 (AAA); 1.4.11 non-text uses 3:1. */
export function grade(ratio: number, size: TextSize): { aa: boolean; aaa: boolean } {
  const aa = size === 'large' ? 3 : 4.5
  const aaa = size === 'large' ? 4.5 : 7
  // Compare unrounded values: 4.48:1 displays as 4.5:1 but fails.
  return { aa: ratio >= aa, aaa: ratio >= aaa }
}

// Example:
// const ratio = contrastRatio(parseHex('#767676')!, parseHex('#ffffff')!) // 4.54
// grade(ratio, 'normal') // { aa: true, aaa: false }
