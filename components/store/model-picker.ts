// The /model picker's state moves: pure, like the resume picker's (session-picker.ts).
import { EFFORT_LEVELS, type Effort } from '../../src/providers/effort.js';
import type { ModelCatalog, ModelRow } from '../../src/providers/model-catalog.js';
import type { ModelDialog } from './types.js';

/** The picker while the providers are asked: the current model known, the list to come. */
export function loadingModelDialog(opened: number, current: ModelDialog['current'], effort: Effort | undefined, configFile: string): ModelDialog {
  return { kind: 'model', opened, rows: [], current, filter: '', index: 0, loading: true, problems: [], configFile, ...(effort !== undefined ? { effort } : {}) };
}

/** The list arrived: the cursor goes to the current model (unless the user typed a filter meanwhile). */
export function withCatalog(dialog: ModelDialog, catalog: ModelCatalog): ModelDialog {
  const next: ModelDialog = { ...dialog, rows: catalog.rows, problems: catalog.problems, configFile: catalog.configFile, loading: false };
  if (dialog.filter !== '') return { ...next, index: 0 };
  const at = catalog.rows.findIndex((r) => isCurrent(next, r));
  return { ...next, index: Math.max(0, at) };
}

export function isCurrent(dialog: Pick<ModelDialog, 'current'>, row: ModelRow): boolean {
  return row.provider === dialog.current.provider && row.model === dialog.current.model;
}

/** Rows whose provider or model holds every word of the filter, in list order. */
export function modelMatches(dialog: ModelDialog): ModelRow[] {
  const words = dialog.filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...dialog.rows];
  return dialog.rows.filter((r) => words.every((w) => `${r.provider} ${r.model}`.toLowerCase().includes(w)));
}

export function modelSelection(dialog: ModelDialog): { index: number; row: ModelRow | undefined } {
  const matches = modelMatches(dialog);
  const index = matches.length === 0 ? 0 : Math.max(0, Math.min(dialog.index, matches.length - 1));
  return { index, row: matches[index] };
}

export function moveModelPicker(dialog: ModelDialog, delta: number): ModelDialog {
  const count = modelMatches(dialog).length;
  if (count === 0) return dialog;
  const { index } = modelSelection(dialog);
  const { status: _status, ...rest } = dialog;
  return { ...rest, index: (index + delta + count) % count };
}

export function setModelFilter(dialog: ModelDialog, filter: string): ModelDialog {
  const { status: _status, ...rest } = dialog;
  return { ...rest, filter, index: 0 };
}

/** ←→: as started, low … max, and round again; only for a model that takes an effort. */
export function cycleEffort(dialog: ModelDialog, delta: number): ModelDialog {
  if (modelSelection(dialog).row?.effort !== true) return dialog;
  const steps: (Effort | undefined)[] = [undefined, ...EFFORT_LEVELS];
  const at = steps.indexOf(dialog.effort);
  const effort = steps[(at + delta + steps.length) % steps.length];
  const { effort: _old, status: _status, ...rest } = dialog;
  return effort === undefined ? rest : { ...rest, effort };
}

/** Only the offline model could be listed: nothing else is configured. */
export function onlyOffline(dialog: ModelDialog): boolean {
  return !dialog.loading && dialog.rows.every((r) => r.api === 'offline');
}
