import { Cron } from 'croner';
import { errorMessage } from '../util/error-message.js';
import { itemAt } from '../util/invariant.js';

// Standard 5-field cron, validated field by field here so an error names the field and the value;
// matching and next-run computation are croner's (local time, day-of-month OR day-of-week when
// both are restricted, as in Vixie cron).

export class CronExpressionError extends Error {
  override readonly name = 'CronExpressionError';
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** Index of names[0]. */
  namesFrom?: number;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  // 7 is Sunday too, as in most crons.
  { name: 'day-of-week', min: 0, max: 7, names: DAYS, namesFrom: 0 },
];

export const CRON_SYNTAX_HELP =
  'use 5 fields "minute hour day-of-month month day-of-week", each *, N, N-M, N,M, */S or N-M/S (day-of-week 0-7, 0 and 7 = Sunday)';

function valueOf(token: string, spec: FieldSpec, fail: (why: string) => never): number {
  if (/^\d+$/.test(token)) {
    const n = Number(token);
    if (n < spec.min || n > spec.max) fail(`${token} is out of range ${spec.min}-${spec.max}`);
    return n;
  }
  const idx = spec.names?.indexOf(token.toUpperCase()) ?? -1;
  if (idx >= 0) return idx + (spec.namesFrom ?? 0);
  return fail(`"${token}" is not a number${spec.names ? ` or a name (${spec.names[0]}-${spec.names.at(-1)})` : ''}`);
}

function checkItem(item: string, spec: FieldSpec, fail: (why: string) => never): void {
  if (item === '') fail('empty list item');
  const slash = item.split('/');
  if (slash.length > 2) fail(`"${item}" has more than one /`);
  const [range = '', step] = slash;
  if (step !== undefined) {
    if (!/^\d+$/.test(step)) fail(`step "${step}" in "${item}" is not a whole number`);
    if (Number(step) < 1) fail(`step in "${item}" must be at least 1`);
    if (Number(step) > spec.max - spec.min + 1) fail(`step ${step} in "${item}" is larger than the field's range ${spec.min}-${spec.max}`);
    if (range !== '*' && !range.includes('-')) fail(`"${item}": a step needs * or a range before it (*/S or N-M/S)`);
  }
  if (range === '*') return;
  const dash = range.split('-');
  if (dash.length > 2) fail(`"${range}" is not a valid range`);
  const [from = '', to] = dash;
  const lo = valueOf(from, spec, fail);
  if (to === undefined) return;
  const hi = valueOf(to, spec, fail);
  if (lo > hi) fail(`range ${range} starts after it ends`);
}

/** Throws CronExpressionError: `cron "61 * * * *": minute field: 61 is out of range 0-59`. */
export function validateCronFields(expr: string): void {
  const trimmed = expr.trim();
  const parts = trimmed === '' ? [] : trimmed.split(/\s+/);
  if (parts.length !== 5) {
    const extra = parts.length === 6 ? ' (seconds fields are not supported)' : '';
    throw new CronExpressionError(`cron "${expr}": expected 5 fields, got ${parts.length}${extra}; ${CRON_SYNTAX_HELP}`);
  }
  parts.forEach((part, i) => {
    const spec = itemAt(FIELDS, i, 'cron field');
    const fail = (why: string): never => {
      throw new CronExpressionError(`cron "${expr}": ${spec.name} field: ${why}`);
    };
    for (const item of part.split(',')) checkItem(item, spec, fail);
  });
}

export interface CronSchedule {
  /** The expression as given (trimmed). */
  readonly expr: string;
  /** The first matching minute strictly after `after` (ms), or undefined when there is none. */
  nextAfter(after: number): number | undefined;
}

/** Validates and compiles an expression. Rejects ones that never match (Feb 31). */
export function parseCron(expr: string): CronSchedule {
  validateCronFields(expr);
  const normalized = expr.trim().split(/\s+/).join(' ');
  let cron: Cron;
  try {
    cron = new Cron(normalized, { mode: '5-part' });
  } catch (err) {
    throw new CronExpressionError(`cron "${expr}": ${errorMessage(err)}`);
  }
  const schedule: CronSchedule = {
    expr: normalized,
    nextAfter(after) {
      return cron.nextRun(new Date(after))?.getTime();
    },
  };
  if (schedule.nextAfter(Date.now()) === undefined) {
    throw new CronExpressionError(`cron "${expr}": never matches any date`);
  }
  return schedule;
}
