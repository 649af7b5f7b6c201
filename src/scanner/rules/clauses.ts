/** The clause of a line before a match: since the last sentence or clause mark, at most 80 characters. */
export function clauseBefore(line: string, index: number): string {
  const before = line.slice(0, index)
  return before.slice(Math.max(before.search(/[^.;:!?]*$/), before.length - 80))
}

/**
 * A clause that describes what happens rather than ordering it: "users ... are silently denied access", "the system
 * can silently commit the user to ...". A be-verb or a modal right before the match reads as a state or a
 * capability; "you can ..." or "you will ..." still addresses the agent.
 */
export function describesAct(clause: string): boolean {
  return /\b(?:is|are|was|were|be|been|being|can|could|may|might|would)\s+(?:not\s+|also\s+)?$/i.test(clause)
    && !/\byou\s+(?:\w+\s+){1,2}$/i.test(clause)
}

/**
 * A table cell that names an order rather than giving one: "| instructions to hide actions from the user |" in a
 * table of what a review flags. Only in a table row: in prose, "follow these instructions to ..." is an order.
 */
export function namesOrderInTable(line: string, index: number): boolean {
  if (!/^\s*\|/.test(line))
    return false
  const cell = line.slice(line.lastIndexOf('|', index) + 1, index)
  return /\b(?:instructions?|attempts?|requests?|tries|prompts?|text|asking\s+(?:the\s+)?(?:agent|model))\s+to\s+$/i
    .test(cell)
}
