import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { danglingLinkTarget, FileReadError, readTextFile } from '../util/read-text-file.js';
import type { Skill, SkillProblem } from './skill.js';
import { parseSkill } from './skill-parse.js';
import type { Place } from './skill-places.js';

// A skill's instructions are a page or two; a bigger SKILL.md is a mistake.
const MAX_SKILL_BYTES = 512 * 1024;

export interface SkillCatalog {
  /** The winner of each name, sorted by name. */
  skills: Skill[];
  /** Skills a later place replaced, by the winner's name. */
  replaced: ReadonlyMap<string, Skill[]>;
  problems: SkillProblem[];
}

/** Every skill in the places, lowest first; a bad one is reported with its path and reason and skipped. */
export async function discoverSkills(places: readonly Place[]): Promise<SkillCatalog> {
  const byName = new Map<string, Skill>();
  const replaced = new Map<string, Skill[]>();
  const problems: SkillProblem[] = [];
  for (const place of places) {
    for (const result of await skillsIn(place)) {
      if ('problem' in result) {
        problems.push(result.problem);
        continue;
      }
      const earlier = byName.get(result.skill.name);
      if (earlier) replaced.set(result.skill.name, [...(replaced.get(result.skill.name) ?? []), earlier]);
      byName.set(result.skill.name, result.skill);
    }
  }
  const skills = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { skills, replaced, problems };
}

async function skillsIn(place: Place): Promise<({ skill: Skill } | { problem: SkillProblem })[]> {
  // A plugin's manifest may name one skill's folder (the one holding SKILL.md) instead of a folder of them.
  if (place.source === 'plugin' && (await isFile(path.join(place.dir, 'SKILL.md')))) return [await skillAt(place, place.dir, path.basename(place.dir))];
  let entries: string[];
  try {
    entries = (await fs.readdir(place.dir)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No folder is the common case; one that cannot be listed hides every skill in it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    return [{ problem: { file: place.dir, message: `cannot list the folder: ${code ?? errorMessage(error)}` } }];
  }
  const out: ({ skill: Skill } | { problem: SkillProblem })[] = [];
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(place.dir, entry);
    let isDir: boolean;
    try {
      isDir = (await fs.stat(dir)).isDirectory();
    } catch (error) {
      out.push({ problem: { file: dir, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}` } });
      continue;
    }
    if (!isDir) continue; // a README or licence beside the skill folders
    out.push(await skillAt(place, dir, entry));
  }
  return out;
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then((s) => s.isFile(), () => false);
}

/** The skill in one folder (its SKILL.md), named from the folder `entry` when its frontmatter gives no name. */
async function skillAt(place: Place, dir: string, entry: string): Promise<{ skill: Skill } | { problem: SkillProblem }> {
  let real: string;
  try {
    // Grants name the folder as the permission chain sees it: through any symbolic link.
    real = await fs.realpath(dir);
  } catch (error) {
    return { problem: { file: dir, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}` } };
  }
  const text = await readSkillFile(path.join(dir, 'SKILL.md'));
  const file = path.join(real, 'SKILL.md');
  if (typeof text === 'object') return { problem: text };
  const parsed = parseSkill(file, place.source, text, entry);
  if ('problem' in parsed) return { problem: { file: path.join(dir, 'SKILL.md'), message: parsed.problem } };
  return place.namespace ? { skill: { ...parsed.skill, name: `${place.namespace}:${parsed.skill.name}`, aliases: (parsed.skill.aliases ?? []).map((a) => `${place.namespace}:${a}`) } } : parsed;
}

async function readSkillFile(file: string): Promise<string | SkillProblem> {
  try {
    const text = await readTextFile(file, { maxBytes: MAX_SKILL_BYTES });
    if (text !== undefined) return text;
    const target = await danglingLinkTarget(file);
    return { file, message: target === undefined ? 'missing: a skill folder needs a SKILL.md' : `is a symbolic link to ${target}, which does not exist` };
  } catch (error) {
    if (error instanceof FileReadError) return { file, message: error.problem };
    return { file, message: errorMessage(error) };
  }
}
