import type { SkillFile, SkillSource } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import { excerptAt } from '../excerpt'
import { hitLines } from './skill-hits'

const RULE = 'opaque_artifact'

const EXECUTABLE: Record<string, string> = {
  'elf': 'an ELF executable',
  'pe': 'a Windows PE executable',
  'mach-o': 'a Mach-O executable',
}

/**
 * A command that runs a skill-relative script: an interpreter or `./` before `scripts/...`, `bin/...` and the like.
 * Group 1 is the path as written.
 */
const RUNS = new RegExp(
  String.raw`(?:\b(?:bash|sh|zsh|python[\d.]*|py|node|deno\s+run|bun|tsx|ts-node|ruby|perl|pwsh|powershell(?:\.exe)?`
  + String.raw`(?:\s+-File)?|source|uv\s+run|npx\s+tsx)\s+(?:-[\w-]+\s+)*|(?:^|[\s\`'"(])(?:\.\/|\.\s+))`
  + String.raw`["'\`]?((?:\.\/)?(?:[\w.-]+\/)*?(?:scripts?|bin|tools|resources|lib|hooks|setup|install)\/[\w./-]+`
  + String.raw`\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|ps1))\b`,
  'gm',
)

/** A command or call that loads or runs a compiled file: a jar, a shared library, WebAssembly, Python bytecode. */
const LOADER = new RegExp(
  [
    String.raw`\bjava\s+(?:-\S+\s+)*-(?:jar|cp|classpath)\b|LD_PRELOAD|DYLD_INSERT_LIBRARIES|\bctypes\b`,
    String.raw`|\bcdll\b|\bCDLL\b|\bWinDLL\b|LoadLibrary|\bdlopen\b|System\.load`,
    String.raw`|WebAssembly\.(?:compile|instantiate)|\bwasmtime\b|\bwasmer\b|\bwasm3\b|SourcelessFileLoader`,
    String.raw`|\bmarshal\.loads?\b|\bimportlib\b|\brundll32\b|\bregsvr32\b`,
    String.raw`|\bAdd-Type\b|Assembly\]::Load|\bchmod\s+(?:\+|[0-7]*[1357]\b)|\bpython[\d.]*\s`,
  ].join(''),
)
const COMPILED_EXT = new Set(['jar', 'so', 'dylib', 'dll', 'wasm', 'pyc', 'class', 'node'])
const COMPILED_FILE = new RegExp(String.raw`\.(${[...COMPILED_EXT].join('|')})\b`, 'gi')

/** The extensions of compiled files that a line of the skill's text loads or runs. */
function loadedExtensions(skill: SkillSource): Set<string> {
  const out = new Set<string>()
  for (const file of skill.files) {
    const text = file.text
    if (!text)
      continue
    COMPILED_FILE.lastIndex = 0
    for (let m = COMPILED_FILE.exec(text); m; m = COMPILED_FILE.exec(text)) {
      const start = text.lastIndexOf('\n', m.index) + 1
      const end = text.indexOf('\n', m.index)
      const line = text.slice(start, end === -1 ? text.length : end)
      if (LOADER.test(line))
        out.add(m[1]!.toLowerCase())
      COMPILED_FILE.lastIndex = end === -1 ? text.length : end
    }
  }
  return out
}

function opaqueMessage(file: SkillFile): string {
  const n = file.members?.length ?? 0
  if (n)
    return `${file.path} is an archive: its ${n} text file${n > 1 ? 's are' : ' is'} scanned, the rest of it is not`
  return `${file.path} is ${file.format === 'archive' ? 'an archive' : 'a binary file'}: its content is not scanned`
}

function shipped(skill: SkillSource, ref: string): boolean {
  const rel = ref.replace(/^\.\//, '')
  return skill.files.some(f => f.path === rel || f.path.endsWith(`/${rel}`) || rel.endsWith(`/${f.path}`))
}

/** Executables, archives and binaries a reviewer cannot read, and scripts a skill runs but does not ship. */
export const opaqueArtifact: RuleModule = {
  meta: {
    id: RULE,
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-506',
    description:
      'Opaque artifacts: executables (ELF, PE, Mach-O) and compiled files the skill loads or runs (a jar, '
      + 'WebAssembly, Python bytecode, a library) are errors; other archives and binaries and instructions to run '
      + 'a script the skill does not ship are warnings (what runs cannot be reviewed).',
    hint:
      'Ship the source of what the skill runs as text files, and the scripts its instructions name; build binaries '
      + 'from reviewed source at install time.',
  },
  patterns: [],
  visitSkill(skill) {
    const out: RawFinding[] = []
    let loaded: Set<string> | undefined
    for (const file of skill.files) {
      if (file.text === null) {
        const format = file.format ?? 'binary'
        if (format === 'media')
          continue
        const calls = file.calls?.length ? file.calls : null
        const exe = EXECUTABLE[format]
        const ext = file.path.slice(file.path.lastIndexOf('.') + 1).toLowerCase()
        // An archive or other binary that the skill's own text loads or runs (`java -jar`, `WebAssembly.compile`).
        const runs = !calls && !exe && COMPILED_EXT.has(ext) && (loaded ??= loadedExtensions(skill)).has(ext)
        out.push({
          rule: RULE,
          path: file.path,
          line: 1,
          column: 1,
          message: calls
            ? `${file.path} is a pickle that calls ${calls.join(', ')} when it is loaded`
            : exe
              ? `${file.path} is ${exe}: its code cannot be reviewed`
              : runs
                ? `${file.path} is compiled code that the skill loads or runs: its code cannot be reviewed`
                : opaqueMessage(file),
          excerpt: file.path,
          ...(calls || exe || runs ? {} : { severity: 'warning' as const }),
        })
        continue
      }
      if (!/\.(?:md|mdx|markdown|sh|bash|txt)$/i.test(file.path) && file.path !== skill.skillMd.path)
        continue
      const seen = new Set<string>()
      for (const { line: l, text: line } of hitLines(file, 'run')) {
        RUNS.lastIndex = 0
        for (let m = RUNS.exec(line); m; m = RUNS.exec(line)) {
          const ref = m[1]!
          if (seen.has(ref) || shipped(skill, ref))
            continue
          seen.add(ref)
          const col = m.index + m[0].lastIndexOf(ref)
          out.push({
            rule: RULE,
            path: file.path,
            line: l + 1,
            column: col + 1,
            message: `runs ${ref}, which the skill does not ship`,
            excerpt: excerptAt(line, col, ref.length),
            severity: 'warning',
          })
        }
      }
    }
    return out
  },
}
