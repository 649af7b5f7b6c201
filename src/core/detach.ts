/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 keeps the whole parent
 * of a substring (a sliced string) alive: a frontmatter value or a link kept from a file would
 * otherwise keep the file's entire text alive with it.
 */
export function detach(text: string): string {
  // Substrings under 13 characters are copies already. A longer one: the concatenation is flattened
  // into a new string, and the slice of that copy drops the added character.
  return text.length < 13 ? text : ` ${text}`.slice(1)
}
