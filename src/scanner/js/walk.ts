/** The ESTree node shape oxc returns; typed loosely on purpose (hostile input, partial ASTs). */
export interface Node {
  type: string
  start: number
  end: number
  [key: string]: any
}

/** Nodes one rule check (one call site, one declaration) may evaluate: beyond, its value is unknown. */
export const MAX_SITE_EVALUATIONS = 100_000
/**
 * Evaluations and subtree steps one program may take in all. Beyond, the analysis gives up on the
 * file, which is then read with the token patterns (as after a syntax error): a budget that ran out
 * silently would let padding hide the calls after it. Nodes walked count too. The 37 MB of code in
 * node_modules takes at most 2.7M in a file (`bench/scanner-wild.ts`).
 */
export const MAX_WORK = 20_000_000
export const MAX_SUBTREE = 4000

/** Thrown when a program exceeds its work budget (`MAX_WORK`). */
export class AnalysisTooLarge extends Error {}

/**
 * What the analysis of one program has spent, shared by the constant folder and the walks:
 * `evaluations` is the current rule check's (reset per check), `work` the program's.
 */
export interface Budget {
  evaluations: number
  work: number
  maxWork: number
}

export function tooLarge(): never {
  throw new AnalysisTooLarge('too much to analyse')
}

/**
 * Pushes a node's child nodes onto `nodes`, in source order, and the node itself onto `parents` once
 * per child when given: the walks keep two flat stacks instead of an array per node and a pair per child.
 */
export function pushChildren(node: Node, nodes: Node[], parents?: Array<Node | null>): void {
  for (const key in node) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'range' || key === 'loc')
      continue
    const v = node[key]
    if (v === null || typeof v !== 'object')
      continue
    if (Array.isArray(v)) {
      for (const x of v) {
        if (x && typeof x.type === 'string') {
          nodes.push(x)
          parents?.push(node)
        }
      }
    }
    else if (typeof v.type === 'string') {
      nodes.push(v)
      parents?.push(node)
    }
  }
}
