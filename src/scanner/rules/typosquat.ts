import type { SkillSource } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import popular from '../../../data/popular-packages.json'
import known from '../../../data/well-known-skills.json'
import { excerptAt } from '../excerpt'
import { LineIndex } from '../lines'
import { hitLines } from './skill-hits'

/**
 * Whether `a` and `b` are exactly one edit apart (Damerau-Levenshtein, restricted: one insertion, deletion,
 * substitution or swap of two neighbours). Equal strings are not.
 */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1)
    return false
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1))
      return true
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a]
  return long.slice(i + 1) === short.slice(i)
}

// Short names sit one edit from many honest ones (`docs` and `docx`): only names of 5 characters and more count
// any edit; a shorter one counts only a slip of the fingers no honest name makes (`docxx`, `xslx`).
const MIN_LENGTH = 5

/** `name` is `known` with one letter doubled, or two neighbours swapped. */
function slip(name: string, known: string): boolean {
  if (name.length === known.length + 1) {
    for (let i = 0; i < name.length - 1; i++) {
      if (name[i] === name[i + 1] && name.slice(0, i) + name.slice(i + 1) === known)
        return true
    }
    return false
  }
  return name.length === known.length && name !== known && oneEdit(name, known)
    && [...name].sort().join('') === [...known].sort().join('')
}

/**
 * Known names in their registry's canonical form (lower case; PyPI also folds runs of `-`, `_` and `.` into one
 * `-`, so `drf_spectacular` is `drf-spectacular`; npm folds nothing: `crossenv` is not `cross-env`), and the
 * targets a look-alike imitates, each filed under its length: a name is compared only with targets one character
 * longer or shorter. A known name that is not a target is legitimate and imitates nothing (`simpy`, not `sympy`).
 * `curated`: the hand-picked targets, any one edit away; `ranked`: the download rankings' targets, a typing slip
 * away (see `typo`), since thousands of names hold many honest pairs (`latch` and `hatch`).
 */
interface Known {
  names: Set<string>
  curated: Map<number, string[]>
  ranked: Map<number, string[]>
  canonical: (name: string) => string
}

function byLength(names: Iterable<string>): Map<number, string[]> {
  const out = new Map<number, string[]>()
  for (const n of names) {
    const list = out.get(n.length)
    if (list)
      list.push(n)
    else
      out.set(n.length, [n])
  }
  return out
}

function knownOf(
  curated: string[],
  canonical = (name: string): string => name.toLowerCase(),
  ranking: { targets: string[], all: string[] } = { targets: [], all: [] },
): Known {
  const hand = new Set(curated.map(canonical))
  return {
    names: new Set([...hand, ...ranking.all.map(canonical)]),
    curated: byLength(hand),
    ranked: byLength(new Set(ranking.targets.map(canonical).filter(n => !hand.has(n)))),
    canonical,
  }
}

