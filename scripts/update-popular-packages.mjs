#!/usr/bin/env node
// Derives data/popular-packages.json: the most downloaded packages of npm and PyPI, in order. The first `targets`
// of each are the names a typosquat imitates (scanner/rules/typosquat.ts); the rest are known to be legitimate,
// so that a popular package one edit from a more popular one (`simpy` and `sympy`) is not reported. npm's come
// from the `npm-high-impact` package (MIT; npm's own download counts), which is never a dependency: it is packed
// into a temp dir, read, and thrown away. PyPI's come from a local copy of top-pypi-packages.min.json
// (hugovk/top-pypi-packages: PyPI's public download statistics, the 15,000 most downloaded projects of a month);
// only the names and their order are kept.
//
//   node scripts/update-popular-packages.mjs --pypi path/to/top-pypi-packages.min.json \
//     [--npm 1.13.0] [--targets 6000]
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    pypi: { type: 'string' },
    npm: { type: 'string', default: '1.13.0' },
    targets: { type: 'string', default: '6000' },
  },
})
const targets = Number(values.targets)
if (!values.pypi || !Number.isInteger(targets) || targets < 1) {
  console.error('usage: node scripts/update-popular-packages.mjs --pypi FILE [--npm VERSION] [--targets N]')
  process.exit(2)
}
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'popular-packages.json')

const pypi = JSON.parse(fs.readFileSync(values.pypi, 'utf8'))
if (!Array.isArray(pypi.rows) || typeof pypi.last_update !== 'string')
  throw new Error(`${values.pypi}: not a top-pypi-packages dump (no rows / last_update)`)

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-high-impact-'))
try {
  const tgz = execFileSync('npm', ['pack', `npm-high-impact@${values.npm}`, '--silent'], { cwd: tmp, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()
  execFileSync('tar', ['xzf', tgz], { cwd: tmp })
  const source = fs.readFileSync(path.join(tmp, 'package', 'lib', 'top-download.js'), 'utf8')
  // The module is one array literal of quoted names, most downloaded first.
  const npmNames = [...source.matchAll(/^\s*'([^']+)',?$/gm)].map(m => m[1])
  // Scoped names are left out: a scope belongs to its owner, and a look-alike scope is a different attack.
  const unscoped = npmNames.filter(n => !n.startsWith('@'))
  const pypiNames = pypi.rows.map(r => String(r.project).toLowerCase())
  if (unscoped.length < targets || pypiNames.length < targets)
    throw new Error(`fewer names than ${targets}: npm ${unscoped.length}, PyPI ${pypiNames.length}`)
  const data = {
    source: `npm: the unscoped packages of npm-high-impact@${values.npm} (topDownload: a million downloads a week `
      + `or more), most downloaded first. PyPI: the ${pypiNames.length} most downloaded projects of `
      + `hugovk/top-pypi-packages (PyPI's public download statistics), month to ${pypi.last_update.slice(0, 10)}. `
      + `The first \`targets\` of each are the names a look-alike imitates; the others are known packages.`,
    targets,
    npm: unscoped,
    pypi: pypiNames,
  }
  const text = `${JSON.stringify(data, null, 2)}\n`
  if (!fs.existsSync(out) || fs.readFileSync(out, 'utf8') !== text)
    fs.writeFileSync(out, text)
  console.log(`data/popular-packages.json: ${unscoped.length} npm, ${pypiNames.length} PyPI names`)
}
finally {
  fs.rmSync(tmp, { recursive: true, force: true })
}
