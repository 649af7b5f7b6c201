/**
 * Placeholders in a URL, and whether they name data that must not leave: `{owner}` and `<status>` in an API
 * doc's path are parameters; `{{conversation}}` in a tracking pixel's query is the chat going out.
 */

export interface Placeholder {
  name: string
  /** In the query string or fragment (a value sent), not the path. */
  inQuery: boolean
}

const FORMS
  = new RegExp(
    String.raw`\{\{?([^{}\n]{1,60})\}\}?|\$\{([^}\n]{1,60})\}|\$\(([^)\n]{1,60})\)|%7B(?:%7B)?([\w.-]{1,40})%7D`
    + String.raw`|<([A-Z_a-z][\w .~/-]{1,40})>|\[([A-Z][A-Z_ ]{2,40})\]|\$([A-Z_a-z]\w*)`,
    'gi',
  )

export function urlPlaceholders(url: string): Placeholder[] {
  const q = url.search(/[?#]/)
  const out: Placeholder[] = []
  FORMS.lastIndex = 0
  for (let m = FORMS.exec(url); m; m = FORMS.exec(url)) {
    const name = m.slice(1).find(g => g !== undefined) ?? ''
    out.push({ name, inQuery: q !== -1 && m.index > q })
  }
  return out
}

// Words that name what an attacker wants out of the conversation or the machine.
const DATA = new Set(
  ('conversation conversations chat chats transcript history messages prompt prompts secret secrets credential '
    + 'credentials password passwords passwd apikey env environ environment memory memories summary cookie cookies '
    + 'ssh privatekey pii userdata context dotenv text content contents body excerpt').split(' '),
)
// A trailing word that makes the placeholder an identifier or a label: `{conversation_id}`, `{session_name}`.
const LABEL = new Set('id ids uuid name names type types count url slug number num index idx title label'.split(' '))

function words(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}

/** Whether a placeholder's name says it holds conversation data or a secret (not an id of one). */
export function isDataName(name: string): boolean {
  const w = words(name)
  if (!w.length || LABEL.has(w.at(-1)!))
    return false
  const joined = w.join('')
  if (/apikey|privatekey|userdata|sessiontoken|accesstoken/.test(joined))
    return true
  return w.some(x => DATA.has(x))
}
