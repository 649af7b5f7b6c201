import type { RuleModule } from '../types'

/** Filesystem writes. Shell redirections are too common to report; JS and Python calls are. */
export const fsWrite: RuleModule = {
  meta: {
    id: 'fs_write',
    kind: 'capability',
    capability: 'fs:write',
    severity: 'error',
    cwe: 'CWE-73',
    description: 'Filesystem writes (writeFile, mkdir, unlink, rm, open(..., "w"), shutil) change the user\'s machine.',
    hint: 'Declare `capabilities: [fs:write]` (or `allowed-tools: Write`) and write only inside the working directory.',
  },
  patterns: [
    {
      anchor: 'open',
      re: /(?<![.\w])open\s*\([^)\n]*,\s*(?:mode\s*=\s*)?[rbf]?['"][rbt]?[wax]/,
      langs: ['py'],
      view: 'noComments',
      message: 'opens a file for writing',
    },
    {
      anchor: 'os|shutil',
      re: new RegExp(
        [
          String.raw`\b(?:os\s*\.\s*(?:remove|unlink|rmdir|removedirs|makedirs|mkdir|rename|renames|replace|chmod`,
          String.raw`|chown|truncate|symlink|link)`,
          String.raw`|shutil\s*\.\s*(?:rmtree|move|copy2?|copyfile|copytree|make_archive|chown))\s*\(`,
        ].join(''),
      ),
      langs: ['py'],
      view: 'code',
      message: 'filesystem write',
    },
    {
      anchor: 'write_text|write_bytes|unlink|rmdir|touch|mkdir',
      re: /\.\s*(?:write_text|write_bytes|unlink|rmdir|touch|mkdir)\s*\(/,
      langs: ['py'],
      view: 'code',
      message: 'pathlib filesystem write',
    },
    {
      anchor: 'write|append|mkdir|unlink|rm|rename|copyFile|chmod|truncate|symlink',
      re: new RegExp(
        [
          String.raw`\b(?:writeFile|writeFileSync|appendFile|appendFileSync|mkdir|mkdirSync|unlink|unlinkSync|rmSync`,
          String.raw`|rmdir|rmdirSync|rename|renameSync|copyFile|copyFileSync|createWriteStream|chmod|chmodSync`,
          String.raw`|truncate|truncateSync|symlink|symlinkSync)\s*\(`,
        ].join(''),
      ),
      langs: ['js'],
      view: 'code',
      message: 'filesystem write',
      astCovered: true,
    },
  ],
}
