#!/usr/bin/env node
// Derives data/cwe-ids.json (every CWE id MITRE's catalogue defines: weaknesses, categories, views,
// deprecated ones included) from the XML catalogue shipped in the `cwe-sdk` npm package (Apache-2.0;
// the catalogue itself is MITRE's, free to use under the CWE terms of use). The package is never a
// dependency: it is packed into a temp dir, read, and thrown away.
//
//   node scripts/update-cwe.mjs [cwe-sdk version | path to an unpacked package dir]
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const PACKAGE = 'cwe-sdk'
const arg = process.argv[2] ?? '1.1.19'
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'cwe-ids.json')

let dir = arg
let tmp = null
if (!fs.existsSync(arg)) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cwe-sdk-'))
  const tgz = execFileSync('npm', ['pack', `${PACKAGE}@${arg}`, '--silent'], { cwd: tmp, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()
  execFileSync('tar', ['xzf', tgz], { cwd: tmp })
  dir = path.join(tmp, 'package')
}

try {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  const xml = fs.readFileSync(path.join(dir, 'raw', 'cwe-archive.xml'), 'utf8')
  const catalog = /<Weakness_Catalog\b[^>]*\bVersion="([^"]+)"[^>]*\bDate="([^"]+)"/.exec(xml)
  if (!catalog)
    throw new Error('no <Weakness_Catalog Version=... Date=...> header in cwe-archive.xml')

  const ids = new Set()
  const deprecated = new Set()
  const counts = { weaknesses: 0, categories: 0, views: 0 }
  const kinds = { Weakness: 'weaknesses', Category: 'categories', View: 'views' }
  for (const m of xml.matchAll(/<(Weakness|Category|View)\s([^>]*)>/g)) {
    const id = /\bID="(\d+)"/.exec(m[2])
    if (!id)
      continue
    const n = Number(id[1])
    if (ids.has(n))
      throw new Error(`CWE-${n} defined twice`)
    ids.add(n)
    counts[kinds[m[1]]]++
    if (/\bStatus="Deprecated"/.test(m[2]))
      deprecated.add(n)
  }
  if (ids.size < 900)
    throw new Error(`only ${ids.size} ids found: is this the full catalogue?`)

  const byNumber = (a, b) => a - b
  const data = {
    catalog: 'CWE',
    version: catalog[1],
    date: catalog[2],
    source: `MITRE CWE catalogue ${catalog[1]}, from ${PACKAGE}@${pkg.version} raw/cwe-archive.xml`,
    counts,
    deprecated: [...deprecated].sort(byNumber),
    ids: [...ids].sort(byNumber),
  }
  // One id list per line keeps the file small and its diffs readable.
  const text = JSON.stringify(data, null, 2).replace(
    /\[\n\s+([\d,\s]+?)\n\s+\]/g,
    (_, list) => `[${list.replace(/\s+/g, '')}]`,
  )
  fs.writeFileSync(out, `${text}\n`)
  console.log(
    `${path.relative(process.cwd(), out)}: CWE ${data.version} (${data.date}), ${data.ids.length} ids, `
    + `${data.deprecated.length} deprecated`,
  )
}
finally {
  if (tmp)
    fs.rmSync(tmp, { recursive: true, force: true })
}
