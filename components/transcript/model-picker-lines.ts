import type { ModelPrice } from '../../src/pricing.js';
import { boundKeyLabel } from '../keys/key-help.js';
import { isCurrent, modelMatches, modelSelection, onlyOffline } from '../store/model-picker.js';
import type { ModelDialog } from '../store/types.js';
import { bold, clipLine, inverse, paint, textWidth, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { formatContext } from './format-tokens.js';


function dollars(n: number): string {
  return `$${Number.isInteger(n) ? n : n >= 0.1 ? n.toFixed(2) : Number(n.toPrecision(2))}`;
}

/** "$2 / $10": dollars per million tokens in / out. */
export function formatPrice(price: ModelPrice | undefined): string {
  return price ? `${dollars(price.input)} / ${dollars(price.output)}` : 'price unknown';
}

/** /model's rows: the keys, the filter, the models grouped by provider (context, price per Mtok in/out), problems. */
export function modelPickerLines(dialog: ModelDialog, width: number, theme: Theme, maxRows: number): string[] {
  const keys = `type to filter · ↑↓ select · Enter use now · ${boundKeyLabel('modelSaveDefault')} use and save as default · Esc close`;
  const title = `${bold('Model')}${paint(theme, 'muted', `  ${keys}`)}`;
  const status = dialog.status !== undefined ? [paint(theme, 'warning', dialog.status)] : [];
  if (dialog.loading) return [title, ...status, paint(theme, 'muted', `  ${dialog.current.model} (${dialog.current.provider}) · asking the providers for their models…`)];
  const problems = dialog.problems.map((p) => paint(theme, 'warning', `  ! ${p}`));
  const filter = `${paint(theme, 'muted', 'filter: ')}${dialog.filter}▏${paint(theme, 'muted', '   context · $ per million tokens in / out')}`;
  const matches = modelMatches(dialog);
  const { index } = modelSelection(dialog);
  const nameWidth = Math.min(40, Math.max(0, ...matches.map((r) => textWidth(r.model) + (isCurrent(dialog, r) ? 10 : 0))));
  // One entry per provider heading and per row; `at` is the selected row's entry.
  const entries: string[] = [];
  let at = 0;
  let provider: string | undefined;
  matches.forEach((row, i) => {
    if (row.provider !== provider) {
      provider = row.provider;
      entries.push(paint(theme, 'accent', bold(row.provider)));
    }
    const selected = i === index;
    if (selected) at = entries.length;
    const name = `${row.model}${isCurrent(dialog, row) ? ' (current)' : ''}`;
    const pad = ' '.repeat(Math.max(1, nameWidth - textWidth(name) + 2));
    const effort = selected && row.effort ? `   effort: ${dialog.effort ?? 'as started'} ←→` : '';
    const line = clipLine(`${selected ? '›' : ' '} ${name}${pad}${formatContext(row.contextWindow).padStart(5)}   ${formatPrice(row.price)}${effort}`, width);
    entries.push(selected ? inverse(line) : line);
  });
  const offline = onlyOffline(dialog)
    ? wrapText(
        `Only the offline model is available: no provider is configured. To choose others, start cairn with ANTHROPIC_API_KEY or OPENAI_API_KEY set, or add a provider to ${dialog.configFile} (see docs/configuration.md).`,
        Math.max(20, width - 2),
      ).map((l) => paint(theme, 'muted', `  ${l}`))
    : [];
  if (matches.length === 0) return [title, ...status, filter, paint(theme, 'muted', `  No model matches "${dialog.filter}".`), ...offline, ...problems];
  const fixed = 2 + status.length + offline.length + Math.min(problems.length, 2);
  const room = Math.max(1, maxRows - fixed);
  const first = Math.max(0, Math.min(at - room + 1, entries.length - room));
  const shown = entries.slice(first, first + room);
  return [title, ...status, filter, ...shown, ...offline, ...problems.slice(0, Math.max(0, maxRows - 2 - status.length - offline.length - shown.length))];
}
