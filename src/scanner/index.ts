import type { CustomRule, ResolvedOptions, Waiver } from '../core/options'
import type {
  Capability,
  Diagnostic,
  Profile,
  ScanResult,
  Severity,
  SkillFile,
  SkillSource,
  Suppression,
} from '../core/types'
import type { Dialect } from './embedded'
import type { Directive } from './suppress'
import type { JsFlavor, Lang, RawFinding, RuleInfo } from './types'
import type { Judged, Policy } from './verdict'
import { compareBytewise, diagnostic, SEVERITY_RANK, sortDiagnostics } from '../core/diagnostics'
import { endTiming, startTiming } from '../core/timings'
import { declaredCapabilities, DETECTABLE, sortCapabilities } from './capabilities'
import { ruleMeta } from './catalog'
import { classify } from './classify'
import { restoreColumns } from './constants'
import { compileCustom, scanCustom } from './custom'
import { excerptAt } from './excerpt'
import { scanJs } from './js/scan-js'
import { LineIndex } from './lines'
import { findFences, markCautionary, markDetectionRule, markLabelledSamples, markSearchPatterns } from './markdown'
import { RULE_MODULES } from './rules/index'
import { sniffLang } from './sniff'
import { findDirectives } from './suppress'
import { DIRECTIVE, scanSegment } from './text-scan'
import { foldCapabilities, judge, waiverOf } from './verdict'

export { CAPABILITIES, declaredCapabilities } from './capabilities'
export { META_RULES, ruleMeta, RULES } from './catalog'
export type { RuleMeta } from './types'

export type ScanOptions = ResolvedOptions['scanner'] & {
  deny?: Capability[]
  /** Undeclared capabilities are errors in `enterprise` (the default), warnings in `agentskills`. */
  profile?: Profile
  /** What the project's overrides say of this skill. */
  review?: SkillReview
}

/** The overrides that address one skill, merged (see `Options.overrides`). */
export interface SkillReview {
  capabilities: Array<{ capability: Capability, reason: string }>
  rules: Record<string, Severity | 'off'>
  waive: Array<Waiver & { reason: string }>
}

/** Oversized files are read in chunks of this many characters (bounded memory, no AST). */
const CHUNK = 1 << 20

interface Ctx {
  skill: SkillSource
  options: ScanOptions
  raw: RawFinding[]
  meta: Diagnostic[]
  directives: Directive[]
  /** The skill ships shell scripts or shell blocks. */
  shellUse: boolean
}

const relFile = (skill: SkillSource, path: string): string => (skill.relDir ? `${skill.relDir}/${path}` : path)

/** JavaScript or TypeScript read by the AST rules, then by the token patterns they don't cover. */
interface JsSegment {
  path: string
  text: string
  flavor: JsFlavor
  /** Where the segment starts in its file (a fenced block's first line and indent; 0 for a whole file). */
  lineOffset: number
  colOffset: number
  /** A whole file, not a fenced block: when the parser gives up, the file gets a meta diagnostic. */
  isFile: boolean
}

/** Whether the text may contain a suppression directive (see `scanSegment`). */
function scanJsSegment(ctx: Ctx, seg: JsSegment): boolean {
  const { path, text, lineOffset, colOffset } = seg
  const parsing = startTiming()
  const res = scanJs(text, seg.flavor)
  endTiming('scan: JavaScript AST', parsing)
  let index: LineIndex | undefined
  if (res.ok) {
    if (res.findings.length) {
      index = new LineIndex(text)
      for (const f of res.findings) {
        const line = index.lineOf(f.start)
        const lineText = index.line(line)
        const col = f.start - index.start(line)
        ctx.raw.push({
          rule: f.rule,
          path,
          line: lineOffset + line + 1,
          column: col + 1 + colOffset,
          message: f.message,
          excerpt: excerptAt(lineText, col, Math.min(f.end - f.start, lineText.length - col)),
        })
      }
    }
  }
  else if (seg.isFile) {
    ctx.meta.push(
      res.tooLarge
        ? metaDiagnostic(ctx, {
            id: 'analysis-too-large',
            message: `${path} needs more than the AST analysis's budget: it was read with token patterns`,
            file: path,
          })
        : metaDiagnostic(ctx, {
            id: 'parse-fallback',
            message: `${path} was read with token patterns: ${res.reason}`,
            file: path,
          }),
    )
  }
  return scanSegment({ path, text, lang: 'js', lineOffset, colOffset, astDone: res.ok, index }, ctx.raw)
}

