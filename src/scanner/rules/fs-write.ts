import type { AstRule } from '../js/ast-rule'
import type { Value } from '../js/values'
import type { Node } from '../js/walk'
import type { RuleModule } from '../types'
import { RUNTIME_TRIGGER } from '../js/callees'
import { HIDDEN_NAME_TRIGGERS } from '../js/hidden-names'
import { FS_MODULES, FS_WRITE_FNS } from '../js/values'

// Filesystem writes as the text names them (node:fs, fs-extra, Deno).
const FS_WRITES = (
  'writeFile writeFileSync appendFile appendFileSync mkdir mkdirSync unlink unlinkSync rm rmSync rmdir '
  + 'rmdirSync rename renameSync copyFile copyFileSync cp cpSync createWriteStream chmod chmodSync chown '
  + 'chownSync truncate truncateSync symlink symlinkSync outputFile outputFileSync writeJson '
  + 'writeJsonSync remove removeSync emptyDir move moveSync writeTextFile write'
).split(' ')

/** A callee that writes: an fs module's writing function, `Bun.write`, Deno's write, mkdir, remove, rename... */
function isFsWrite(v: Value | null): boolean {
  return !!v
    && v.k === 'mem'
    && ((FS_MODULES.has(v.of) && FS_WRITE_FNS.has(v.name))
      || (v.of === 'Bun' && v.name === 'write')
      || (v.of === 'Deno' && /^(?:write\w*|mkdir\w*|remove\w*|rename\w*|create\w*)$/.test(v.name)))
}

const ast: AstRule = {
  triggers: [String.raw`\b(?:${FS_WRITES.join('|')})\b`, RUNTIME_TRIGGER, ...HIDDEN_NAME_TRIGGERS],
  create: (context) => {
    const call = (node: Node): void => {
      const fn = context.evaluate(node.callee)
      if (isFsWrite(fn))
        context.report(node, `writes to the filesystem (${(fn as { name: string }).name})`)
    }
    return { CallExpression: call, NewExpression: call }
  },
}

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
  ast,
}
