import type { TodoItem } from '../events.js';

/** After this many model turns without a todo_write while items are open, remind the model. */
export const TODO_REMINDER_AFTER_TURNS = 3;

/**
 * The session's todo list: replaced whole by each todo_write, restored from the session file on
 * resume, and independent of the message history, so compaction never loses it.
 */
export class TodoList {
  private items: TodoItem[] = [];
  private turn = 0;
  private touchedAtTurn = 0;
  private remindedAtTurn = -1;

  get todos(): readonly TodoItem[] {
    return this.items;
  }

  get open(): TodoItem[] {
    return this.items.filter((t) => t.status !== 'completed');
  }

  replace(todos: readonly TodoItem[]): void {
    this.items = [...todos];
    this.touchedAtTurn = this.turn;
  }

  /** Counts model turns (call on each turn_start). */
  tick(): void {
    this.turn++;
  }

  /** A reminder for the next request, or undefined. Given once per stale stretch. */
  reminder(): string | undefined {
    const open = this.open;
    if (open.length === 0) return undefined;
    const stale = this.turn - this.touchedAtTurn;
    if (stale < TODO_REMINDER_AFTER_TURNS || this.remindedAtTurn >= this.touchedAtTurn) return undefined;
    this.remindedAtTurn = this.turn;
    const list = this.items.map((t) => `- [${t.status}] ${t.content}`).join('\n');
    return `Your todo list has open items and has not been updated for ${stale} turns. If you made progress, update it with todo_write (mark finished items completed, one item in_progress). The list:\n${list}`;
  }
}

/** Why a list is invalid, or undefined. */
export function validateTodos(todos: readonly TodoItem[]): string | undefined {
  const inProgress = todos.filter((t) => t.status === 'in_progress');
  if (inProgress.length > 1) {
    return `At most one todo can be in_progress; ${inProgress.length} are: ${inProgress.map((t) => `"${t.content}"`).join(', ')}. Mark the others pending or completed.`;
  }
  const empty = todos.findIndex((t) => t.content.trim() === '' || t.activeForm.trim() === '');
  if (empty !== -1) return `todos[${empty}]: content and activeForm must not be empty.`;
  return undefined;
}
