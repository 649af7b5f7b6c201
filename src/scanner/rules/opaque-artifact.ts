import type { SkillSource } from '../../core/types'
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
      'Opaque artifacts: executables (ELF, PE, Mach-O) are errors; archives, other binaries and instructions to run '
      + 'a script the skill does not ship are warnings (what runs cannot be reviewed).',
    hint:
      'Ship the source of what the skill runs as text files, and the scripts its instructions name; build binaries '
      + 'from reviewed source at install time.',
  },
  patterns: [],
  visitSkill(skill) {
    const out: RawFinding[] = []
    for (const file of skill.files) {
      if (file.text === null) {
        const format = file.format ?? 'binary'
        if (format === 'media')
          continue
        const exe = EXECUTABLE[format]
        out.push({
          rule: RULE,
          path: file.path,
          line: 1,
          column: 1,
          message: exe
            ? `${file.path} is ${exe}: its code cannot be reviewed`
            : `${file.path} is ${format === 'archive' ? 'an archive' : 'a binary file'}: its content is not scanned`,
          excerpt: file.path,
          ...(exe ? {} : { severity: 'warning' as const }),
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
