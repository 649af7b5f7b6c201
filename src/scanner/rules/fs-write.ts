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
    {
      anchor: 'File|FileUtils|IO',
      re: new RegExp(
        [
          String.raw`\b(?:File|IO)\s*\.\s*(?:write|binwrite|delete|unlink|rename|chmod|symlink)\s*[( ]`,
          String.raw`|\bFile\s*\.\s*open\s*\([^)\n]*,\s*['"][wa]`,
          String.raw`|\bFileUtils\s*\.\s*(?:rm\w*|mkdir\w*|mv|cp\w*|touch|ln\w*|chmod\w*|remove\w*|install)\b`,
        ].join(''),
      ),
      langs: ['rb'],
      view: 'code',
      message: 'filesystem write',
    },
    {
      anchor: 'os|ioutil',
      re: new RegExp(
        [
          String.raw`\b(?:os\s*\.\s*(?:WriteFile|Create|Remove|RemoveAll|Mkdir|MkdirAll|Rename|Chmod|Symlink|Truncate)`,
          String.raw`|ioutil\s*\.\s*WriteFile)\s*\(|\bos\s*\.\s*OpenFile\s*\([^)\n]*O_(?:WRONLY|RDWR|CREATE|APPEND)`,
        ].join(''),
      ),
      langs: ['go'],
      view: 'code',
      message: 'filesystem write',
    },
  ],
}
