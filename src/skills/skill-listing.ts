import { estimateTokens } from '../context/tokens.js';
import type { Skill } from './skill.js';

/** The share of the model's context window the skill list may take before descriptions are left out. */
export const LISTING_SHARE = 0.01;

export interface SkillListing {
  /** The system prompt's skills section; empty when no skill is offered to the model. */
  text: string;
  tokens: number;
  budget: number;
  /** Skills listed by name only, past the budget. */
  namesOnly: number;
}

const HEAD = [
  '# Skills',
  'Skills are instructions for particular jobs, with files (scripts, references, templates) beside them.',
  "When a task matches a skill, call load_skill with its name first; it returns the skill's instructions and its files' paths (read those with read_file when the instructions call for them).",
].join('\n');

/**
 * The skills the model may load, in the system prompt: name and description while the list fits in
 * about 1% of the context window (in estimated tokens), names alone past it.
 */
export function skillListing(skills: readonly Skill[], contextWindow: number): SkillListing {
  const offered = skills.filter((s) => !s.disableModelInvocation);
  const budget = Math.floor(contextWindow * LISTING_SHARE);
  if (offered.length === 0) return { text: '', tokens: 0, budget, namesOnly: 0 };
  const full: string[] = [];
  let used = estimateTokens(HEAD);
  let cut = offered.length;
  for (const [i, skill] of offered.entries()) {
    const line = `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')}`;
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) {
      cut = i;
      break;
    }
    full.push(line);
    used += cost;
  }
  const rest = offered.slice(cut).map((s) => s.name);
  const tail = rest.length > 0 ? [`More skills (names only; load_skill gives the details): ${rest.join(', ')}`] : [];
  const text = [HEAD, ...full, ...tail].join('\n');
  return { text, tokens: estimateTokens(text), budget, namesOnly: rest.length };
}
