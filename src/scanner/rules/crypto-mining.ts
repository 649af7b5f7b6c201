import type { RuleModule } from '../types'

const CODE = ['sh', 'py', 'js', 'text'] as const
const ALL = [...CODE, 'prose'] as const

const MINERS = String.raw`xmrig(?:-proxy)?|xmr-stak(?:-rx)?|cpuminer(?:-multi|-opt)?|minerd|cgminer|bfgminer|ethminer`
  + String.raw`|nbminer|lolminer|phoenixminer|gminer|nanominer|srbminer(?:-multi)?|teamredminer|ccminer|t-rex`
  + String.raw`|nheqminer|xmrminer|wildrig(?:-multi)?|bzminer|onezerominer`

const MINER_ANCHOR = MINERS.replace(/\(\?:[^)]*\)\?/g, '')

/** Public mining pools (a pool host is where the hashes, and the victim's electricity, go). */
const POOL_WORDS = String.raw`supportxmr|minexmr|moneroocean|hashvault|c3pool|xmrpool|nanopool|2miners|f2pool`
  + String.raw`|herominers|unmineable|nicehash|ethermine|viabtc|antpool|slushpool|braiins|miningpoolhub|zpool`
  + String.raw`|prohashing|kryptex|woolypooly|flexpool|hiveon|p2pool|xmrfast|monerohash`
const POOLS = `(?:${POOL_WORDS})`

