import type { AgentEvent } from '../events.js';
import type { FoldedCard } from './card-fold.js';

/** An event as the web page receives it: numbered, so a page that reconnects asks for what it missed. */
export interface LoggedEvent {
  id: number;
  event: AgentEvent;
  /** The tool cards the event started or moved (card-fold.ts): the page takes their status from here. */
  cards?: FoldedCard[];
}

export type EventListener = (logged: LoggedEvent) => void;

/**
 * One session's events in order, with ids, and the pages that follow it live. It keeps the last
 * `capacity` events: a page reconnecting with Last-Event-ID gets exactly those after its id; one
 * that fell further behind is told to start again (`since` returns undefined).
 */
export class EventLog {
  private readonly events: LoggedEvent[] = [];
  private next = 1;
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly capacity = 50_000) {}

  append(event: AgentEvent, cards: FoldedCard[] = []): LoggedEvent {
    const logged: LoggedEvent = { id: this.next++, event, ...(cards.length > 0 ? { cards } : {}) };
    this.events.push(logged);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    for (const listener of this.listeners) listener(logged);
    return logged;
  }

  /** Events after `lastId` (all with 0), or undefined when some of them are no longer kept. */
  since(lastId: number): LoggedEvent[] | undefined {
    const first = this.events[0];
    if (first && lastId < first.id - 1) return undefined;
    return this.events.filter((e) => e.id > lastId);
  }

  /** Every event still kept. */
  all(): LoggedEvent[] {
    return [...this.events];
  }

  get lastId(): number {
    return this.next - 1;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }
}
