import type { Value } from './values'
import type { Budget, Node } from './walk'

/**
 * What a rule's AST visitors get about the program being analysed (one context per program and rule), the way an
 * ESLint rule gets its `context`.
 */
export interface AstContext {
  /** A finding of this rule at a node (its offsets into the parsed text). */
  report: (node: Node, message: string) => void
  /**
   * The constant folder's value of a node (a module, a global, a member of either, a string...), null when unknown.
   * The visited node's and its callee's are folded once per visit, whichever rule asks first: most rules read them.
   */
  evaluate: (node: Node | null | undefined) => Value | null
  /**
   * Whether a node under `root` (`root` included) passes `test`; false past `MAX_SUBTREE` nodes. Spends the
   * program's work budget.
   */
  subtreeHas: (root: Node, test: (node: Node, parent: Node | null) => boolean) => boolean
  /** The whole program, for a rule's own walks (which spend `budget.work` and call `tooLarge` past it). */
  program: Node
  /**
   * What the analysis has spent: `evaluations` is reset before each visited node (a rule that checks several
   * things of its own at one node may reset it per check), `work` is the program's.
   */
  budget: Budget
}

/** Called for each node of its type, in source order, with the node's parent (null for the program). */
export type AstVisitor = (node: Node, parent: Node | null) => void

/** Visitors by ESTree node type (`CallExpression`, `ImportDeclaration`...). */
export type AstVisitors = Partial<Record<string, AstVisitor>>

/** A rule's AST part: what makes a text worth parsing for it, and its visitors. */
export interface AstRule {
  /**
   * Regex alternatives (each a regex source), the tokens without which this rule's visitors cannot fire: a JS text
   * with none of any rule's triggers is not parsed. Alternatives that several rules share are the same string.
   */
  triggers: readonly string[]
  /** Called once per program: the visitors, and whatever state the rule keeps about that program. */
  create: (context: AstContext) => AstVisitors
}

/** An AST rule as the engine runs it: the id its findings carry. */
export interface AstRuleUse {
  id: string
  ast: AstRule
}
