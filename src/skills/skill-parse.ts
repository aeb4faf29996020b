import path from 'node:path';
import { allowWildcardOk, parseRule, splitRuleList } from '../permissions/rules/parse.js';
import { errorMessage } from '../util/error-message.js';
import { parseLenientFrontmatter } from '../util/lenient-frontmatter.js';
import { argumentNames } from '../custom-commands/command-template.js';
import type { Skill, SkillSource } from './skill.js';

export const MAX_NAME_CHARS = 64;
export const MAX_DESCRIPTION_CHARS = 1024;
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * `allowed-tools` as Claude Code writes it: a comma or space separated string, or a YAML list. A rule
 * cairn cannot read, or a tool-name wildcard an allow rule may not hold (`*`), grants nothing and
 * is named in a warning; the others are kept.
 */
export function parseToolList(value: unknown): { rules: string[]; warnings: string[] } {
  if (value === undefined || value === null) return { rules: [], warnings: [] };
  let listed: string[];
  if (Array.isArray(value)) listed = value.flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v).trim()] : [])).filter(Boolean);
  else if (typeof value === 'string') listed = splitRuleList(value);
  else return { rules: [], warnings: ['allowed-tools: must be a string or a list of rule strings; it grants nothing'] };
  const rules: string[] = [];
  const warnings: string[] = [];
  if (Array.isArray(value) && listed.length < value.length) warnings.push('allowed-tools: entries that are not rule strings grant nothing');
  for (const rule of listed) {
    try {
      const parsed = parseRule(rule);
      if (allowWildcardOk(parsed.tool)) rules.push(rule);
      else warnings.push(`allowed-tools: ${JSON.stringify(rule)} grants nothing: a tool-name wildcard reaches only within one MCP server (mcp__server__*); name the tools`);
    } catch (error) {
      warnings.push(`allowed-tools: ${errorMessage(error)}; it grants nothing`);
    }
  }
  return { rules, warnings };
}

/** A string field: numbers and booleans as text; anything else is left out with a warning. */
export function stringField(data: Record<string, unknown>, key: string, warnings: string[]): string | undefined {
  const v = data[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  // `argument-hint: [file]` is YAML for a list; Claude Code shows it as written.
  if (key === 'argument-hint' && Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) return `[${v.join(', ')}]`;
  warnings.push(`${key}: must be a string; it is ignored`);
  return undefined;
}

/**
 * A SKILL.md's text into a skill, or the one reason it cannot be one. The command is `/<folder>`,
 * as in Claude Code, where `name` is for display: a different `name`, or a description longer than
 * the Agent Skills limit, loads with a warning.
 */
export function parseSkill(file: string, source: SkillSource, text: string, folder = path.basename(path.dirname(file))): { skill: Skill } | { problem: string } {
  const fm = parseLenientFrontmatter(text);
  if ('problem' in fm) return fm;
  if (!fm.data) return { problem: 'no YAML frontmatter (a --- block with name and description)' };
  const data = fm.data;
  const warnings = [...fm.warnings];
  if (folder.length > MAX_NAME_CHARS) return { problem: `name: ${folder.length} characters, more than ${MAX_NAME_CHARS}` };
  if (!NAME.test(folder)) return { problem: `name: "${folder}" must be lowercase letters, digits and single hyphens` };
  const name = stringField(data, 'name', warnings);
  if (name === undefined || name === '') warnings.push(`name: missing; it runs as /${folder}, its folder, as in Claude Code`);
  else if (name !== folder) warnings.push(`name: "${name}" differs from its folder "${folder}"; it runs as /${folder}, as in Claude Code`);
  const body = fm.body.trim();
  let description = stringField(data, 'description', warnings)?.trim() ?? '';
  if (description === '') {
    // Claude Code's default: the first paragraph of the instructions.
    description = body.split(/\n\s*\n/).find((p) => p.trim() !== '' && !/^#+\s/.test(p.trim()))?.replace(/\s+/g, ' ').trim() ?? '';
    if (description === '') return { problem: 'description: missing' }; // and no body to take one from
    warnings.push('description: missing; the first paragraph of the body stands in, as in Claude Code');
  }
  if (description.length > MAX_DESCRIPTION_CHARS) {
    warnings.push(`description: ${description.length} characters, more than the ${MAX_DESCRIPTION_CHARS} of the Agent Skills format; loaded whole, as in Claude Code`);
  }
  const tools = parseToolList(data['allowed-tools']);
  warnings.push(...tools.warnings);
  const disable = data['disable-model-invocation'];
  if (disable !== undefined && disable !== null && typeof disable !== 'boolean') return { problem: 'disable-model-invocation: must be true or false' };
  const hint = stringField(data, 'argument-hint', warnings);
  const license = stringField(data, 'license', warnings);
  const metadata = data['metadata'];
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) return { problem: 'metadata: must be a mapping' };
  const aliases = parseAliases((metadata as Record<string, unknown> | null | undefined)?.['aliases'], folder);
  if ('problem' in aliases) return aliases;
  const names = argumentNames(data['arguments']);
  return {
    skill: {
      name: folder,
      description,
      dir: path.dirname(file),
      file,
      body,
      source,
      allowedTools: tools.rules,
      disableModelInvocation: disable === true,
      ...(hint !== undefined ? { argumentHint: hint } : {}),
      ...(license !== undefined ? { license } : {}),
      ...(aliases.names.length > 0 ? { aliases: aliases.names } : {}),
      ...(names.length > 0 ? { argumentNames: names } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
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