const FENCE_DIALECT: Record<string, Dialect> = { json: 'json', jsonc: 'json', json5: 'json', yaml: 'yaml', yml: 'yaml' }

/** Whether the text may contain a suppression directive (see `scanSegment`). */
function scanMarkdown(ctx: Ctx, file: SkillFile): boolean {
  const path = file.path
  const text = file.text ?? ''
  const start = ctx.raw.length
  if (!text.includes('```') && !text.includes('~~~')) {
    // No fence: plain prose, and the line table is only needed if something is found.
    const directive = scanSegment({ path, text, lang: 'prose', lineOffset: 0, colOffset: 0, astDone: false }, ctx.raw)
    if (ctx.raw.length > start)
      markCautionary(ctx.raw.slice(start), new LineIndex(text), [], path)
    return directive
  }
  const index = new LineIndex(text)
  const fences = findFences(file)
  const inFence = new Uint8Array(index.count)
  for (const f of fences) inFence.fill(1, f.open, f.close + 1)
  // Covers the whole text (fenced lines included) for the directive's anchor.
  const directive = scanSegment(
    { path, text, lang: 'prose', lineOffset: 0, colOffset: 0, astDone: false, skip: l => inFence[l] === 1, index },
    ctx.raw,
  )
  for (const f of fences) {
    if (f.close <= f.open + 1 && f.close !== index.count - 1)
      continue
    const first = f.open + 1
    const last
      = f.close === index.count - 1 && !/^\s*(?:`{3,}|~{3,})\s*$/.test(index.line(f.close)) ? f.close : f.close - 1
    if (last < first)
      continue
    const lines: string[] = []
    for (let i = first; i <= last; i++) {
      const l = index.line(i)
      const strip = Math.min(f.indent, l.length - l.trimStart().length)
      lines.push(l.slice(strip))
    }
    const body = lines.join('\n')
    if (f.lang === 'js' || f.lang === 'ts' || f.lang === 'jsx' || f.lang === 'tsx') {
      scanJsSegment(ctx, { path, text: body, flavor: f.lang, lineOffset: first, colOffset: f.indent, isFile: false })
    }
    else {
      if (f.lang === 'sh')
        ctx.shellUse = true
      const dialect = FENCE_DIALECT[f.info]
      scanSegment(
        { path, text: body, lang: f.lang as Lang, lineOffset: first, colOffset: f.indent, astDone: false, dialect },
        ctx.raw,
      )
      // An unlabelled fence is also read as the language it looks like (a shebang, `$ ` prompts, `def`...).
      const sniffed = f.info === '' && f.lang === 'text' ? sniffLang(body) : null
      const at = { path, text: body, lineOffset: first, colOffset: f.indent }
      if (sniffed === 'sh')
        ctx.shellUse = true
      if (sniffed === 'js')
        scanJsSegment(ctx, { ...at, flavor: 'js', isFile: false })
      else if (sniffed)
        scanSegment({ ...at, lang: sniffed, astDone: false }, ctx.raw)
    }
  }
  markCautionary(ctx.raw.slice(start), index, fences, path)
  return directive
}

/** Files over maxTextSize: fixed-size chunks cut at line ends, line patterns only. */
function scanOversized(ctx: Ctx, path: string, text: string, lang: Lang): void {
  let pos = 0
  let line = 0
  let col = 0
  while (pos < text.length) {
    let end = Math.min(text.length, pos + CHUNK)
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end)
      if (nl > pos)
        end = nl + 1
    }
    const chunk = text.slice(pos, end)
    scanSegment(
      { path, text: chunk, lang: lang === 'prose' ? 'text' : lang, lineOffset: line, colOffset: col, astDone: false },
      ctx.raw,
    )
    let nls = 0
    let i = chunk.indexOf('\n')
    let lastNl = -1
    while (i !== -1) {
      nls++
      lastNl = i
      i = chunk.indexOf('\n', i + 1)
    }
    line += nls
    col = lastNl === -1 ? col + chunk.length : chunk.length - lastNl - 1
    pos = end
  }
}

/** A finding of a meta rule (`META_RULES`) about a skill file; `line`/`column` are null when not given. */
interface MetaFinding {
  id: string
  message: string
  /** The file's path in the skill. */
  file: string
  line?: number | null
  column?: number | null
}

function metaDiagnostic(ctx: Ctx, { id, message, file, line = null, column = null }: MetaFinding): Diagnostic {
  const m = ruleMeta(id)!
  return diagnostic({
    code: `scan/${id}`,
    severity: m.severity,
    message,
    file: relFile(ctx.skill, file),
    line,
    column,
    skill: ctx.skill.name,
    hint: m.hint,
    rule: id,
    cwe: m.cwe,
  })
}

/**
 * Scans one skill. Pure (reads only `skill.files[].text`), deterministic, never throws:
 * every problem, including internal failures, comes back as a diagnostic.
 */
export function scanSkill(skill: SkillSource, options: ScanOptions): ScanResult {
  try {
    return scanSkillUnsafe(skill, options)
  }
  catch (error) {
    // Defensive: a scanner bug must not take the build down with a stack trace, nor pass silently.
    const declared = safeDeclared(skill)
    return {
      diagnostics: [
        diagnostic({
          code: 'scan/internal-error',
          severity: 'error',
          message: `scanner failed on this skill: ${(error as Error)?.message ?? String(error)}`.slice(0, 300),
          file: null,
          line: null,
          column: null,
          skill: skill?.name ?? null,
          hint: 'Report this as a bug of unplugin-skills.',
        }),
      ],
      capabilities: { declared, detected: [] },
      suppressions: [],
    }
  }
}

function safeDeclared(skill: SkillSource): Capability[] {
  try {
    return declaredCapabilities(skill.frontmatter ?? {}).capabilities
  }
  catch {
    return []
  }
}

/**
 * The skill with the text files inside its archives added as files of its own, at `<archive>/<member>`: what
 * extracting an archive puts on disk is read by every rule, as the skill's other files are.
 */
const UTF8 = new TextEncoder()
function withMembers(skill: SkillSource): SkillSource {
  if (!skill.files.some(f => f.members?.length))
    return skill
  const inside: SkillFile[] = skill.files.flatMap(f => (f.members ?? []).map(m => ({
    path: `${f.path}/${m.path}`,
    absPath: f.absPath,
    size: UTF8.encode(m.text).byteLength,
    sha256: f.sha256,
    text: m.text,
  })))
  return { ...skill, files: [...skill.files, ...inside] }
}

function scanSkillUnsafe(source: SkillSource, options: ScanOptions): ScanResult {
  const skill = withMembers(source)
  const ctx: Ctx = { skill, options, raw: [], meta: [], directives: [], shellUse: false }
  const overrides = options.rules ?? {}
  const deny = new Set(options.deny ?? [])
  const maxText = options.maxTextSize ?? 1024 * 1024
  const custom = compileCustom(options.custom)
  const customMeta = new Map(custom.map(c => [c.rule.id, c.rule]))
  const skillMdPath = skill.skillMd?.path ?? 'SKILL.md'
  for (const c of custom) {
    if (c.error) {
      ctx.meta.push(
        diagnostic({
          code: 'scan/custom-rule-invalid',
          severity: 'error',
          message: `custom rule ${c.rule.id} has an invalid pattern: ${c.error}`,
          file: null,
          line: null,
          column: null,
          skill: skill.name,
          hint: 'Fix the regular expression in scanner.custom.',
        }),
      )
    }
  }

  const { capabilities: declared, unknown } = declaredCapabilities(skill.frontmatter ?? {})
  const capLoc = safeLocate(skill, 'capabilities')
  for (const word of unknown) {
    ctx.meta.push(
      metaDiagnostic(ctx, {
        id: 'unknown-capability',
        message: `unknown capability "${word}" (known: network, fs:write, process, env, secrets, dynamic-code)`,
        file: skillMdPath,
        line: capLoc?.line,
        column: capLoc?.column,
      }),
    )
  }

  const known = (rule: string): boolean => ruleMeta(rule) !== undefined || customMeta.has(rule)
  // The texts of the files that are not markdown: their search patterns are looked for after the whole-skill rules.
  const codeTexts = new Map<string, string>()
  for (const file of skill.files) {
    const text = file.text
    if (text === null)
      continue
    const kind = classify(file.path, text)
    if (!kind.markdown)
      codeTexts.set(file.path, text)
    if (file.size > maxText || text.length > maxText) {
      ctx.meta.push(
        metaDiagnostic(ctx, {
          id: 'file-too-large',
          message:
            `${file.path} is ${file.size} bytes (maxTextSize ${maxText})`
            + ': scanned in windows, without the parser',
          file: file.path,
        }),
      )
      scanOversized(ctx, file.path, text, kind.lang)
      continue
    }
    if (kind.lang === 'sh')
      ctx.shellUse = true
    // Each of these scans reads the whole text, and tells whether it met the directive's anchor.
    const whole = { path: file.path, text, lineOffset: 0, colOffset: 0 }
    const before = ctx.raw.length
    const directive = kind.markdown
      ? scanMarkdown(ctx, file)
      : kind.lang === 'js'
        ? scanJsSegment(ctx, { ...whole, flavor: kind.flavor ?? 'js', isFile: true })
        : scanSegment({ ...whole, lang: kind.lang, astDone: false }, ctx.raw)
    if (kind.lang === 'text' && ctx.raw.length > before) {
      markDetectionRule(ctx.raw.slice(before), text)
      markLabelledSamples(ctx.raw.slice(before), text)
    }
    if (!kind.markdown && ctx.raw.length > before)
      markSearchPatterns(ctx.raw.slice(before), text)
    const index = custom.length || (directive && text.includes(DIRECTIVE)) ? new LineIndex(text) : null
    if (index && custom.length)
      scanCustom(custom, file.path, index, ctx.raw)
    if (index) {
      ctx.directives.push(
        ...findDirectives(
          index.text,
          file.path,
          known,
          o => index.lineOf(o),
          l => index.start(l),
        ),
      )
    }
  }

  const visited = ctx.raw.length
  for (const module of RULE_MODULES) {
    if (!module.visitSkill)
      continue
    const visiting = startTiming()
    ctx.raw.push(...module.visitSkill(skill))
    // The key is built only when timing: this runs for every rule of every skill.
    if (visiting)
      endTiming(`scan: ${module.meta.id} (whole skill)`, visiting)
  }
  restoreColumns(skill, ctx.raw.slice(visited))
  // Whole-skill findings in code files lie in search patterns as line findings do.
  const byPath = new Map<string, RawFinding[]>()
  for (const f of ctx.raw.slice(visited)) {
    if (!codeTexts.has(f.path))
      continue
    const list = byPath.get(f.path)
    if (list)
      list.push(f)
    else byPath.set(f.path, [f])
  }
  for (const [path, found] of byPath) markSearchPatterns(found, codeTexts.get(path)!)
  for (const module of RULE_MODULES) {
    const lower = module.lowerInSkill
    if (!lower)
      continue
    for (const f of ctx.raw) {
      if (f.rule === module.meta.id && (f.severity ?? module.meta.severity) === 'error' && lower(f, skill))
        f.severity = 'warning'
    }
  }

  const policy: Policy = {
    profile: options.profile ?? 'enterprise',
    deny,
    declared: new Set(declared),
    reviewed: new Map((options.review?.capabilities ?? []).map(c => [c.capability, c.reason])),
    rules: { ...overrides, ...options.review?.rules },
    waive: options.review?.waive ?? [],
  }
  const judged: Judged[] = []
  for (const f of ctx.raw) {
    const verdict = judge(f, ruleMeta(f.rule) ?? customInfo(customMeta.get(f.rule)), policy)
    if (verdict)
      judged.push(verdict)
  }
  // The most severe finding per rule and line, the first of those by column.
  judged.sort(
    (a, b) =>
      compareBytewise(a.path, b.path) || a.line - b.line || compareBytewise(a.rule, b.rule)
      || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.column - b.column,
  )
  const findings = judged.filter((f, i) => {
    const prev = judged[i - 1]
    return !prev || prev.path !== f.path || prev.line !== f.line || prev.rule !== f.rule
  })
  findings.sort((a, b) => compareBytewise(a.path, b.path) || a.line - b.line || a.column - b.column
    || compareBytewise(a.rule, b.rule))

  const detected = sortCapabilities(findings.flatMap((f) => {
    const cap = ruleMeta(f.rule)?.capability
    return cap && !f.cautionary ? [cap] : []
  }))
  const valid = new Map<string, Directive>()
  for (const d of ctx.directives) {
    if (d.valid) {
      valid.set(`${d.file}\0${d.target}\0${d.rule}`, d)
    }
    else {
      ctx.meta.push(
        metaDiagnostic(ctx, {
          id: 'suppression-invalid',
          message: `skills-ignore-next-line ${d.problem}; nothing is suppressed`,
          file: d.file,
          line: d.line,
          column: d.column,
        }),
      )
    }
  }

  const waived: Suppression[] = []
  const kept = findings.filter((f) => {
    if (f.denied)
      return true
    if (valid.has(`${f.path}\0${f.line}\0${f.rule}`))
      return false
    const waiver = waiverOf(f, policy)
    if (waiver) {
      waived.push({ file: relFile(skill, f.path), line: f.line, rule: f.rule, reason: waiver.reason, via: 'override' })
      return false
    }
    return true
  })
  const diagnostics: Diagnostic[] = foldCapabilities(kept).map((f) => {
    const builtin = ruleMeta(f.rule)
    const d = diagnostic({
      code: `scan/${f.rule}`,
      severity: f.severity,
      message: f.message,
      file: relFile(skill, f.path),
      line: f.line,
      column: f.column,
      skill: skill.name,
      hint: f.hint || null,
      rule: f.rule,
      kind: f.kind,
      cwe: builtin?.cwe ?? customMeta.get(f.rule)?.cwe ?? undefined,
      excerpt: f.excerpt,
    })
    if (f.count) {
      d.count = f.count
      d.locations = f.locations
    }
    return d
  })
  for (const cap of declared) {
    // Shell scripts and shell blocks run through the agent's shell tool: that is a use of `process`.
    if (cap === 'process' && ctx.shellUse)
      continue
    if (DETECTABLE.includes(cap) && !detected.includes(cap)) {
      ctx.meta.push(
        metaDiagnostic(ctx, {
          id: 'unused-capability',
          message: `capability "${cap}" is declared but the scanner found no use of it (over-broad declaration)`,
          file: skillMdPath,
          line: capLoc?.line,
          column: capLoc?.column,
        }),
      )
    }
  }
  for (const d of ctx.meta) {
    const override = d.rule ? policy.rules[d.rule] : undefined
    if (override === 'off')
      continue
    if (override)
      d.severity = override
    diagnostics.push(d)
  }

  const suppressions: Suppression[] = [
    ...ctx.directives
      .filter(d => d.valid)
      .map(d => ({ file: relFile(skill, d.file), line: d.line, rule: d.rule, reason: d.reason })),
    ...waived,
  ]
    .sort((a, b) => compareBytewise(a.file, b.file) || a.line - b.line || compareBytewise(a.rule, b.rule))
  return { diagnostics: sortDiagnostics(diagnostics), capabilities: { declared, detected }, suppressions }
}

/** A project rule judged as a threat: the project wrote it to catch something. */
function customInfo(rule: CustomRule | undefined): RuleInfo | undefined {
  if (!rule)
    return undefined
  const { id, severity = 'warning', cwe = '', message = '', hint = '' } = rule
  return { id, kind: 'threat', severity, cwe, description: message, hint }
}

function safeLocate(skill: SkillSource, key: string): { line: number, column: number } | null {
  try {
    return skill.locate?.(key) ?? null
  }
  catch {
    return null
  }
}
