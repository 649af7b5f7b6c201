/**
 * Where any name the constant folder reads can hide, whatever the rule: the global object (`globalThis[k]`), a
 * computed key built from strings (`x['ev' + 'al']`), a `constructor` chain (`[].constructor.constructor` is
 * Function), escape sequences (`'\x63hild_process'`). Every rule that folds names has these triggers.
 */
export const HIDDEN_NAME_TRIGGERS: readonly string[] = [
  String.raw`\b(?:globalThis|global|window|self)\b`,
  String.raw`\.\s*constructor\b`,
  String.raw`['"\`]constructor\b`,
  String.raw`\bconstructor['"\`]`,
  String.raw`\[\s*['"\`][^'"\`\n]{0,40}['"\`]\s*\+`,
  String.raw`(?:\\x[0-9A-Fa-f]{2}){4}`,
  String.raw`(?:\\u00[0-7][0-9A-Fa-f]){4}`,
]
