/**
 * Where skills are checked. The engine hands a scheduler the skills it found and a way to check one
 * here; a scheduler may check some elsewhere with the same code, and the results are the same either way.
 */
import type { ProcessedSkill } from '../check-skill'
import type { SkillLocation } from '../discover'

export interface Scheduled {
  /** One result per location, in the order given. */
  skills: ProcessedSkill[]
  /** How many were checked off this thread. */
  elsewhere: number
}

/**
 * Checks one skill on this thread (the engine's per-skill step, its cache included). A promise only when the
 * skill waits for something loaded once (the scanner, for the first skill that needs it).
 */
export type CheckHere = (location: SkillLocation) => ProcessedSkill | Promise<ProcessedSkill>

export interface Scheduler {
  /** Checks every location: `checkHere` on this thread, or elsewhere with the same code. */
  run: (locations: readonly SkillLocation[], checkHere: CheckHere) => Promise<Scheduled>
}

/** Every skill on this thread, one after the other: the default. */
export const inline: Scheduler = {
  async run(locations, checkHere) {
    const skills: ProcessedSkill[] = []
    for (const location of locations) {
      const skill = checkHere(location)
      skills.push(skill instanceof Promise ? await skill : skill)
    }
    return { skills, elsewhere: 0 }
  },
}
