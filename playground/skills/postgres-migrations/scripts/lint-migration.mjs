#!/usr/bin/env node
// Flags PostgreSQL migration statements that take blocking locks or rewrite
// tables. Read-only: it never connects to a database and never writes files.
// Usage (from the repository root): node lint-migration.mjs migrations/0042_x.sql ...
// Exit code 1 when any error-level finding is reported.
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const MAX_BYTES = 1024 * 1024 // migrations are small; refuse anything huge (CWE-400)

const RULES = [
  {
    id: 'index-not-concurrent',
    level: 'error',
    test: (s) => /^create\s+(unique\s+)?index\b/i.test(s) && !/\bconcurrently\b/i.test(s),
    message: 'CREATE INDEX without CONCURRENTLY blocks writes for the whole build',
  },
  {
    id: 'not-null-without-default',
    level: 'error',
    test: (s) => /\badd\s+column\b/i.test(s) && /\bnot\s+null\b/i.test(s) && !/\bdefault\b/i.test(s),
    message: 'adding a NOT NULL column without a default fails on a non-empty table',
  },
  {
    id: 'column-type-change',
    level: 'warning',
    test: (s) => /\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i.test(s),
    message: 'changing a column type usually rewrites the table under an ACCESS EXCLUSIVE lock',
  },
  {
    id: 'constraint-not-valid',
    level: 'warning',
    test: (s) => /\badd\s+constraint\b/i.test(s) && /\b(foreign\s+key|check)\b/i.test(s) && !/\bnot\s+valid\b/i.test(s),
    message: 'add the constraint NOT VALID, then VALIDATE CONSTRAINT in a later migration',
  },
  {
    id: 'rename',
    level: 'warning',
    test: (s) => /^alter\s+table\b/i.test(s) && /\brename\s+(column\s+)?\S+\s+to\b/i.test(s),
    message: 'renames break the application version that is still running; use expand and contract',
  },
  {
    id: 'drop',
    level: 'warning',
    test: (s) => /^drop\s+table\b/i.test(s) || /\bdrop\s+column\b/i.test(s),
    message: 'contract step: ship it only after no deployed code reads this object',
  },
]

/** Splits SQL into statements with their 1-based start line, skipping comments and quoted text. */
export function splitStatements(sql) {
  const statements = []
  let current = ''
  let startLine = 1
  let line = 1
  let i = 0
  const push = () => {
    const text = current.trim()
    if (text) statements.push({ text, line: startLine })
    current = ''
  }
  while (i < sql.length) {
    const ch = sql[i]
    if (!current.trim()) startLine = line
    if (ch === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++
      continue
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      const stop = end === -1 ? sql.length : end + 2
      line += countNewlines(sql, i, stop)
      current += ' '
      i = stop
      continue
    }
    const quoteEnd = quotedEnd(sql, i)
    if (quoteEnd > i) {
      line += countNewlines(sql, i, quoteEnd)
      current += sql.slice(i, quoteEnd)
      i = quoteEnd
      continue
    }
    if (ch === ';') push()
    else current += ch
    if (ch === '\n') line++
    i++
  }
  push()
  return statements
}

/** End offset of a '...' string or a $tag$...$tag$ body starting at i, or i when none starts there. */
function quotedEnd(sql, i) {
  if (sql[i] === "'") {
    let j = i + 1
    while (j < sql.length) {
      if (sql[j] === "'" && sql[j + 1] === "'") j += 2
      else if (sql[j] === "'") return j + 1
      else j++
    }
    return sql.length
  }
  if (sql[i] === '$') {
    const tag = sql.slice(i).match(/^\$[A-Za-z_]*\$/)
    if (!tag) return i
    const end = sql.indexOf(tag[0], i + tag[0].length)
    return end === -1 ? sql.length : end + tag[0].length
  }
  return i
}

function countNewlines(text, from, to) {
  let n = 0
  for (let k = from; k < to; k++) if (text[k] === '\n') n++
  return n
}

export function lintSql(sql) {
  const findings = []
  const statements = splitStatements(sql)
  let inTransaction = false
  for (const { text, line } of statements) {
    const flat = text.replace(/\s+/g, ' ')
    if (/^(begin|start\s+transaction)\b/i.test(flat)) inTransaction = true
    if (/^(commit|rollback|end)\b/i.test(flat)) inTransaction = false
    if (inTransaction && /\bconcurrently\b/i.test(flat)) {
      findings.push({ line, level: 'error', id: 'concurrently-in-transaction', message: 'CONCURRENTLY cannot run inside a transaction block' })
    }
    for (const rule of RULES) {
      if (rule.test(flat)) findings.push({ line, level: rule.level, id: rule.id, message: rule.message })
    }
  }
  const changesSchema = statements.some(({ text }) => /^(alter|create|drop)\b/i.test(text))
  if (changesSchema && !statements.some(({ text }) => /^set\s+(local\s+)?lock_timeout\b/i.test(text))) {
    findings.push({ line: 1, level: 'warning', id: 'missing-lock-timeout', message: "start with SET lock_timeout = '5s' so a blocked DDL fails instead of queueing every query" })
  }
  return findings.sort((a, b) => a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** Only .sql files inside the current directory are read (CWE-22). */
function resolveInside(root, arg) {
  const absolute = path.resolve(root, arg)
  const relative = path.relative(root, absolute)
  if (relative.startsWith('..') || path.isAbsolute(relative) || !absolute.endsWith('.sql')) return null
  return absolute
}

function main(args) {
  if (args.length === 0) {
    process.stderr.write('usage: lint-migration.mjs <file.sql>...\n')
    return 2
  }
  const root = process.cwd()
  let errors = 0
  for (const arg of args) {
    const file = resolveInside(root, arg)
    if (!file) {
      process.stderr.write(`${arg}: skipped, not a .sql file inside ${root}\n`)
      errors++
      continue
    }
    if (statSync(file).size > MAX_BYTES) {
      process.stderr.write(`${arg}: skipped, larger than ${MAX_BYTES} bytes\n`)
      errors++
      continue
    }
    for (const f of lintSql(readFileSync(file, 'utf8'))) {
      process.stdout.write(`${arg}:${f.line}: ${f.level} ${f.id}: ${f.message}\n`)
      if (f.level === 'error') errors++
    }
  }
  return errors > 0 ? 1 : 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2))
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exitCode = 1
  }
}
