import type { ManifestSkill, SkillsManifest } from '../../src/core/types'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { audit } from '../../src/audit/engine'
import { buildDiscoveryIndex } from '../../src/search'

/** A temp dir removed by the returned cleanup. */
export function tempDir(prefix = 'skills-discovery-'): { dir: string, cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

/** Writes a skill folder (`files`: path -> content) and reads it back through the engine, as a build would. */
export async function writeSkill(
  root: string,
  name: string,
  files: Record<string, string | Uint8Array>,
): Promise<ManifestSkill> {
  const dir = path.join(root, 'skills', name)
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), content)
  }
  const { manifest } = await audit({ root, roots: [`skills/${name}`], lock: false })
  return manifest.skills[0]
}

export function skillMd(fm: Record<string, string | string[]>, body: string): string {
  const lines = Object.entries(fm).map(([k, v]) =>
    Array.isArray(v) ? `${k}:\n${v.map(x => `  - "${x}"`).join('\n')}` : `${k}: ${v}`,
  )
  return `---\n${lines.join('\n')}\n---\n${body}`
}

/** A small realistic sample: four skills of different domains. */
export async function sampleSkills(root: string): Promise<ManifestSkill[]> {
  return Promise.all([
    writeSkill(root, 'pdf-invoice-extraction', {
      'SKILL.md': skillMd(
        {
          name: 'pdf-invoice-extraction',
          description: 'Extract totals and line items from supplier invoice PDFs into JSON.',
          version: '1.0.0',
          tags: ['pdf', 'invoices'],
          triggers: ['read the amounts from an invoice'],
        },
        '# Invoice extraction\n\n## Steps\n1. Open the PDF and find the invoice number.\n'
        + '2. Cross-check line items against the total.\n',
      ),
      'references/fields.md': '# Fields\n\nThe supplier, the due date, VAT and the grand total.\n',
      'examples/out.json': '{ "total": "12.50", "currency": "EUR" }\n',
    }),
    writeSkill(root, 'postgres-migrations', {
      'SKILL.md': skillMd(
        {
          name: 'postgres-migrations',
          description: 'Plan and apply PostgreSQL schema migrations safely with lock timeouts.',
          version: '1.2.0',
          tags: ['postgres', 'schema'],
          triggers: ['add a column to a production table'],
        },
        '# Migrations\n\n## Steps\n1. Set lock_timeout before ALTER TABLE.\n2. Create indexes concurrently.\n'
        + '3. Backfill in batches.\n',
      ),
      'references/locks.md': '# Lock levels\n\nACCESS EXCLUSIVE blocks reads and writes on the table.\n',
      'examples/add-column.sql': 'ALTER TABLE customers ADD COLUMN tier text;\n',
    }),
    writeSkill(root, 'k8s-rollout', {
      'SKILL.md': skillMd(
        {
          name: 'k8s-rollout',
          description: 'Roll out container images to Kubernetes deployments with canaries and automatic rollback.',
          version: '0.3.0',
          tags: ['kubernetes'],
          triggers: ['deploy a new image'],
        },
        '# Rollouts\n\n## Steps\n1. Update the deployment image tag.\n2. Watch readiness probes.\n'
        + '3. Undo the rollout when errors spike.\n',
      ),
      'references/probes.md': '# Probes\n\nReadiness gates traffic; liveness restarts stuck pods.\n',
      'examples/deploy.yaml': 'kind: Deployment\nspec:\n  replicas: 3\n',
    }),
    writeSkill(root, 'release-notes', {
      'SKILL.md': skillMd(
        {
          name: 'release-notes',
          description: 'Draft release notes and changelog entries from git history between two tags.',
          version: '2.0.1',
          tags: ['git', 'changelog'],
          triggers: ['what changed since the last tag'],
        },
        '# Release notes\n\n## Steps\n1. Collect commits between tags.\n'
        + '2. Group them by type, breaking changes first.\n',
      ),
      'references/conventional.md': '# Conventional commits\n\nfeat, fix, docs, refactor.\n',
      'examples/notes.md': '## 2.0.0\n\n- Breaking: drop Node 16.\n',
    }),
  ])
}

/** A complete manifest of `skills`, discovery index included. */
export async function indexedManifest(skills: ManifestSkill[]): Promise<SkillsManifest> {
  return {
    manifestVersion: 1,
    generator: 'test',
    lockDigest: '',
    profile: 'enterprise',
    skills,
    index: await buildDiscoveryIndex(skills),
  }
}
