import type { PromptSection } from '../../src/context/system-prompt.js';
import { estimateTokens } from '../../src/context/tokens.js';
import { formatTokens } from '../transcript/format-tokens.js';
import type { SlashCommand } from './registry.js';
import type { SessionActions } from './session-actions.js';
import { sectionLabel } from './session-commands.js';

/** Where a section's text comes from, as a user would look for it. */
function sourceOf(section: PromptSection): string {
  if (section.kind === 'memory') return section.name;
  if (section.kind === 'static') return "cairn's built-in instructions";
  if (section.name === 'skills') return 'the skills found at start (/skills)';
  if (section.name === 'environment') return 'made at start: workspace, platform, date, model, mode, tools, git';
  if (section.name === 'memory') return 'where the memory layers live: the episodic notes folder, MEMORY.md, USER.md, SOUL.md';
  return 'made at start';
}

/** The section a typed name picks: its name exactly, else the one whose name ends with or contains it. */
function pick(sections: readonly PromptSection[], wanted: string): PromptSection[] {
  const w = wanted.toLowerCase();
  const exact = sections.filter((s) => s.name.toLowerCase() === w);
  if (exact.length > 0) return exact;
  const ending = sections.filter((s) => s.name.toLowerCase().endsWith(w));
  return ending.length > 0 ? ending : sections.filter((s) => s.name.toLowerCase().includes(w));
}

/** /sections: the system prompt's parts with their sizes and sources; /sections <name> prints one. */
export function sectionsCommand(actions: SessionActions): SlashCommand {
  return {
    name: 'sections',
    description: 'The system prompt’s sections with their sizes and sources; /sections <name> prints one',
    argHint: '[name]',
    async run(args, ctx) {
      const raw = actions.sections ? await actions.sections() : [{ name: 'system prompt', kind: 'static' as const, text: await ctx.systemPrompt() }];
      const sections = raw.map((s) => sectionLabel(s, actions.cwd));
      if (args) {
        const found = pick(sections, args);
        const [only] = found;
        if (!only || found.length > 1) {
          const names = (found.length > 1 ? found : sections).map((s) => s.name).join(', ');
          return ctx.print(`${found.length > 1 ? `"${args}" matches several sections` : `No section "${args}"`}: ${names}.`, 'warning');
        }
        return ctx.print([`Section ${only.name} (${only.text.length.toLocaleString('en-US')} chars, ~${formatTokens(estimateTokens(only.text))} tokens; from ${sourceOf(only)}):`, '', only.text].join('\n'));
      }
      const width = Math.max(...sections.map((s) => s.name.length));
      const rows = sections.map((s) => `  ${s.name.padEnd(width)}  ${`${s.text.length.toLocaleString('en-US')} chars`.padStart(13)}  ${`~${formatTokens(estimateTokens(s.text))} tokens`.padStart(13)}  ${sourceOf(s)}`);
      const total = sections.reduce((n, s) => n + s.text.length, 0);
      ctx.print([`System prompt sections (${sections.length}, ${total.toLocaleString('en-US')} chars in all):`, ...rows, 'Print one with /sections <name>; /prompt prints them all.'].join('\n'));
    },
  };
}
