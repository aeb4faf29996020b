import path from 'node:path';
import { parseRule, splitRuleList } from '../permissions/rule-parse.js';
import { errorMessage } from '../util/error-message.js';
import { parseFrontmatter } from '../util/frontmatter.js';
import type { Skill, SkillSource } from './skill.js';

export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 1024;
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `allowed-tools` as Claude Code writes it: a comma or space separated string, or a YAML list; each a valid rule. */
export function parseToolList(value: unknown): { rules: string[] } | { problem: string } {
  if (value === undefined || value === null) return { rules: [] };
  let rules: string[];
  if (Array.isArray(value)) {
    if (!value.every((v) => typeof v === 'string')) return { problem: 'allowed-tools: must be a list of rule strings' };
    rules = value.map((v) => v.trim()).filter(Boolean);
  } else if (typeof value === 'string') rules = splitRuleList(value);
  else return { problem: 'allowed-tools: must be a string or a list of rule strings' };
  for (const rule of rules) {
    try {
      parseRule(rule);
    } catch (error) {
      return { problem: `allowed-tools: ${errorMessage(error)}` };
    }
  }
  return { rules };
}

function optionalString(data: Record<string, unknown>, key: string): string | undefined | { problem: string } {
  const v = data[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return { problem: `${key}: must be a string` };
}

/**
 * A SKILL.md's text into a skill, or the one reason it cannot be one. `folder` is the name of the
 * folder holding it, which `name` must equal (the command is `/<folder>`).
 */
export function parseSkill(file: string, source: SkillSource, text: string, folder = path.basename(path.dirname(file))): { skill: Skill } | { problem: string } {
  const fm = parseFrontmatter(text);
  if ('problem' in fm) return fm;
  if (!fm.data) return { problem: 'no YAML frontmatter (a --- block with name and description)' };
  const data = fm.data;
  const name = data['name'];
  if (name === undefined || name === null || name === '') return { problem: 'name: missing' };
  if (typeof name !== 'string') return { problem: 'name: must be a string' };
  if (name.length > MAX_NAME_CHARS) return { problem: `name: ${name.length} characters, more than ${MAX_NAME_CHARS}` };
  if (!NAME.test(name)) return { problem: `name: "${name}" must be lowercase letters, digits and single hyphens` };
  if (name !== folder) return { problem: `name: "${name}" differs from its folder "${folder}"` };
  const description = data['description'];
  if (description === undefined || description === null || (typeof description === 'string' && description.trim() === '')) {
    return { problem: 'description: missing' };
  }
  if (typeof description !== 'string') return { problem: 'description: must be a string' };
  if (description.length > MAX_DESCRIPTION_CHARS) return { problem: `description: ${description.length} characters, more than ${MAX_DESCRIPTION_CHARS}` };
  const tools = parseToolList(data['allowed-tools']);
  if ('problem' in tools) return tools;
  const disable = data['disable-model-invocation'];
  if (disable !== undefined && disable !== null && typeof disable !== 'boolean') return { problem: 'disable-model-invocation: must be true or false' };
  const hint = optionalString(data, 'argument-hint');
  if (typeof hint === 'object') return hint;
  const license = optionalString(data, 'license');
  if (typeof license === 'object') return license;
  const metadata = data['metadata'];
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) return { problem: 'metadata: must be a mapping' };
  const aliases = parseAliases((metadata as Record<string, unknown> | null | undefined)?.['aliases'], name);
  if ('problem' in aliases) return aliases;
  return {
    skill: {
      name,
      description: description.trim(),
      dir: path.dirname(file),
      file,
      body: fm.body.trim(),
      source,
      allowedTools: tools.rules,
      disableModelInvocation: disable === true,
      ...(hint !== undefined ? { argumentHint: hint } : {}),
      ...(license !== undefined ? { license } : {}),
      ...(aliases.names.length > 0 ? { aliases: aliases.names } : {}),
    },
  };
}

/** `metadata.aliases`: other names the skill answers to, a comma-separated string or a list, each a valid name. */
function parseAliases(value: unknown, name: string): { names: string[] } | { problem: string } {
  if (value === undefined || value === null) return { names: [] };
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (!list || !list.every((v) => typeof v === 'string')) return { problem: 'metadata.aliases: must be a comma-separated string or a list of names' };
  const names = list.map((v: string) => v.trim()).filter((v) => v !== '' && v !== name);
  const bad = names.find((n) => n.length > MAX_NAME_CHARS || !NAME.test(n));
  if (bad !== undefined) return { problem: `metadata.aliases: "${bad}" must be lowercase letters, digits and single hyphens` };
  return { names };
}
