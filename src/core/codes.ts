/**
 * What each diagnostic code means, for every code the engine emits outside the scanner's rules (a scanner rule
 * describes itself in its `RuleMeta`). SARIF rule descriptions read this table; `test/core/codes.test.ts` fails
 * when a code written in `src/` has no entry here, or an entry names a code nothing emits.
 */
export interface CodeInfo {
  /** One line: what was found. */
  short: string
  /** What it means and why it matters. */
  full: string
}

const c = (short: string, full: string): CodeInfo => ({ short, full })

/** The codes, by area. `schema/<keyword>` and `scenario/<field>` are listed by each keyword and field they take. */
export const CODES: Readonly<Record<string, CodeInfo>> = {
  // skills.config.*, the file the plugins and the CLI share.
  'config/ignored': c(
    'A second config file is ignored.',
    'Two skills.config.* files are in the project root: only the first in lookup order (ts, mts, cts, mjs, js, '
    + 'cjs, json) is read, so nothing the other sets takes effect.',
  ),

  // SKILL.md frontmatter, parsed as bounded YAML that never runs code.
  'frontmatter/missing': c(
    'SKILL.md has no frontmatter block.',
    'A skill starts with a `---` block of YAML fields (name, description, ...); without it the skill has no identity.',
  ),
  'frontmatter/unterminated': c(
    'The frontmatter block is never closed.',
    'The `---` block that opens SKILL.md has no closing `---` line, so its fields and body cannot be told apart.',
  ),
  'frontmatter/delimiter': c(
    'A line starting with `---` makes the frontmatter\'s end ambiguous.',
    'Inside the frontmatter, a line that starts with `---` could be read as its end: parsers disagree on the fields.',
  ),
  'frontmatter/executable': c(
    'The frontmatter is executable code.',
    'A `---js` (or similar) block would run code to read the fields; skills are hostile input, so it is never run.',
  ),
  'frontmatter/language': c(
    'The frontmatter language is not supported.',
    'Only YAML frontmatter (`---` or `---yaml`) is read.',
  ),
  'frontmatter/yaml': c(
    'The frontmatter is not valid YAML.',
    'The YAML of the frontmatter does not parse; the error is shown at its line and column.',
  ),
  'frontmatter/empty': c(
    'The frontmatter block is empty.',
    'The `---` block has no fields: a skill needs at least a name and a description.',
  ),
  'frontmatter/not-a-map': c(
    'The frontmatter is not a mapping of fields.',
    'The frontmatter must be `key: value` fields, not a list or a scalar.',
  ),
  'frontmatter/duplicate-key': c(
    'A frontmatter key appears twice.',
    'YAML readers disagree on which of two equal keys wins, so a duplicate can hide a value from review.',
  ),
  'frontmatter/too-large': c(
    'The frontmatter is larger than its bound.',
    'Frontmatter is bounded in size (64 KiB) so that a hostile skill cannot exhaust the build.',
  ),
  'frontmatter/too-deep': c(
    'The frontmatter nests too deeply.',
    'Frontmatter is bounded in nesting depth (32 levels) so that a hostile skill cannot exhaust the build.',
  ),
  'frontmatter/alias-limit': c(
    'YAML aliases expand the frontmatter beyond its bound.',
    'Aliases that expand to more than 10,000 values (a "billion laughs" document) are refused.',
  ),

  // The profile's JSON Schema, one code per failing keyword.
  'schema/required': c(
    'A required frontmatter field is missing.',
    'The profile requires this field (enterprise: name, description, version, domain, category).',
  ),
  'schema/type': c(
    'A frontmatter field has the wrong type.',
    'The field\'s value is not of the type the profile requires.',
  ),
  'schema/pattern': c(
    'A frontmatter field does not have the required form.',
    'The value does not match the form the profile requires (a skill name, a semantic version, a slug).',
  ),
  'schema/minLength': c('A frontmatter field is too short.', 'The value is shorter than the profile allows.'),
  'schema/maxLength': c('A frontmatter field is too long.', 'The value is longer than the profile allows.'),
  'schema/enum': c('A frontmatter field has a value that is not allowed.', 'The value is not one of those listed.'),
  'schema/anyOf': c(
    'A frontmatter field has none of the accepted shapes.',
    'The value matches none of the forms the profile accepts for this field.',
  ),
  'schema/uniqueItems': c('A frontmatter list has duplicate items.', 'Each item of this list must appear once.'),
  'schema/recommended': c(
    'A frontmatter field deviates from the agentskills.io recommendations.',
    'A recommendation of agentskills.io that real packs often deviate from: a warning, the build still passes.',
  ),
  'schema/custom': c(
    'The frontmatter fails the project\'s custom schema.',
    'The `schema` option adds a JSON Schema every frontmatter must satisfy; this one does not.',
  ),
  'schema/invalid-schema': c(
    'The custom schema cannot be used.',
    'The `schema` option points at a file that cannot be read, or at something that is not a valid JSON Schema.',
  ),

  // The skill folder's layout.
  'structure/references': c(
    'references/ has no non-empty .md file.',
    'The enterprise profile requires detailed guides in references/*.md, out of the SKILL.md body.',
  ),
  'structure/examples': c(
    'examples/ has no non-empty file.',
    'The enterprise profile requires at least one usage example under examples/.',
  ),
  'structure/body-too-long': c(
    'The SKILL.md body is longer than its budget.',
    'A long body costs every agent that loads the skill; `maxBodyLines` sets the budget (default 500).',
  ),

  // Files as they are on disk.
  'fs/bad-filename': c(
    'A file name has a control character or a backslash.',
    'Such names render differently per tool and could make two trees hash alike; they are rejected.',
  ),
  'fs/empty-file': c('A file is empty.', 'An empty file adds nothing a skill needs; usually a mistake.'),
  'fs/invalid-utf8': c(
    'A text file is not valid UTF-8.',
    'Text files are read as UTF-8; invalid bytes could hide content from review.',
  ),
  'fs/special-file': c(
    'A FIFO, socket or device is in the skill.',
    'Only regular files are read: a special file could block or feed the build endless data.',
  ),
  'fs/symlink-escape': c(
    'A symlink points outside the skill.',
    'Nothing outside a skill is read: the link\'s target is never opened.',
  ),
  'fs/symlink-directory': c(
    'A symlink points to a directory.',
    'Directory links are not followed, so a skill\'s tree is what its folder holds.',
  ),
  'fs/symlink-loop': c('A symlink is part of a loop.', 'The link resolves back to itself and is not read.'),
  'fs/symlink-dangling': c('A symlink points to nothing.', 'The link\'s target does not exist.'),
  'fs/too-deep': c(
    'Directories nest too deeply.',
    'A skill\'s directories are bounded in depth; deeper ones are not read.',
  ),
  'fs/too-many-files': c('The skill has too many files.', 'A skill is bounded in file count; the rest is not read.'),
  'fs/unreadable': c('A file could not be read.', 'The file exists but reading it failed (permissions, I/O).'),

  // Skills and roots.
  'skill/no-skill-md': c(
    'SKILL.md is not a readable regular file.',
    'A skill folder must hold SKILL.md as a regular file.',
  ),
  'skill/name-mismatch': c(
    'The skill\'s name differs from its folder.',
    'agentskills.io requires the name to match the folder, so a skill is found where its name says.',
  ),
  'skill/duplicate-name': c(
    'Two skills have the same name.',
    'Skill names must be unique across every root: a name is how agents and the lock address a skill.',
  ),
  'root/not-found': c(
    'A skills root does not exist.',
    'A configured root (a folder, or an installed package) is missing: its skills cannot be audited.',
  ),
  'root/invalid-uri': c(
    'A skills root is not a valid URI.',
    'The root is not a valid file:// or pkg:// URI, or leaves its package.',
  ),
  'root/no-resolver': c(
    'No resolver for a root\'s scheme.',
    'A root uses a scheme (such as github://) that no `resolvers` entry turns into a local folder.',
  ),
  'root/resolver-failed': c('A root\'s resolver failed.', 'The `resolvers` function for this root threw.'),
  'root/too-large': c(
    'A root has too many folders outside skills.',
    'Discovery is bounded (20,000 folders outside skills) so that a root pointed at a home folder stops early.',
  ),

  // .manifest.lock.
  'lock/drift': c(
    'A skill differs from its locked entry.',
    'A file, version, source or capability changed since the lock was reviewed; `unplugin-skills lock` accepts it.',
  ),
  'lock/missing': c(
    'The lock file is missing.',
    '`check` never creates it (a warning, an error in CI); `unplugin-skills lock` or a passing build does.',
  ),
  'lock/corrupt': c(
    'The lock file is unreadable or hand-broken.',
    'The lock is not valid JSON or not the expected shape; it is never overwritten (`lock --force` replaces it).',
  ),
  'lock/outdated': c(
    'The lock is lockfileVersion 1.',
    'A version 1 lock records no capabilities to review; `unplugin-skills lock` upgrades it.',
  ),
  'lock/created': c('The lock was created.', 'A build that passed, or `unplugin-skills lock`, wrote a new lock.'),
  'lock/updated': c(
    'The lock was updated.',
    'The lock was rewritten as the skills are now (`lock`, or `lock: update`).',
  ),
  'lock/not-written': c(
    'The lock was not written.',
    'Discovery had errors or duplicate skill names, so the lock could not describe the skills.',
  ),
  'lock/write-failed': c('The lock could not be written.', 'Writing the lock file failed (permissions, disk).'),

  // Enterprise quality checks.
  'quality/security-checkpoint': c(
    'Sensitive operations without a Security section.',
    'The skill uses sensitive capabilities but documents no security checkpoint or CWE references.',
  ),
  'quality/unknown-cwe': c(
    'A CWE id that does not exist.',
    'A `CWE-NNN` mentioned in the skill is not in the MITRE catalogue.',
  ),
  'quality/http-429': c(
    'Network use without HTTP 429 handling.',
    'The skill makes requests but shows no handling of rate limiting (HTTP 429, Retry-After).',
  ),
  'quality/internal-error': c(
    'A quality check failed on this skill.',
    'An enterprise check threw on this skill; the others still ran. Please report it.',
  ),
  'link/broken': c('A relative link points to nothing.', 'The link\'s target is not a file of the skill.'),
  'link/escape': c('A relative link leaves the skill.', 'The link\'s target is outside the skill\'s folder.'),
  'link/absolute': c('A link uses an absolute path.', 'Absolute paths break when the skill is installed elsewhere.'),
  'link/anchor': c('A link\'s anchor does not exist.', 'The target file has no heading with that anchor.'),
  'hitl/invalid-workload': c('`workload` is not `read` or `write`.', 'The workload field must be `read` or `write`.'),
  'hitl/read-with-writes': c(
    'A `workload: read` skill writes.',
    'The skill declares it only reads but its files write; write skills require approval.',
  ),
  'hitl/undeclared-workload': c(
    'A skill that writes declares no workload.',
    'The skill writes but declares no `workload`; declare `workload: write` so it requires approval.',
  ),

  // Scenarios (scenarios/*.md).
  'scenario/encoding': c('A scenario is not UTF-8 text.', 'Scenario files are read as UTF-8 markdown.'),
  'scenario/frontmatter': c(
    'A scenario has no frontmatter.',
    'A scenario starts with a `---` block: prompt, threshold.',
  ),
  'scenario/prompt': c('A scenario\'s prompt is missing or invalid.', 'The prompt is what the agent is asked.'),
  'scenario/threshold': c(
    'A scenario\'s threshold is missing or invalid.',
    'The threshold is the cosine similarity between 0 and 1 the answer must reach against the reference.',
  ),
  'scenario/executes': c('A scenario\'s `executes` is not a boolean.', '`executes: true` asserts the tool calls.'),
  'scenario/expected-skills': c(
    'A scenario\'s expected skills are invalid.',
    '`expected_skills` lists the skills the agent must call: unique skill names.',
  ),
  'scenario/metadata': c('A scenario\'s metadata is not a mapping.', 'Free-form labels go under `metadata`.'),
  'scenario/unknown-key': c('A scenario has an unknown field.', 'Unknown fields are kept under metadata.'),
  'scenario/unknown-skill': c(
    'A scenario expects a skill that is not in the build.',
    'An expected skill must be a skill of this build.',
  ),
  'scenario/reference': c(
    'A scenario has no reference outcome.',
    'The markdown body is the expected answer the response is scored against.',
  ),

  // Canonical castor:// URIs and URNs (enterprise, with `app`).
  'uri/empty': c('No canonical URI: a part is empty.', 'A part of the skill\'s URI is empty.'),
  'uri/too-long': c('No canonical URI: it is too long.', 'The URI exceeds its length bound.'),
  'uri/invalid-char': c('No canonical URI: an invalid character.', 'A part of the URI has a character URIs forbid.'),
  'uri/no-scheme': c('Not a URI: no scheme.', 'The text has no `scheme://`.'),
  'uri/unknown-scheme': c('Not a known URI scheme.', 'The scheme is none the runtime knows.'),
  'uri/segments': c('No canonical URI: wrong number of segments.', 'The URI does not have the segments it needs.'),
  'uri/domain': c('No canonical URI: invalid domain.', 'The `domain` field (or `app.domain`) is not a valid domain.'),
  'uri/category': c('No canonical URI: invalid category.', 'The `category` field is not a valid slug.'),
  'uri/name': c('No canonical URI: invalid name.', 'The skill name is not valid in a URI.'),
  'uri/version': c('No canonical URI: invalid version.', 'The `version` field is not a semantic version.'),
  'uri/app': c('No canonical URN: invalid app name.', 'The `app.name` option is not a valid slug.'),
  'uri/owner': c('Not a valid URI: invalid owner.', 'The repository owner is not valid.'),
  'uri/repo': c('Not a valid URI: invalid repository.', 'The repository name is not valid.'),
  'uri/ref': c('Not a valid URI: invalid ref.', 'The git ref is not valid.'),
  'uri/path': c('Not a valid URI: invalid path.', 'The path is not valid in a URI.'),
  'uri/encoding': c('Not a valid URI: bad percent-encoding.', 'A percent-escape of the URI is invalid.'),
  'uri/module': c('Not a valid URI: invalid module.', 'The module path is not valid.'),
  'uri/coordinates': c('Not a valid URI: invalid coordinates.', 'The package coordinates are not valid.'),
  'uri/package': c('Not a valid URI: invalid package.', 'The package name is not valid.'),
  'uri/host': c('Not a valid URI: invalid host.', 'The host is not valid.'),

  // The scanner itself (its rules describe themselves).
  'scan/custom-rule-invalid': c(
    'A custom scanner rule is invalid.',
    'A `scanner.custom` rule has a pattern that cannot be compiled; it was not run.',
  ),
  'scan/internal-error': c(
    'The scanner failed on a skill.',
    'The scanner threw on this skill, so its findings are unknown: an error, never a silent pass. Please report it.',
  ),
}

/** What a code means, or undefined for a code outside this table (a scanner rule's). */
export function codeInfo(code: string): CodeInfo | undefined {
  return Object.hasOwn(CODES, code) ? CODES[code] : undefined
}
