import type { EventOf } from '../events.js';

// How a shell_watch event reads to the user: one small notice (the TUI's transcript; the page has
// its own copy in components/web/static/transcript.js).

/** Lines of a delivery shown in the notice; the model gets all of them. */
export const NOTICE_LINES = 3;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** The notice's text, and whether it is worth a warning (the shell failed, the pattern ran away). */
export function shellWatchNotice(event: EventOf<'shell_watch'>): { text: string; warning: boolean } {
  const what = event.pattern !== undefined ? ` /${event.pattern}/` : '';
  const lines = event.lines ?? [];
  const shown = lines.slice(0, NOTICE_LINES).map((l) => `  ${l}`);
  const more = lines.length > NOTICE_LINES ? [`  … ${lines.length - NOTICE_LINES} more`] : [];
  const dropped = event.dropped ? ` (${event.dropped} dropped)` : '';
  const body = [...shown, ...more];
  switch (event.status) {
    case 'watching':
      return { text: `Watching ${event.shell_id}${what}: ${oneLine(event.command)}`, warning: false };
    case 'lines':
      return { text: [`${event.shell_id}${what}: ${lines.length} new line${lines.length === 1 ? '' : 's'}${dropped}`, ...body].join('\n'), warning: false };
    case 'ended': {
      const failed = event.exit_code !== undefined && event.exit_code !== 0;
      return { text: [`${event.shell_id} ${event.reason ?? 'ended'}; watch over${dropped}`, ...body].join('\n'), warning: failed };
    }
    case 'stopped':
      // cairn stopped it itself (a timeout, a flood, a runaway pattern): worth the user's eye.
      return { text: [`Stopped watching ${event.shell_id}: ${event.reason ?? 'stopped'}${dropped}`, ...body].join('\n'), warning: event.cause !== undefined || /pattern/.test(event.reason ?? '') };
  }
}