const ROWS = ['1234567890-', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm']
const KEY = new Map(ROWS.flatMap((row, r) => [...row].map((c, i) => [c, { r, x: i + [0, 0.5, 0.75, 1.25][r]! }])))
const LOOK_ALIKE = new Set(['0o', '1l', '1i', 'il', '5s', '3e', 'uv', '-_', '-.', '_.'])

/** Two characters a typist or a reader confuses: neighbouring keys, or glyphs that look alike. */
function confusable(a: string, b: string): boolean {
  if (LOOK_ALIKE.has(a < b ? a + b : b + a))
    return true
  const ka = KEY.get(a)
  const kb = KEY.get(b)
  return !!ka && !!kb && Math.abs(ka.r - kb.r) <= 1 && Math.abs(ka.x - kb.x) <= 1
}

/** `name` is `known` with a letter dropped or added, two neighbours swapped, or a key confused after the first. */
function typo(name: string, known: string): boolean {
  if (!oneEdit(name, known))
    return false
  if (name.length !== known.length || slip(name, known))
    return true
  let i = 0
  while (name[i] === known[i]) i++
  // A look-alike keeps the first letter, which the reader checks first (`latch` is not a slip of `patch`).
  return i > 0 && confusable(name[i]!, known[i]!)
}

const SKILLS = knownOf(known.skills)
// The hand-picked lists hold legitimate names one edit from popular ones (request, boto), which must stay known.
function rankingOf(all: string[]): { targets: string[], all: string[] } {
  return { targets: all.slice(0, popular.targets), all }
}
const PEP503 = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-')
// Built on the first install or manifest a skill names: most skills name none, and the rankings hold 24k names.
let npmKnown: Known | undefined
let pypiKnown: Known | undefined
function registry(isNpm: boolean): Known {
  return isNpm
    ? (npmKnown ??= knownOf(known.npm, undefined, rankingOf(popular.npm)))
    : (pypiKnown ??= knownOf(known.pypi, PEP503, rankingOf(popular.pypi)))
}
// Cargo treats `-` and `_` in a crate's name as one character.
const crate = (name: string): string => name.toLowerCase().replace(/-/g, '_')

/**
 * The well-known name that `name` imitates, if any. Names shorter than `MIN_LENGTH` sit one edit from many honest
 * ones (`test` and `rtest`): there, only a slip counts.
 */
function imitated(name: string, list: Known): string | undefined {
  const n = list.canonical(name)
  if (n.length < 3 || list.names.has(n))
    return undefined
  for (let length = n.length - 1; length <= n.length + 1; length++) {
    const short = Math.min(length, n.length) < MIN_LENGTH
    for (const k of list.curated.get(length) ?? []) {
      if (short ? k.length >= 3 && slip(n, k) : oneEdit(n, k))
        return k
    }
    for (const k of list.ranked.get(length) ?? []) {
      if (short ? slip(n, k) : typo(n, k))
        return k
    }
  }
  return undefined
}

/** `a` and `b` differ by a slip of the fingers either way: a letter doubled or dropped from a double, a swap. */
function slipEither(a: string, b: string): boolean {
  return a.length >= MIN_LENGTH && b.length >= MIN_LENGTH && (slip(a, b) || slip(b, a))
}

const WORDS = /[a-z][a-z\d]*(?:[-_.][a-z\d]+)*/g

/**
 * The words of a skill's files, whole (`fluent-ffmpeg`) and by their parts (`fluent`, `ffmpeg`), with how often
 * each occurs: the names a skill itself writes, which its installs should spell the same way.
 */
function vocabularyOf(skill: SkillSource): Map<string, number> {
  const counts = new Map<string, number>()
  const add = (w: string): void => {
    counts.set(w, (counts.get(w) ?? 0) + 1)
  }
  for (const file of skill.files) {
    const text = file.text
    if (!text || text.length > 1024 * 1024)
      continue
    for (const [w] of text.toLowerCase().matchAll(WORDS)) {
      add(w)
      if (/[-_.]/.test(w))
        w.split(/[-_.]/).forEach(add)
    }
  }
  return counts
}

/**
 * A package the popular lists do not know, spelt as a slip of a name the skill itself writes elsewhere
 * (`fluent-ffmepg` where the text says `fluent-ffmpeg`, `opencv-contrib-pyhton` beside `python`): the
 * look-alike an attacker registers next to the name the reader trusts. A part spelt that way elsewhere too is
 * how the skill spells it, not a slip.
 */
function selfImitated(raw: string, vocabulary: () => Map<string, number>): string | undefined {
  const name = raw.toLowerCase()
  const words = vocabulary()
  const uses = words.get(name) ?? 0
  for (const [w, n] of words) {
    if (n > 0 && w !== name && slipEither(name, w))
      return w
  }
  const parts = name.split(/[-_.]/)
  for (const part of parts) {
    if (part === name || part.length < MIN_LENGTH)
      continue
    // The part's uses outside the package's own name.
    const own = (words.get(part) ?? 0) - uses * parts.filter(p => p === part).length
    if (own > 0)
      continue
    for (const [w] of words) {
      if (!/[-_.]/.test(w) && slipEither(part, w))
        return name.replace(part, w)
    }
  }
  return undefined
}

/**
 * What an npm or PyPI name imitates, said as the end of a message: a popular package one edit away, or for a
 * name no list knows, a name the skill itself writes.
 */
function lookAlike(name: string, list: Known, vocabulary: () => Map<string, number>): string | undefined {
  const target = imitated(name, list)
  if (target)
    return `one edit away from the popular package "${target}"`
  const self = list.names.has(list.canonical(name)) ? undefined : selfImitated(name, vocabulary)
  return self ? `a misspelling of "${self}", which the skill itself writes` : undefined
}

// `npx expo install` installs the versions Expo pins, from npm, like `npm install`.
const NPM_INSTALL = new RegExp(
  String.raw`\b(?:(?:npm|pnpm|yarn|bun)\s+(?:install|i|add)|(?:npx\s+)?expo\s+install)\b([^\n;&|)\`#]*)`
  + String.raw`|\b(?:npx|bunx|pnpx)\s+([^\n;&|)\`#]*)`,
  'g',
)
const PIP_INSTALL = new RegExp(
  String.raw`\b(?:pip[\d.]*|python[\d.]*\s+-m\s+pip|uv\s+pip|pipx)\s+install\b([^\n;&|)\`#]*)`
  + String.raw`|\b(?:uv|poetry|pdm)\s+add\b([^\n;&|)\`#]*)`,
  'g',
)

/** URLs, paths, files and templates: what an install command names that is not a registry package. */
const NOT_A_NAME = /[:/\\]|^\.|[<>{}$*]|\.(?:txt|toml|cfg|whl|gz|zip|json|lock|py|js|ts)$/

interface Named { name: string, offset: number }

/**
 * Package names of an install command's arguments: flags, URLs, paths, files and versions dropped. `first`:
 * only the first name (`npx <package> <its arguments>`).
 */
function packageNames(args: string, npm: boolean, first = false): Named[] {
  const out: Named[] = []
  const re = /\S+/g
  for (let m = re.exec(args); m; m = re.exec(args)) {
    const word = m[0].replace(/^["']|["']$/g, '')
    if (word.startsWith('-'))
      continue
    if (!NOT_A_NAME.test(word.replace(/^@[\w.-]+\//, ''))) {
      const name = npm ? word.replace(/(?<=.)@.*$/, '') : word.replace(/[[=<>!~;@].*$/, '')
      if (/^@?[\w.-]+(?:\/[\w.-]+)?$/.test(name))
        out.push({ name, offset: m.index })
    }
    if (first)
      break
  }
  return out
}

/** Dependencies a manifest names: requirements files line by line, package.json's dependency maps. */
function manifestNames(path: string, text: string): Array<Named & { line: number, npm: boolean }> {
  const base = path.slice(path.lastIndexOf('/') + 1)
  const out: Array<Named & { line: number, npm: boolean }> = []
  if (base === 'pyproject.toml' || /^environment.*\.ya?ml$/.test(base)) {
    out.push(...pythonManifest(text, base === 'pyproject.toml'))
  }
  else if (/^requirements.*\.txt$/.test(base)) {
    text.split('\n').forEach((l, i) => {
      const name = /^\s*([\w.-]+)/.exec(l)?.[1]
      if (name)
        out.push({ name, offset: l.indexOf(name), line: i + 1, npm: false })
    })
  }
  else if (base === 'package.json') {
    let deps: string[] = []
    try {
      const pkg = JSON.parse(text) as Record<string, unknown>
      for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
        const map = pkg[field]
        if (map && typeof map === 'object')
          deps.push(...Object.keys(map))
      }
    }
    catch {
      deps = []
    }
    for (const name of deps) {
      const at = text.indexOf(`"${name}"`)
      const line = text.slice(0, at).split('\n').length
      out.push({ name, offset: at - (text.lastIndexOf('\n', at - 1) + 1) + 1, line, npm: true })
    }
  }
  return out
}

type Ecosystem = 'go' | 'gems' | 'crates' | 'actions' | 'docker'

/** Known names per ecosystem, lower case (crates with `_`), and what a message calls one. */
const ECOSYSTEMS: Record<Ecosystem, { known: Known, noun: string }> = {
  go: { known: knownOf(known.go), noun: 'Go module' },
  gems: { known: knownOf(known.gems), noun: 'gem' },
  crates: { known: knownOf(known.crates, crate), noun: 'crate' },
  actions: { known: knownOf(known.actions), noun: 'GitHub Action' },
  docker: { known: knownOf(known.docker), noun: 'Docker image' },
}

/** Commands and manifest lines that name a dependency of another ecosystem: group 1 is the name. */
const DEP_LINES: ReadonlyArray<{ eco: Ecosystem, keys: readonly string[], re: RegExp }> = [
  {
    eco: 'go',
    keys: ['go get', 'go install'],
    re: /\bgo\s+(?:get|install)\s+(?:-\w+\s+)*([\w.-]+\.[a-z]{2,}\/[\w./-]+?)(?=@|\s|$|[`'"])/g,
  },
  // A go.mod `require` line, or a line of its block: `github.com/owner/repo v1.2.3`.
  {
    eco: 'go',
    keys: ['require (', 'require github', 'require golang', 'require go'],
    re: /^\s*(?:require\s+)?([\w.-]+\.[a-z]{2,}\/[\w./-]+)\s+v\d/gm,
  },
  { eco: 'gems', keys: ['gem '], re: /\bgem\s+install\s+(?:-\S+\s+)*([\w.-]+)|^\s*gem\s+['"]([\w.-]+)['"]/gm },
  { eco: 'gems', keys: ['bundle add'], re: /\bbundle\s+add\s+([\w.-]+)/g },
  {
    eco: 'crates',
    keys: ['cargo add', 'cargo install'],
    re: /\bcargo\s+(?:add|install)\s+([\w-]+(?:\s+(?!-)[\w-]+)*)/g,
  },
  { eco: 'actions', keys: ['uses:'], re: /\buses:\s*["']?([\w.-]+\/[\w.-]+)(?:\/[\w./-]*)?@/g },
  {
    eco: 'docker',
    keys: ['FROM '],
    re: /(?:^|`)\s*FROM\s+(?:--platform=\S+\s+)?([\w./-]+)(?::[\w.-]+)?(?:@sha256:\w+)?(?=\s|$|`)/gm,
  },
  { eco: 'docker', keys: ['image:'], re: /\bimage:\s*["']?([\w./-]+)(?::[\w.-]+)?["']?\s*$/gm },
]

const DOCKER_CONTEXT = /(?:^|\/)(?:Dockerfile|Containerfile)[^/]*$|\.dockerfile$/i

/** A Go module path as far as `known` reaches (`.../aws-sdk-go-v2/service/s3` is the SDK's). */
function goPrefix(name: string, known: string): string {
  return name.split('/').slice(0, known.split('/').length).join('/').replace(/\/v\d+$/, '')
}

/** The well-known name a dependency of an ecosystem imitates, if any. */
function imitatedIn(eco: Ecosystem, raw: string): string | undefined {
  const { known: list } = ECOSYSTEMS[eco]
  let name = eco === 'crates' ? crate(raw) : raw.toLowerCase()
  if (eco === 'docker')
    name = name.replace(/^(?:docker\.io\/)?(?:library\/)?/, '')
  if (eco !== 'go')
    return imitated(name, list)
  for (const k of list.names) {
    if (name === k || name.startsWith(`${k}/`))
      return undefined
  }
  for (const k of list.names) {
    if (oneEdit(goPrefix(name, k), k))
      return k
  }
  return undefined
}

/** A dependency a file names: 1-based line and column, and the text of its line. */
interface Dependency { eco: Ecosystem, name: string, line: number, column: number, text: string }

/** Dependencies on Go modules, gems, crates, GitHub Actions and Docker images that a file names. */
function ecosystemDeps(path: string, text: string): Dependency[] {
  const out: Dependency[] = []
  let index: LineIndex | null = null
  const at = (offset: number): { line: number, column: number, text: string } => {
    index ??= new LineIndex(text)
    const line = index.lineOf(offset)
    return { line: line + 1, column: offset - index.start(line) + 1, text: index.line(line) }
  }
  for (const { eco, keys, re } of DEP_LINES) {
    if (!keys.some(k => text.includes(k)))
      continue
    // `FROM` also opens SQL clauses: an image has a tag, or the file speaks of containers.
    const sql = keys[0] === 'FROM ' && !DOCKER_CONTEXT.test(path) && !/docker|container/i.test(text)
    re.lastIndex = 0
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (sql && !/:[\w.-]+/.test(m[0]))
        continue
      const group = m[1] === undefined ? 2 : 1
      const names = m[group]!
      const start = m.index + m[0].indexOf(names)
      for (const w of names.matchAll(/\S+/g)) out.push({ eco, name: w[0], ...at(start + w.index) })
    }
  }
  // Cargo.toml's dependency tables (in the file or a fenced block): `name = "1"`, `name = { version = ... }`.
  if (text.includes('dependencies]')) {
    let inDeps = false
    text.split('\n').forEach((l, i) => {
      const section = /^\s*\[([\w.-]+)\]\s*$/.exec(l)
      if (section) {
        inDeps = /(?:^|\.)(?:dev-|build-)?dependencies$/.test(section[1]!)
      }
      else if (/^\s*(?:```|~~~)/.test(l)) {
        inDeps = false
      }
      else if (inDeps) {
        const dep = /^\s*([\w-]+)\s*=/.exec(l)
        if (dep)
          out.push({ eco: 'crates', name: dep[1]!, line: i + 1, column: l.indexOf(dep[1]!) + 1, text: l })
      }
    })
  }
  return out
}

/**
 * PyPI names of a pyproject.toml (requirement strings in its arrays, Poetry's dependency tables) or of a conda
 * environment file (its `dependencies:` list and the `pip:` list inside it).
 */
function pythonManifest(text: string, toml: boolean): Array<Named & { line: number, npm: boolean }> {
  const out: Array<Named & { line: number, npm: boolean }> = []
  let section = ''
  let inArray = false
  let inList = false
  text.split('\n').forEach((l, i) => {
    let name: string | undefined
    if (toml) {
      const header = /^\s*\[([\w.-]+)\]\s*$/.exec(l)
      if (header) {
        section = header[1]!
        inArray = false
        return
      }
      const listed = /^(?:project|project\.optional-dependencies|build-system|dependency-groups)$/.test(section)
      if (/=\s*\[/.test(l) && listed)
        inArray = true
      if (inArray)
        name = /["']([A-Za-z][\w.-]*)(?:\[[^\]]*\])?\s*(?:[<>=!~;@]|["'])/.exec(l)?.[1]
      else if (/^tool\.poetry\.(?:(?:dev-)?dependencies|group\.[\w-]+\.dependencies)$/.test(section))
        name = /^\s*([A-Za-z][\w.-]*)\s*=/.exec(l)?.[1]
      if (inArray && /\]\s*(?:,\s*)?$/.test(l))
        inArray = false
    }
    else {
      if (/^\s*dependencies:\s*$/.test(l))
        inList = true
      else if (/^\S/.test(l))
        inList = false
      if (inList)
        name = /^\s*-\s+([A-Za-z][\w.-]*)\s*(?:[<>=!~]|$)/.exec(l)?.[1]
    }
    if (name && name !== 'python' && name !== 'pip')
      out.push({ name, offset: l.indexOf(name), line: i + 1, npm: false })
  })
  return out
}

function nameLine(skill: SkillSource): { line: number, column: number, text: string } {
  const lines = (skill.skillMd.text ?? '').split('\n')
  const i = lines.findIndex(l => /^name\s*:/.test(l))
  return i === -1 ? { line: 1, column: 1, text: lines[0] ?? '' } : { line: i + 1, column: 1, text: lines[i]! }
}

/** Names that imitate a well-known skill or a popular package by one edit (MITRE ATLAS AML.T0010, supply chain). */
export const typosquat: RuleModule = {
  meta: {
    id: 'typosquatting',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-1357',
    description:
      'A skill name one edit away from a well-known public skill, or an installed package one edit away from a '
      + 'popular npm or PyPI package, Go module, gem, crate, GitHub Action or Docker image '
      + '(data/well-known-skills.json).',
    hint:
      'Check the name letter by letter against the skill or package you meant; install the real one from its '
      + 'official source.',
  },
  patterns: [],
  visitSkill(skill) {
    const out: RawFinding[] = []
    const seen = new Set<string>()
    let words: Map<string, number> | undefined
    const vocabulary = (): Map<string, number> => (words ??= vocabularyOf(skill))
    for (const name of new Set([skill.name, skill.dirName])) {
      const target = typeof name === 'string' ? imitated(name, SKILLS) : undefined
      if (target && !seen.has(name)) {
        seen.add(name)
        const at = nameLine(skill)
        out.push({
          rule: 'typosquatting',
          path: skill.skillMd.path,
          line: at.line,
          column: at.column,
          message: `skill name "${name}" is one edit away from the well-known skill "${target}"`,
          excerpt: excerptAt(at.text, 0, at.text.length),
        })
      }
    }
    for (const file of skill.files) {
      const text = file.text
      if (!text)
        continue
      for (const dep of manifestNames(file.path, text)) {
        const what = lookAlike(dep.name, registry(dep.npm), vocabulary)
        if (what) {
          out.push({
            rule: 'typosquatting',
            path: file.path,
            line: dep.line,
            column: dep.offset + 1,
            message: `depends on "${dep.name}", ${what}`,
            excerpt: dep.name,
          })
        }
      }
      const named = hitLines(file, 'deps').length > 0 || text.includes('FROM ')
      for (const dep of named ? ecosystemDeps(file.path, text) : []) {
        const target = imitatedIn(dep.eco, dep.name)
        if (target) {
          out.push({
            rule: 'typosquatting',
            path: file.path,
            line: dep.line,
            column: dep.column,
            message: `names "${dep.name}", one edit away from the popular ${ECOSYSTEMS[dep.eco].noun} `
              + `"${target}"`,
            excerpt: excerptAt(dep.text, dep.column - 1, dep.name.length),
          })
        }
      }
      for (const { line: l, text: line } of hitLines(file, 'install')) {
        for (const [re, npm] of [[NPM_INSTALL, true], [PIP_INSTALL, false]] as const) {
          re.lastIndex = 0
          for (let m = re.exec(line); m; m = re.exec(line)) {
            const args = m[1] ?? m[2] ?? ''
            const base = m.index + m[0].length - args.length
            for (const { name, offset } of packageNames(args, npm, m[2] !== undefined)) {
              const what = lookAlike(name, registry(npm), vocabulary)
              if (!what)
                continue
              out.push({
                rule: 'typosquatting',
                path: file.path,
                line: l + 1,
                column: base + offset + 1,
                message: `installs "${name}", ${what}`,
                excerpt: excerptAt(line, base + offset, name.length),
              })
            }
          }
        }
      }
    }
    return out
  },
}