/** Mining with the machine's CPU or GPU: pools, miner binaries and their arguments, in-browser miners. */
export const cryptoMining: RuleModule = {
  meta: {
    id: 'crypto_mining',
    kind: 'threat',
    severity: 'error',
    cwe: 'CWE-400',
    description:
      'Crypto mining: stratum pool URLs, known pool hosts, miner binaries (xmrig, ...) and their pool and wallet '
      + 'arguments, in-browser miners: the skill spends the user\'s machine on someone else\'s coins.',
    hint: 'Remove the miner. A skill that documents miners for defenders should say so and show no pool or wallet.',
  },
  patterns: [
    {
      // The in-browser miner API (`new X.Anonymous('SITE_KEY', { throttle: 0.3 })`), whatever the library is called.
      // Anchored on the option names every match has: `User` and `Anonymous` are words of most prose.
      anchor: 'throttle|threads|autoThreads',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\bnew\s+[\w$.]+\.(?:Anonymous|User)\s*\(\s*["'][\w-]{8,}["'][^)\n]{0,80}?\b(?:throttle|threads|autoThreads)\s*:/,
      langs: ALL,
      message: 'starts an in-browser miner (site key, throttle and threads)',
    },
    {
      anchor: 'stratum',
      // A pool's stratum URL, or a WebSocket proxy to one (`wss://host:8181/stratum`, how browser miners reach a pool).
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /\bstratum\d?\+(?:tcp|ssl|tls|wss?):\/\/(?:[\w-]+\.)+[\w-]+(?::\d+)?|\bwss?:\/\/(?:[\w-]+\.)+[\w-]+(?::\d+)?\/stratum\b/i,
      langs: ALL,
      message: 'connects to a mining pool (stratum URL)',
    },
    {
      // The stratum protocol's own methods, spoken by a miner written into the skill's code (firmware, a script).
      anchor: 'mining',
      re: /\bmining\.(?:subscribe|authorize|submit)\b/,
      // Prose names the methods to detect them ("alert on JSON-RPC `mining.subscribe`").
      langs: CODE,
      message: 'speaks the stratum mining protocol (mining.subscribe, authorize or submit)',
    },
    {
      anchor: POOL_WORDS,
      re: new RegExp(String.raw`\b(?:[\w-]+\.)*${POOLS}\.(?:com|org|net|pro|stream|io|eu|fr|ca|network|fi|us)\b`, 'i'),
      langs: ALL,
      message: 'names a public mining pool host',
    },
    {
      anchor: MINER_ANCHOR,
      re: new RegExp(String.raw`\b(?:${MINERS})\b`, 'i'),
      langs: CODE,
      view: 'noComments',
      message: 'runs or fetches a crypto miner',
      // A miner named in code is one the skill installs, starts or configures; in prose, see below.
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      lineGate: /\.\/|\b(?:curl|wget|tar|unzip|chmod|nohup|screen|tmux|systemctl|--config|exec|spawn|Popen|system|run|start|-o\s|--url|--pool|--user|--donate|--threads|--cpu|--background|-B\b|download|install|releases|\.tar\.gz|\.zip|"pools")/i,
    },
    {
      anchor: MINER_ANCHOR,
      re: new RegExp(String.raw`\b(?:${MINERS})\b`, 'i'),
      langs: ['prose'],
      message: 'tells the agent to run a crypto miner',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      lineGate: /\b(?:run|start|launch|download|install|execute|keep\s+running|in\s+the\s+background|wallet|pool|mine|mining)\b/i,
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      accept: (_m, line) => !/\b(?:detect\w*|alert\w*|block\w*|hunt\w*|indicators?|IOCs?|signatures?|yara|sigma|rules?\s+for|flag\w*|look\s+for)\b/i.test(line),
    },
    {
      anchor: 'donate-level|rx/0|randomx|cryptonight|kawpow|ethash|autolykos|--coin|"algo"|cpu-max-threads',
      re: new RegExp(
        [
          String.raw`--donate-level\b|"donate-level"\s*:|--cpu-max-threads-hint\b`,
          // eslint-disable-next-line style/max-len -- a pattern is clearer whole
          String.raw`|(?:-a|--algo(?:rithm)?)["']?(?:\s*,\s*|[=\s]+)["']?(?:rx\/0|randomx|cn\/\w+|cryptonight\w*|kawpow|ethash|etchash|autolykos2?|ghostrider)\b`,
          String.raw`|"algo"\s*:\s*"(?:rx\/0|cn\/\w+|randomx|kawpow|ghostrider)"`,
          String.raw`|--coin["']?(?:\s*,\s*|[=\s]+)["']?(?:monero|xmr|rvn|etc|zeph|ravencoin)\b`,
        ].join(''),
        'i',
      ),
      langs: CODE,
      view: 'noComments',
      message: 'passes mining pool or algorithm arguments',
      // A detection rule's operand (`proc.cmdline contains "--donate-level"`) names the argument to catch.
      accept: (m, line) =>
        !/\b(?:i?contains|startswith|endswith|pmatch|glob)\s*\(?\s*["']?$/i.test(line.slice(0, m.index)),
    },
    // Loaded, not named: a detection rule or a blocklist names the miner's script too.
    {
      anchor: 'coinhive|coin-hive|CoinImp|crypto-loot|cryptoloot|webminer|webminepool|deepMiner|jsecoin|minero.cc'
        + '|cryptonight',
      // eslint-disable-next-line style/max-len -- a pattern is clearer whole
      re: /(?:<script\b[^>\n]*|\bimport(?:Scripts)?\b[^\n]*|\brequire\s*\(\s*|\bsrc\s*=\s*["']?[^\s"']*|\bnew\s+)\b(?:coinhive|coin-hive|CoinImp|crypto-?loot|webmine(?:r|pool|rpool)|deepMiner|jsecoin|minero\.cc|cryptonight(?:-wasm|\.js))\b/i,
      langs: ALL,
      message: 'loads an in-browser crypto miner',
    },
    {
      // A Monero address (a primary `4...` or a subaddress `8...`) alongside a miner's arguments: where the payout
      // goes.
      anchor: String.raw`-u\s+["']?[48]|--user|"user"|wallet`,
      re: /(?:-u|--user|"user"\s*:|wallet["']?\s*[=:])\s*["']?[48][0-9AB][1-9A-HJ-NP-Za-km-z]{93}\b/,
      langs: ALL,
      message: 'pays mining rewards to a Monero wallet',
    },
  ],
}
