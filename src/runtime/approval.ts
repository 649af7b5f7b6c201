// Browser-safe: no Node APIs. The human-in-the-loop gate in front of write skills' instructions.

/** The fields of a manifest skill the gate looks at. */
export interface GatedSkill {
  name: string
  body: string
  requiresApproval?: boolean
  workload?: string
}

/** Asked before a write skill's instructions are handed out; only `true` approves. */
export type Approver = (skill: GatedSkill) => boolean | Promise<boolean>

export type ApprovalFailure = 'no-approver' | 'denied' | 'approver-failed'

export class ApprovalRequiredError extends Error {
  readonly code = 'SKILL_APPROVAL_REQUIRED'
  constructor(
    readonly skill: string,
    readonly reason: ApprovalFailure,
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'no-approver'
        ? `skill "${skill}" performs writes and requires human approval, but no approve callback was given`
        : reason === 'denied'
          ? `skill "${skill}" was not approved`
          : `skill "${skill}": the approve callback failed`,
      options,
    )
    this.name = 'ApprovalRequiredError'
  }
}

/** Fails closed: a `write` workload needs approval even if `requiresApproval` was stripped. */
export function needsApproval(skill: GatedSkill): boolean {
  return skill.requiresApproval === true || skill.workload === 'write'
}

/**
 * Returns the skill's instructions, asking `approve` first when the skill requires approval.
 * Throws `ApprovalRequiredError` when there is no approver, it does not resolve to `true`, or it throws.
 */
export async function getInstructions(skill: GatedSkill, options: { approve?: Approver } = {}): Promise<string> {
  if (!needsApproval(skill))
    return skill.body
  const approve = options?.approve
  if (typeof approve !== 'function')
    throw new ApprovalRequiredError(skill.name, 'no-approver')
  let verdict: unknown
  try {
    verdict = await approve(skill)
  }
  catch (error) {
    throw new ApprovalRequiredError(skill.name, 'approver-failed', { cause: error })
  }
  if (verdict !== true)
    throw new ApprovalRequiredError(skill.name, 'denied')
  return skill.body
}
