/**
 * A markdown text analysed once, for every reader: the scanner reads the fenced code blocks, the
 * enterprise checks the links, headings and anchors of the prose, the search index the headings. Each
 * part is computed when first read, then kept. Just enough CommonMark/GFM for that, not a renderer.
 */
import type { SkillFile } from '../types'
import type { MdFence } from './blocks'
import type { MdHeading } from './headings'
import type { MdLink } from './links'
import { findFences, frontmatterEnd } from './blocks'
import { anchorsOf, findHeadings } from './headings'
import { findLinks } from './links'
import { maskProse } from './prose'

export { frontmatterEnd } from './blocks'
export type { MdFence } from './blocks'
export { githubSlug } from './headings'
export type { MdHeading } from './headings'
export type { MdLink, MdLinkKind } from './links'

export interface MdAnalysis {
  readonly text: string
  /** Fenced code blocks, in order (none in the frontmatter). */
  readonly fences: readonly MdFence[]
  /** The text with frontmatter, fenced code, HTML comments and code spans blanked (same offsets). */
  readonly prose: string
  readonly links: readonly MdLink[]
  /** ATX and setext headings of the prose, in order. */
  readonly headings: readonly MdHeading[]
  /** Fragment ids a link may target: GitHub heading slugs plus explicit `id=`/`name=` anchors. */
  readonly anchors: ReadonlySet<string>
}

/**
 * A class, not an object literal with getters: a literal's accessors are new closures per call, which
 * gives every result its own hidden class, and the maps' transition tree then keeps each `prose` alive
 * through young-generation GCs.
 */
class Analysis implements MdAnalysis {
  private fenceList: MdFence[] | null = null
  private proseText: string | null = null
  private linkList: MdLink[] | null = null
  private headingList: MdHeading[] | null = null
  private anchorSet: Set<string> | null = null
  /** Where the frontmatter ends (0: none). */
  private readonly body: number

  constructor(readonly text: string) {
    this.body = frontmatterEnd(text)
  }

  get fences(): MdFence[] {
    return (this.fenceList ??= findFences(this.text, this.body))
  }

  get prose(): string {
    if (this.proseText === null) {
      const ranges: Array<[number, number]> = this.body > 0 ? [[0, this.body]] : []
      // From the line's start: a list marker before the fence (`1. ````) is not prose either.
      for (const f of this.fences) ranges.push([f.start - f.column, f.end])
      this.proseText = maskProse(this.text, ranges)
    }
    return this.proseText
  }

  get links(): MdLink[] {
    return (this.linkList ??= findLinks(this.prose))
  }

  get headings(): MdHeading[] {
    return (this.headingList ??= findHeadings(this.prose))
  }

  get anchors(): Set<string> {
    return (this.anchorSet ??= anchorsOf(this.headings, this.prose))
  }
}

export function analyzeMarkdown(text: string): MdAnalysis {
  return new Analysis(text)
}

/**
 * The analysis of a file's text, made once per file: the scanner and the enterprise checks of an audit
 * read the same one. Held only as long as the file itself is.
 */
const byFile = new WeakMap<Pick<SkillFile, 'text'>, MdAnalysis>()

export function markdownOf(file: Pick<SkillFile, 'text'>): MdAnalysis | null {
  const text = file.text
  if (text === null)
    return null
  let doc = byFile.get(file)
  // A file whose text was replaced since (tests do) is analysed again.
  if (doc?.text !== text) {
    doc = analyzeMarkdown(text)
    byFile.set(file, doc)
  }
  return doc
}

/** The prose of a text (see `MdAnalysis.prose`). */
export function maskCode(text: string): string {
  return analyzeMarkdown(text).prose
}
