import fs from 'node:fs'
import { builtinModules } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The module boundaries of issue 16, checked on the source itself: which stage folder may import
 * which, what the browser-safe runtime may reach, the scanner finder's one entry, and no import
 * cycle. Imports are read with the TypeScript parser (static, `export ... from`, `import()`,
 * `require()`, `import('x')` types), type-only ones included: a type import ties modules together
 * as much as a value import does for whoever reads or moves them.
 */

/** One import of a source file. */
interface Edge {
  /** Project-relative posix path of the importing file. */
  from: string
  specifier: string
  /** Project-relative posix path of the file a relative specifier names; null for packages and builtins. */
  target: string | null
  typeOnly: boolean
  line: number
}

/** A broken rule: which one, and a message naming the file and the import. */
interface Violation {
  rule: string
  message: string
}

/** A stage folder and what its files may import. */
interface Layer {
  name: string
  /** Project-relative folder (trailing slash) whose files the rule governs. */
  dir: string
  /** Project paths its files may import: folders (trailing slash) or exact files. */
  mayImport: string[]
  /** npm packages its files may import (a package's subpaths included); undefined: any. */
  packages?: string[]
  /** Whether Node builtins (`node:*`, `fs`...) are allowed. */
  builtins: boolean
}

/** The files at the src/ root that are entry points; no file in a stage folder imports them. */
const ENTRIES = ['src/index.ts', 'src/cli.ts', 'src/bin.ts', 'src/vitest.ts']

const MAX_ROOT_FILES = 8

/** The team's limit for a source file under src/ (src/generated/ is ajv's output, left out). */
const MAX_LINES = 600

/** Outside src/scanner/finder/, the finder is reached only through these modules. */
const FINDER_DIR = 'src/scanner/finder/'
const FINDER_ENTRY = ['src/scanner/finder/index.ts']

const LAYERS: Layer[] = [
  // Generated validators are data (ajv standalone code): the options schema's is read by core.
  { name: 'core', dir: 'src/core/', mayImport: ['src/core/', 'src/generated/'], builtins: true },
  {
    name: 'runtime',
    dir: 'src/runtime/',
    mayImport: ['src/runtime/', 'src/core/types.ts', 'src/core/digest.ts'],
    packages: ['@noble/hashes'],
    builtins: false,
  },
  {
    name: 'scanner',
    dir: 'src/scanner/',
    mayImport: [
      'src/core/',
      'src/scanner/',
      'data/well-known-skills.json',
      'data/popular-packages.json',
      'data/rule-catalog.json',
    ],
    builtins: true,
  },
  {
    name: 'enterprise',
    dir: 'src/enterprise/',
    mayImport: [
      'src/core/',
      'src/enterprise/',
      'src/generated/validators.js',
      'schemas/scenario.schema.json',
      'data/cwe-ids.json',
    ],
    builtins: true,
  },
  { name: 'search', dir: 'src/search/', mayImport: ['src/core/', 'src/runtime/', 'src/search/'], builtins: true },
  {
    name: 'audit',
    dir: 'src/audit/',
    mayImport: [
      'src/core/',
      'src/scanner/',
      'src/enterprise/',
      'src/search/',
      'src/audit/',
      'src/generated/lock-validator.js',
      'src/generated/validators.js',
      'package.json',
    ],
    builtins: true,
  },
  // Runtime values too: plugin/codegen.ts checks an index with the runtime's isDiscoveryIndex (Node-free, a leaf).
  {
    name: 'plugin',
    dir: 'src/plugin/',
    mayImport: ['src/core/', 'src/audit/', 'src/runtime/', 'src/plugin/'],
    builtins: true,
  },
]

/** Every rule the checker applies, by the name its violations carry. */
const RULES = [
  ...LAYERS.map(l => l.name),
  'runtime closure',
  'finder entry',
  'entries',
  'unresolved',
  'no layer',
  'root files',
  'file length',
  'cycles',
]

const posix = (p: string) => p.split(path.sep).join('/')

