import fs from 'node:fs/promises';
import path from 'node:path';
import { exportSession, type ExportFormat } from '../../src/session/session-export.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { SlashCommand } from './registry.js';
import type { SessionActions } from './session-actions.js';

/** `/export [file] [--format json]`: the file (relative to the workspace) and the format asked for, or why not. */
export function exportArgs(args: string): { file?: string; format: ExportFormat } | { problem: string } {
  const words = args.split(/\s+/).filter(Boolean);
  let format: ExportFormat = 'markdown';
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const inline = /^--format=(.*)$/.exec(word);
    if (word !== '--format' && !inline) {
      rest.push(word);
      continue;
    }
    const value = inline ? inline[1] : words[++i];
    if (value !== 'json' && value !== 'markdown' && value !== 'md') return { problem: `--format: expected markdown or json, got "${value ?? ''}"` };
    format = value === 'json' ? 'json' : 'markdown';
  }
  if (rest.length > 1) return { problem: `one file, please (got ${rest.join(' ')})` };
  return { ...(rest[0] !== undefined ? { file: rest[0] } : {}), format };
}

/** /export: the session on screen as Markdown (prompts, answers, tool calls and trimmed outputs) or its event stream. */
export function exportCommand(actions: SessionActions): SlashCommand {
  return {
    name: 'export',
    description: 'Write this session to a file: Markdown, or the event stream with --format json',
    argHint: '[file] [--format json]',
    async run(args, ctx) {
      const parsed = exportArgs(args);
      if ('problem' in parsed) return ctx.print(`Not exported: ${parsed.problem}.`, 'warning');
      const mine = (await actions.listSessions()).find((s) => s.id === actions.currentId);
      if (!mine) return ctx.print('Not exported: this session has no file yet (nothing was said, or it was started without one).', 'warning');
      const target = path.resolve(actions.cwd, parsed.file ?? `cairn-${mine.name ?? mine.id.slice(0, 8)}.${parsed.format === 'json' ? 'jsonl' : 'md'}`);
      try {
        const result = await exportSession(mine.file, parsed.format, mine.name);
        await fs.writeFile(target, result.text);
        const skipped = result.warnings.length > 0 ? ` ${result.warnings.length} unreadable line(s) left out: ${result.warnings[0]}` : '';
        ctx.print(`Exported ${result.prompts} prompt${result.prompts === 1 ? '' : 's'} to ${target}${parsed.format === 'json' ? ' (the event stream, one JSON event a line)' : ''}.${skipped}`);
      } catch (error) {
        ctx.print(`Not exported: cannot write ${target}: ${errorMessage(error)}`, 'warning');
      }
    },
  };
}
