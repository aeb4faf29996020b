import { relative, isAbsolute } from 'node:path';
import type { PromptSection } from '../../src/context/system-prompt.js';
import { shortPath } from '../Header.js';
import { resume } from '../actions/resume.js';
import type { TuiStore } from '../store/create-store.js';
import { formatAge, resumeDialog } from '../store/session-picker.js';
import { contextReport, contextSections } from './context-report.js';
import { imageTokenFormulaFor } from '../../src/attachments/attachment-tokens.js';
import type { SlashCommand } from './registry.js';
import type { SessionActions } from './session-actions.js';

/** Lists this workspace's sessions and opens the picker; says so when there are none. */
export async function openResumePicker(store: TuiStore, actions: SessionActions, now = Date.now()): Promise<void> {
  const sessions = await actions.listSessions();
  if (!sessions.some((s) => s.id !== actions.currentId)) {
    store.dispatch({ type: 'notice', level: 'info', message: 'No earlier sessions in this workspace.' });
    return;
  }
  // The session on screen stays in the list, marked, so the others' ages read relative to it.
  store.dispatch({ type: 'dialog', dialog: resumeDialog(sessions, now, actions.currentId) });
}

export function sectionLabel(section: PromptSection, cwd: string): PromptSection {
  if (section.kind !== 'memory' || !isAbsolute(section.name)) return section;
  const rel = relative(cwd, section.name);
  return { ...section, name: rel && !rel.startsWith('..') ? rel : shortPath(section.name) };
}

/** /resume, /sessions, /context and /compact: the commands that reach past the conversation. */
export function sessionCommands(actions: SessionActions): SlashCommand[] {
  const resumeCommand: SlashCommand = {
    name: 'resume',
    aliases: ['continue'],
    description: 'Pick an earlier session of this workspace to continue',
    argHint: '[id]',
    async run(args, ctx) {
      if (args) return resume(args, { store: ctx.store, sessions: actions });
      await openResumePicker(ctx.store, actions);
    },
  };

  const sessions: SlashCommand = {
    name: 'sessions',
    description: 'List the sessions of this workspace',
    async run(_args, ctx) {
      const list = await actions.listSessions();
      if (list.length === 0) return ctx.print('No sessions in this workspace yet.');
      const now = Date.now();
      const numberWidth = String(list.length).length;
      const rows = list.map((s, i) => {
        const mark = s.id === actions.currentId ? '  (this session)' : '';
        const prompt = (s.firstPrompt.split('\n')[0] ?? '').trim() || '(no prompt)';
        const name = s.name !== undefined ? `[${s.name}] ` : '';
        return `  ${String(i + 1).padStart(numberWidth)}  ${s.id.slice(0, 8)}  ${formatAge(s.modified, now).padStart(9)}  ${`${s.messageCount} msgs`.padStart(9)}  ${name}${prompt}${mark}`;
      });
      ctx.print([`Sessions in ${shortPath(actions.cwd)} (newest first):`, ...rows, 'Continue one with /resume <id>, /load <name or number>, or /resume to pick.'].join('\n'));
    },
  };

  const context: SlashCommand = {
    name: 'context',
    description: 'What fills the context window, against the model’s limit',
    async run(_args, ctx) {
      const prompt = actions.sections ? await actions.sections() : [{ name: 'system prompt', kind: 'static' as const, text: await ctx.systemPrompt() }];
      const state = ctx.store.getSnapshot();
      const sections = contextSections(
        prompt.map((s) => sectionLabel(s, actions.cwd)),
        ctx.session.tools,
        ctx.session.messages,
        imageTokenFormulaFor(ctx.session.provider),
      );
      ctx.print(contextReport(sections, state.contextLimit, state.usage.context));
    },
  };

  const compact: SlashCommand = {
    name: 'compact',
    description: 'Summarise the conversation so far to free context',
    argHint: '[instructions]',
    async run(args, ctx) {
      if (ctx.session.busy) return ctx.print('A turn is running; compact after it ends (or press Esc).', 'warning');
      if (ctx.session.messages.length === 0) return ctx.print('Nothing to compact yet.');
      ctx.print(args ? `Compacting the conversation (${args})…` : 'Compacting the conversation…');
      await ctx.session.compact(args || undefined);
    },
  };

  return [resumeCommand, sessions, context, compact];
}