/** src/**\/*.ts, src/generated/ left out (ajv's output), as sorted project-relative paths. */
function listSources(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`
      if (entry.isDirectory()) {
        if (rel !== 'src/generated')
          walk(rel)
      }
      else if (entry.name.endsWith('.ts')) {
        out.push(rel)
      }
    }
  }
  walk('src')
  return out.sort()
}

/** The project file a relative specifier names, as the bundler resolves it; null when none exists. */
function resolveRelative(root: string, from: string, specifier: string): string | null {
  const abs = path.resolve(root, path.dirname(from), specifier)
  const candidates = [abs, abs.replace(/\.m?js$/, '.ts'), `${abs}.ts`, path.join(abs, 'index.ts')]
  const found = candidates.find(c => fs.existsSync(c) && fs.statSync(c).isFile())
  return found ? posix(path.relative(root, found)) : null
}

/** The text of a string literal specifier; undefined for anything computed. */
function literal(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined
}

/** A file's imports, in source order. Computed `import(expr)` calls can't be resolved and are left out. */
function importsOf(root: string, file: string): Edge[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const edges: Edge[] = []
  const add = (node: ts.Node, specifier: string | undefined, typeOnly: boolean) => {
    if (specifier === undefined)
      return
    const target = specifier.startsWith('.') ? resolveRelative(root, file, specifier) : null
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
    edges.push({ from: file, specifier, target, typeOnly, line })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause
      const named = clause?.namedBindings
      const allTypes = !!clause && !clause.name && !!named && ts.isNamedImports(named)
        && named.elements.length > 0 && named.elements.every(e => e.isTypeOnly)
      add(node, literal(node.moduleSpecifier), !!clause?.isTypeOnly || allTypes)
    }
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const named = node.exportClause
      const allTypes = !!named && ts.isNamedExports(named) && named.elements.length > 0
        && named.elements.every(e => e.isTypeOnly)
      add(node, literal(node.moduleSpecifier), node.isTypeOnly || allTypes)
    }
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, literal(node.moduleReference.expression), node.isTypeOnly)
    }
    else if (ts.isCallExpression(node)) {
      const callee = node.expression
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require'
      if (isImport || isRequire)
        add(node, literal(node.arguments[0]), false)
    }
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, literal(node.argument.literal), true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return edges
}

/** `fs`, `node:fs`, `fs/promises`... */
function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])
}

/** `@scope/name` or `name` of a package specifier. */
function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** Whether `file` is one of `allowed`: folders (trailing slash) or exact files. */
function within(file: string, allowed: string[]): boolean {
  return allowed.some(a => (a.endsWith('/') ? file.startsWith(a) : file === a))
}

const where = (e: Edge) => `${e.from}:${e.line} imports '${e.specifier}'`

/** Every import cycle among the files: Tarjan's strongly connected components, each shown as one cycle. */
function findCycles(files: string[], edges: Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map(f => [f, []]))
  for (const e of edges) {
    if (e.target && next.has(e.target) && !next.get(e.from)!.includes(e.target))
      next.get(e.from)!.push(e.target)
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const connect = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      }
      else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!))
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || next.get(v)!.includes(v))
        components.push(component.sort())
    }
  }
  for (const f of files) {
    if (!index.has(f))
      connect(f)
  }
  // One concrete cycle per component: the shortest path back to its first file (breadth first, inside it).
  return components.map((component) => {
    const inside = new Set(component)
    const start = component[0]
    const via = new Map<string, string>()
    const queue = [start]
    for (let i = 0; i < queue.length; i++) {
      for (const w of next.get(queue[i])!) {
        if (!inside.has(w) || via.has(w))
          continue
        via.set(w, queue[i])
        queue.push(w)
      }
    }
    // Walked back from `start` through the predecessors, then turned around.
    const back: string[] = []
    for (let at = via.get(start)!; at !== start; at = via.get(at)!) back.push(at)
    return [start, ...back.reverse(), start]
  })
}

/** Every broken rule of the project at `root`, in a stable order. */
function checkArchitecture(root: string): Violation[] {
  const files = listSources(root)
  const edges = files.flatMap(f => importsOf(root, f))
  const out: Violation[] = []
  const report = (rule: string, message: string) => out.push({ rule, message })

  for (const e of edges) {
    if (e.specifier.startsWith('.') && e.target === null) {
      report('unresolved', `${where(e)}, which names no file`)
      continue
    }
    const layer = LAYERS.find(l => e.from.startsWith(l.dir))
    if (e.target && ENTRIES.includes(e.target) && e.from.includes('/', 'src/'.length)) {
      report('entries', `${where(e)}: an entry point (${e.target})`)
    }
    if (e.target && e.target.startsWith(FINDER_DIR) && !e.from.startsWith(FINDER_DIR)
      && !FINDER_ENTRY.includes(e.target)) {
      report('finder entry', `${where(e)}: reach the finder through ${FINDER_ENTRY.join(', ')}`)
    }
    if (!layer)
      continue
    if (e.target) {
      if (!within(e.target, layer.mayImport))
        report(layer.name, `${where(e)} (${e.target}): ${layer.dir} may import only ${layer.mayImport.join(', ')}`)
    }
    else if (isBuiltin(e.specifier)) {
      if (!layer.builtins)
        report(layer.name, `${where(e)}: a Node builtin`)
    }
    else if (layer.packages && !layer.packages.includes(packageName(e.specifier))) {
      report(layer.name, `${where(e)}: ${layer.dir} may import only the packages ${layer.packages.join(', ')}`)
    }
  }

  // What the runtime loads, through every value import, stays browser-safe (core/digest.ts included).
  const runtime = LAYERS.find(l => l.name === 'runtime')!
  const reachedVia = new Map<string, string>()
  const queue = files.filter(f => f.startsWith(runtime.dir))
  for (const f of queue) reachedVia.set(f, f)
  for (let i = 0; i < queue.length; i++) {
    for (const e of edges) {
      if (e.from !== queue[i] || e.typeOnly)
        continue
      if (e.target && files.includes(e.target) && !reachedVia.has(e.target)) {
        reachedVia.set(e.target, reachedVia.get(e.from)!)
        queue.push(e.target)
      }
      const outside = !e.target && (isBuiltin(e.specifier) || !runtime.packages!.includes(packageName(e.specifier)))
      if (outside && !e.from.startsWith(runtime.dir))
        report('runtime closure', `${where(e)}, and the runtime loads it (from ${reachedVia.get(e.from)})`)
    }
  }

  for (const f of files) {
    const inFolder = f.includes('/', 'src/'.length)
    if (inFolder && !LAYERS.some(l => f.startsWith(l.dir)))
      report('no layer', `${f} is in no stage folder with a rule (${LAYERS.map(l => l.dir).join(', ')})`)
  }
  const rootFiles = fs.readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter(d => d.isFile())
  if (rootFiles.length > MAX_ROOT_FILES) {
    const names = rootFiles.map(d => d.name).sort().join(', ')
    report('root files', `src/ holds ${rootFiles.length} files, at most ${MAX_ROOT_FILES}: ${names}`)
  }
  for (const f of files) {
    const text = fs.readFileSync(path.join(root, f), 'utf8')
    // As an editor numbers them: a final newline ends the last line, it starts no new one.
    const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
    if (lines > MAX_LINES)
      report('file length', `${f} has ${lines} lines, at most ${MAX_LINES}`)
  }
  for (const cycle of findCycles(files, edges)) report('cycles', `import cycle: ${cycle.join(' -> ')}`)
  return out
}

const here = path.dirname(fileURLToPath(import.meta.url))

describe('module boundaries of src/', () => {
  const violations = checkArchitecture(path.join(here, '..'))
  it.each(RULES)('%s', (rule) => {
    const found = violations.filter(v => v.rule === rule)
    expect(found.map(v => v.message)).toEqual([])
  })
})

describe('the checker', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-architecture-'))
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
  const files: Record<string, string> = {
    'src/index.ts': `export * from './plugin/p'\n`,
    'src/cli.ts': 'export const run = 1\n',
    'src/bin.ts': `import './cli'\n`,
    'src/vitest.ts': '',
    'src/x1.ts': '',
    'src/x2.ts': '',
    'src/x3.ts': '',
    'src/x4.ts': '',
    'src/x5.ts': '',
    'src/generated/v.ts': `import '../audit/engine'\n${'\n'.repeat(700)}`,
    'src/core/fits.ts': `${'// x\n'.repeat(599)}// x`,
    'src/core/long.ts': '// x\n'.repeat(601),
    'src/core/types.ts': `export type T = string\n`,
    'src/core/digest.ts': `import { createHash } from 'node:crypto'\nexport const digestInput = createHash\n`,
    'src/core/a.ts': `import fs from 'node:fs'\nimport { x } from '../runtime/r'\nexport default [fs, x]\n`,
    'src/runtime/r.ts': [
      `import type { T } from '../core/types'`,
      `import { sha256 } from '@noble/hashes/sha2.js'`,
      `import pc from 'picocolors'`,
      `import { digestInput } from '../core/digest'`,
      `export type E = import('../audit/engine').E | T`,
      `export const x = [sha256, pc, digestInput, require('fs')]`,
      '',
    ].join('\n'),
    'src/search/p.ts': `import type { Q } from './q'\nexport type P = Q\n`,
    'src/search/q.ts': `export type { P as Q } from './p'\n`,
    'src/scanner/s.ts': `import { k } from './finder/kernel'\nexport const s = () => [k, import('../audit/engine')]\n`,
    'src/scanner/t.ts': `import { f } from './finder'\nexport const t = f\n`,
    'src/scanner/finder/index.ts': `export { f } from './prefilter'\n`,
    'src/scanner/finder/kernel.ts': `export const k = 1\n`,
    'src/scanner/finder/prefilter.ts': `import { k } from './kernel'\nexport const f = k\n`,
    'src/audit/engine.ts': `import { nope } from './nope'\nexport type E = typeof nope\n`,
    'src/plugin/p.ts': `import { run } from '../cli'\nexport const p = run\n`,
    'src/extra/e.ts': `import { p } from './e'\nexport { p }\n`,
  }
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }

  it('names the file and the import of every broken rule, and each cycle', () => {
    const runtimeMay = 'src/runtime/ may import only src/runtime/, src/core/types.ts, src/core/digest.ts'
    expect(checkArchitecture(root).map(v => `${v.rule}: ${v.message}`)).toEqual([
      `unresolved: src/audit/engine.ts:1 imports './nope', which names no file`,
      `core: src/core/a.ts:2 imports '../runtime/r' (src/runtime/r.ts): `
      + 'src/core/ may import only src/core/, src/generated/',
      `entries: src/plugin/p.ts:1 imports '../cli': an entry point (src/cli.ts)`,
      `plugin: src/plugin/p.ts:1 imports '../cli' (src/cli.ts): `
      + 'src/plugin/ may import only src/core/, src/audit/, src/runtime/, src/plugin/',
      `runtime: src/runtime/r.ts:3 imports 'picocolors': src/runtime/ may import only the packages @noble/hashes`,
      `runtime: src/runtime/r.ts:5 imports '../audit/engine' (src/audit/engine.ts): ${runtimeMay}`,
      `runtime: src/runtime/r.ts:6 imports 'fs': a Node builtin`,
      `finder entry: src/scanner/s.ts:1 imports './finder/kernel': `
      + 'reach the finder through src/scanner/finder/index.ts',
      `scanner: src/scanner/s.ts:2 imports '../audit/engine' (src/audit/engine.ts): `
      + 'src/scanner/ may import only src/core/, src/scanner/, data/well-known-skills.json, '
      + 'data/popular-packages.json, data/rule-catalog.json',
      `runtime closure: src/core/digest.ts:1 imports 'node:crypto', and the runtime loads it (from src/runtime/r.ts)`,
      'no layer: src/extra/e.ts is in no stage folder with a rule '
      + '(src/core/, src/runtime/, src/scanner/, src/enterprise/, src/search/, src/audit/, src/plugin/)',
      'root files: src/ holds 9 files, at most 8: '
      + 'bin.ts, cli.ts, index.ts, vitest.ts, x1.ts, x2.ts, x3.ts, x4.ts, x5.ts',
      'file length: src/core/long.ts has 601 lines, at most 600',
      'cycles: import cycle: src/extra/e.ts -> src/extra/e.ts',
      'cycles: import cycle: src/search/p.ts -> src/search/q.ts -> src/search/p.ts',
    ])
  })
})
