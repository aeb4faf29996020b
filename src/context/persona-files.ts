import path from 'node:path';
import { appendEntry } from './long-term-memory.js';

// Two files beside the instructions, each with a section of its own in the system prompt:
// SOUL.md, the agent's character, mission and limits (written by people, never by cairn), and
// USER.md, the user's preferences (compaction proposes additions to the user's own). Each is read
// from $CAIRN_HOME/ and from the project's .cairn/; a repository's .cairn/SOUL.md is its own text,
// loaded as its CLAUDE.md is.

export type PersonaKind = 'soul' | 'user';

const FILE_NAME: Record<PersonaKind, string> = { soul: 'SOUL.md', user: 'USER.md' };

/** The user's file, then the project's: the order they enter the prompt. */
export function personaPaths(kind: PersonaKind, at: { cairnHome: string; cwd: string }): [string, string] {
  return [path.join(at.cairnHome, FILE_NAME[kind]), path.join(at.cwd, '.cairn', FILE_NAME[kind])];
}

/** Which persona file a path is, by name; undefined for any other file. */
export function personaKindOf(file: string): PersonaKind | undefined {
  const name = path.basename(file);
  return name === FILE_NAME.soul ? 'soul' : name === FILE_NAME.user ? 'user' : undefined;
}

/** The heading a persona file's section starts with in the system prompt. */
export function personaHeading(kind: PersonaKind, file: string): string {
  return kind === 'soul'
    ? `# Persona from ${file} (SOUL.md: your character, mission and limits)`
    : `# About the user from ${file} (USER.md: their preferences)`;
}

const USER_HEADER = "# User\n\nThe user's preferences, in every project. cairn adds what compaction learns; edit freely.\n\n";

/** Adds one preference to the user's USER.md ($CAIRN_HOME/USER.md). */
export function saveUserPreference(cairnHome: string, text: string, now: Date): Promise<{ file: string; entry: string }> {
  return appendEntry(personaPaths('user', { cairnHome, cwd: cairnHome })[0], USER_HEADER, text, now);
}
