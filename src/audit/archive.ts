import type { ArchiveMember } from '../core/types'
import { Buffer, isUtf8 } from 'node:buffer'
import zlib from 'node:zlib'

/**
 * The text files inside an archive a skill ships (tar, gzip'd tar, a single gzip'd file, zip), so that the scanner
 * reads what extracting it would put on disk. Read from the bytes already in memory, never extracted: nothing is
 * written, a member's name is only a label. Bounded against bombs: decompression stops at `MAX_TOTAL` bytes,
 * and at most `MAX_MEMBERS` members of at most `MAX_MEMBER` bytes each are kept. Binary members, encrypted and
 * ZIP64 entries, and other formats (bzip2, xz, 7z, rar) stay unread: the archive is still reported as opaque.
 */

const MAX_TOTAL = 16 * 1024 * 1024
const MAX_MEMBER = 1024 * 1024
const MAX_MEMBERS = 500

function isTar(b: Uint8Array): boolean {
  return b.length >= 512 && Buffer.from(b.buffer, b.byteOffset + 257, 5).toString() === 'ustar'
}

/** The text members of an archive's bytes, in archive order; `[]` when none can be read. */
export function archiveMembers(bytes: Uint8Array, name: string): ArchiveMember[] {
  try {
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (b[0] === 0x1F && b[1] === 0x8B) {
      const raw = zlib.gunzipSync(b, { maxOutputLength: MAX_TOTAL })
      if (isTar(raw))
        return tarMembers(raw)
      const member = textMember(name.replace(/^.*\//, '').replace(/\.t?gz$/i, ''), raw)
      return member ? [member] : []
    }
    if (isTar(b))
      return tarMembers(b)
    if (b[0] === 0x50 && b[1] === 0x4B)
      return zipMembers(b)
  }
  catch {
    // Truncated, corrupt or over the bound: what cannot be read stays opaque.
  }
  return []
}

/** A member's name as a posix path: no leading `./` or `/`, no control characters. */
function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  return name.replace(/\\/g, '/').replace(/^(?:\.\/|\/)+/, '').replace(/[\u0000-\u001F\u007F]/g, '?')
}

function textMember(name: string, data: Uint8Array): ArchiveMember | null {
  const path = cleanName(name)
  if (!path || path.endsWith('/') || /(?:^|\/)__MACOSX\/|(?:^|\/)\._/.test(path) || data.length > MAX_MEMBER)
    return null
  if (data.includes(0) || !isUtf8(data))
    return null
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8').replace(/^\uFEFF/, '')
  return { path, text }
}

function cstring(b: Buffer, from: number, len: number): string {
  const end = b.indexOf(0, from)
  return b.toString('utf8', from, end === -1 || end > from + len ? from + len : end)
}

function tarMembers(b: Buffer): ArchiveMember[] {
  const out: ArchiveMember[] = []
  let longName: string | null = null
  for (let at = 0; at + 512 <= b.length && out.length < MAX_MEMBERS;) {
    if (b[at] === 0)
      break
    const size = Number.parseInt(cstring(b, at + 124, 12).trim() || '0', 8)
    if (!Number.isFinite(size) || size < 0 || at + 512 + size > b.length)
      break
    const type = String.fromCharCode(b[at + 156]!)
    const data = b.subarray(at + 512, at + 512 + size)
    const prefix = cstring(b, at + 345, 155)
    const name = longName ?? (prefix ? `${prefix}/${cstring(b, at, 100)}` : cstring(b, at, 100))
    longName = null
    if (type === 'L') {
      longName = cstring(data, 0, data.length)
    }
    else if (type === 'x') {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1]
      if (path)
        longName = path
    }
    else if (type === '0' || type === '\0' || type === '7') {
      const member = textMember(name, data)
      if (member)
        out.push(member)
    }
    at += 512 + Math.ceil(size / 512) * 512
  }
  return out
}

function zipMembers(b: Buffer): ArchiveMember[] {
  // The end-of-central-directory record: within the last 64 KiB (its comment's most) plus its own 22 bytes.
  let eocd = -1
  for (let i = b.length - 22; i >= Math.max(0, b.length - 65557); i--) {
    if (b.readUInt32LE(i) === 0x06054B50) {
      eocd = i
      break
    }
  }
  if (eocd === -1)
    return []
  const entries = b.readUInt16LE(eocd + 10)
  let at = b.readUInt32LE(eocd + 16)
  const out: ArchiveMember[] = []
  let total = 0
  for (let n = 0; n < entries && out.length < MAX_MEMBERS && at + 46 <= b.length; n++) {
    if (b.readUInt32LE(at) !== 0x02014B50)
      break
    const flags = b.readUInt16LE(at + 8)
    const method = b.readUInt16LE(at + 10)
    const compressed = b.readUInt32LE(at + 20)
    const size = b.readUInt32LE(at + 24)
    const nameLen = b.readUInt16LE(at + 28)
    const next = at + 46 + nameLen + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32)
    const name = b.toString('utf8', at + 46, at + 46 + nameLen)
    const local = b.readUInt32LE(at + 42)
    at = next
    // Encrypted, ZIP64, too large, or a method other than stored and deflate: left unread.
    if (flags & 1 || compressed === 0xFFFFFFFF || size > MAX_MEMBER || (method !== 0 && method !== 8))
      continue
    if (local + 30 > b.length || b.readUInt32LE(local) !== 0x04034B50)
      continue
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28)
    if (start + compressed > b.length)
      continue
    const stored = b.subarray(start, start + compressed)
    let data: Buffer
    try {
      data = method === 0 ? stored : zlib.inflateRawSync(stored, { maxOutputLength: MAX_MEMBER })
    }
    catch {
      // Corrupt, or larger than its entry said: this member stays unread, the others are still read.
      continue
    }
    total += data.length
    if (total > MAX_TOTAL)
      break
    const member = textMember(name, data)
    if (member)
      out.push(member)
  }
  return out
}
