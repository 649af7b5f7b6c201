import type { SkillSource } from '../../core/types'
import type { RawFinding } from '../types'
import type { ChunkFinding } from './code-blocks'
import { codeChunks, toRaw } from './code-blocks'
import { hostsOf, LOCAL_HOST } from './own-host'

/**
 * A page script that sends what the page holds of its user: every cookie (`document.cookie` read whole), or web
 * storage copied whole (`{ ...localStorage }`, `JSON.stringify(sessionStorage)`), where tokens live. A page sends
 * its cookies to its own origin unasked; a script that reads them to send them goes elsewhere. One value read by
 * name (`localStorage.getItem('theme')`) is an app's own business.
 */
const PAGE_DATA = new RegExp(
  String.raw`\bdocument\.cookie\b(?!\s*=[^=])|\.\.\.\s*(?:window\.)?(?:localStorage|sessionStorage)\b`
  + String.raw`|\b(?:JSON\.stringify|Object\.(?:entries|keys|values|assign))\s*\(\s*(?:\{\s*\.\.\.\s*)?`
  + String.raw`(?:\{\s*\}\s*,\s*)?(?:window\.)?(?:localStorage|sessionStorage)\b`,
)
// A request the page makes: an image or script URL, a beacon, fetch, XHR, a WebSocket.
const PAGE_SEND
  = /\bnew\s+Image\b|\.src\s*=|\bsendBeacon\s*\(|\bfetch\s*\(|\.open\s*\(\s*["'](?:GET|POST)|\bnew\s+WebSocket\s*\(/
const URL = /\b(?:https?|wss?):\/\//

export function browserExfiltration(skill: SkillSource): RawFinding[] {
  const found: ChunkFinding[] = []
  for (const chunk of codeChunks(skill)) {
    if ((chunk.lang !== 'js' && chunk.lang !== 'text') || !PAGE_DATA.test(chunk.text) || !PAGE_SEND.test(chunk.text))
      continue
    const line = chunk.lines.findIndex(l => PAGE_SEND.test(l) && URL.test(l)
      && hostsOf(l).some(h => !LOCAL_HOST.test(h)))
    if (line === -1)
      continue
    const text = chunk.lines[line]!
    found.push({
      chunk,
      line,
      column: text.length - text.trimStart().length,
      message: 'sends the page\'s cookies or web storage to a remote host',
      excerpt: text,
      severity: 'error',
    })
  }
  return toRaw('exfiltration', found)
}
