import type { HookSet } from '../../src/hooks/hook-set.js';
import type { HookDefinition } from '../../src/hooks/hook-types.js';
import type { SlashCommand } from './registry.js';

const EVENT_NAMES: Record<string, string> = { Stop: 'Stop (RoundEnd)' };

function hookLine(h: HookDefinition): string {
  const event = h.format === 'cairn' ? (EVENT_NAMES[h.event] ?? h.event) : h.event;
  const matcher = h.matcher && h.matcher !== '*' ? ` [${h.matcher}]` : '';
  const kind = h.handler?.type === 'http' ? 'POST ' : h.handler?.type === 'prompt' ? 'prompt: ' : '';
  const origin = h.origin !== undefined ? `${h.origin}: ` : '';
  return `  ${event}${matcher}: ${kind}${h.command}  (${h.timeoutMs / 1000}s) · ${origin}${h.source} ${h.key}`;
}

/** The /hooks report: every hook with its source file and key, then problems and what is held back. */
export function hooksReport(set: HookSet): string {
  const all = set.all();
  const state = set.enabled ? 'on' : 'off (/hooks on runs them again)';
  const lines = [`Hooks: ${all.length === 0 ? 'none' : `${all.length}`}, ${state}`, ...all.map(hookLine)];
  if (set.problems().length > 0) lines.push('Not loaded:', ...set.problems().map((p) => `  ${p}`));
  if (set.notes().length > 0) lines.push(...set.notes().map((n) => `  ${n}`));
  return lines.join('\n');
}

/** /hooks: list every hook with its source file; /hooks off|on|reload. */
export function hooksCommands(set: HookSet | undefined): SlashCommand[] {
  return [
    {
      name: 'hooks',
      description: 'Hooks in force with their files; off, on, reload',
      argHint: '[off|on|reload]',
      async run(args, ctx) {
        if (!set) return ctx.print('Hooks are not available in this session.', 'warning');
        const sub = args.trim().toLowerCase();
        if (sub === '' || sub === 'list') return ctx.print(hooksReport(set));
        if (sub === 'off') {
          set.setEnabled(false);
          return ctx.print('Hooks off: none runs until /hooks on.');
        }
        if (sub === 'on') {
          set.setEnabled(true);
          return ctx.print(`Hooks on: ${set.all().length} in force.`);
        }
        if (sub === 'reload') {
          await set.reload();
          return ctx.print(hooksReport(set), set.problems().length > 0 ? 'warning' : 'info');
        }
        ctx.print(`Unknown /hooks argument "${args}". Use /hooks, /hooks off, /hooks on or /hooks reload.`, 'warning');
      },
    },
  ];
}
