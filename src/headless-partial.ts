// `--include-partial-messages`: Claude Code's `stream_event` lines in stream-json output, each
// carrying one raw Messages-API streaming event (message_start, content_block_start, the text and
// thinking deltas, content_block_stop, message_stop) built from cairn's own delta events, so a
// script reading `.event.delta.text` of `stream_event` lines sees the answer as it streams.
import { randomUUID } from 'node:crypto';
import type { AgentEvent } from './events.js';

type BlockKind = 'text' | 'thinking';

export class PartialMessageLines {
  private open: { index: number; kind: BlockKind } | undefined;
  private started = false;
  private nextIndex = 0;

  constructor(private readonly sessionId: string) {}

  /** The stream_event lines an event stands for (none for most events). */
  linesFor(event: AgentEvent): Record<string, unknown>[] {
    const raw: Record<string, unknown>[] = [];
    if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      const kind: BlockKind = event.type === 'text_delta' ? 'text' : 'thinking';
      if (!this.started) {
        this.started = true;
        raw.push({ type: 'message_start', message: { type: 'message', role: 'assistant', content: [] } });
      }
      if (this.open?.kind !== kind) {
        if (this.open) raw.push({ type: 'content_block_stop', index: this.open.index });
        this.open = { index: this.nextIndex++, kind };
        raw.push({ type: 'content_block_start', index: this.open.index, content_block: kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' } });
      }
      raw.push({ type: 'content_block_delta', index: this.open.index, delta: kind === 'text' ? { type: 'text_delta', text: event.text } : { type: 'thinking_delta', thinking: event.text } });
    } else if (event.type === 'assistant' && this.started) {
      if (this.open) raw.push({ type: 'content_block_stop', index: this.open.index });
      raw.push({ type: 'message_stop' });
      this.reset();
    } else if (event.type === 'notice' && event.code === 'retry') {
      // A retried call streams again from the start.
      this.reset();
    }
    return raw.map((e) => ({ type: 'stream_event', event: e, session_id: this.sessionId, parent_tool_use_id: null, uuid: randomUUID() }));
  }

  private reset(): void {
    this.open = undefined;
    this.started = false;
    this.nextIndex = 0;
  }
}
