/**
 * The per-skill digest recipe, shared by the build (node:crypto) and the runtime (@noble/hashes).
 * One line per file, sorted bytewise by posix path, each `<sha256 hex><two spaces><path>\n`:
 * exactly what `sha256sum` prints, so the digest is reproducible with standard tools:
 *   (cd skill && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum) | sha256sum
 * Paths can't hold newlines or backslashes (rejected at read time), so the text is unambiguous.
 * The runtime bundles this module for browsers: it imports nothing (test/architecture.test.ts).
 */
export function digestInput(files: ReadonlyArray<{ path: string, sha256: string }>): string {
  let text = ''
  for (const file of files) text += `${file.sha256}  ${file.path}\n`
  return text
}
