import { describe, expect, it } from 'vitest'
import { binaryFormat } from '../../../src/audit/read'
import { opaqueArtifact } from '../../../src/scanner/rules/opaque-artifact'
import { hitsOf, scan } from '../helpers'

const bytes = (...b: number[]): Uint8Array => new Uint8Array([...b, ...Array.from({ length: 64 }).fill(0) as number[]])
const ELF = bytes(0x7F, 0x45, 0x4C, 0x46, 2, 1, 1)
const PE = bytes(0x4D, 0x5A, 0x90)
const MACHO = bytes(0xCF, 0xFA, 0xED, 0xFE)
const FAT = bytes(0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2)
const CLASS = bytes(0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52)
const ZIP = bytes(0x50, 0x4B, 3, 4)
const PNG = bytes(0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A)
const TTF = bytes(0, 1, 0, 0, 0, 0x10)

describe('opaque_artifact', () => {
  it('is a threat error with CWE-506', () => {
    expect(opaqueArtifact.meta).toMatchObject({ id: 'opaque_artifact', kind: 'threat', severity: 'error' })
  })
  it('tells executables, archives and media apart by their first bytes', () => {
    expect([ELF, PE, MACHO, FAT, CLASS, ZIP, PNG, TTF, bytes(1, 2, 3)].map(binaryFormat))
      .toEqual(['elf', 'pe', 'mach-o', 'mach-o', 'binary', 'archive', 'media', 'media', 'binary'])
  })
  it('reports executables as errors whatever their name, archives and binaries as warnings, media not', () => {
    expect(hitsOf('opaque_artifact', {
      'assets/logo.png': ELF,
      'bin/tool.exe': PE,
      'lib/x.dylib': MACHO,
      'resources/a.zip': ZIP,
      'resources/blob.bin': bytes(1, 2, 3),
      'images/real.png': PNG,
      'fonts/f.ttf': TTF,
    })).toEqual([
      'error opaque_artifact assets/logo.png:1:1',
      'error opaque_artifact bin/tool.exe:1:1',
      'error opaque_artifact lib/x.dylib:1:1',
      'warning opaque_artifact resources/a.zip:1:1',
      'warning opaque_artifact resources/blob.bin:1:1',
    ])
  })
  it('warns about instructions to run a script the skill does not ship', () => {
    const r = scan({
      'SKILL.md': '# x\n\nRun `bash scripts/setup.sh`, then `python3 scripts/run.py --all`.\n\n```bash\n./scripts/run'
        + '.py\n'
        + 'python3 ~/.claude/skills/x/scripts/run.py\n```\n',
      'scripts/run.py': 'print(1)\n',
    })
    const found = r.diagnostics.filter(d => d.rule === 'opaque_artifact')
    const shown = found.map(d => `${d.severity} ${d.line}:${d.column} ${d.message}`)
    expect(shown).toEqual(['warning 3:11 runs scripts/setup.sh, which the skill does not ship'])
  })
})
