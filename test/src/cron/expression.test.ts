import { describe, expect, it } from 'vitest';
import { parseCron } from '../../../src/cron/expression.js';

const at = (y: number, mo: number, d: number, h = 0, mi = 0): number => new Date(y, mo - 1, d, h, mi).getTime();

/** The next n matches after `from`, as local "D HH:MM" (day of month). */
function next(expr: string, from: number, n: number): string[] {
  const s = parseCron(expr);
  const out: string[] = [];
  for (let t = s.nextAfter(from); t !== undefined && out.length < n; t = s.nextAfter(t)) {
    const d = new Date(t);
    out.push(`${d.getDate()} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`);
  }
  return out;
}

function weekdays(expr: string, n: number): number[] {
  const s = parseCron(expr);
  const out: number[] = [];
  for (let t = s.nextAfter(at(2025, 1, 1)); t !== undefined && out.length < n; t = s.nextAfter(t)) out.push(new Date(t).getDay());
  return out;
}

// 2025-01-01 is a Wednesday.
describe('cron expressions: field forms', () => {
  it('* matches every minute', () => {
    expect(next('* * * * *', at(2025, 1, 1, 10, 58), 3)).toEqual(['1 10:59', '1 11:00', '1 11:01']);
  });
  it('N, N-M and N,M', () => {
    expect(next('30 9 * * *', at(2025, 1, 1, 10), 2)).toEqual(['2 09:30', '3 09:30']);
    expect(next('0 9-11 * * *', at(2025, 1, 1, 10, 30), 3)).toEqual(['1 11:00', '2 09:00', '2 10:00']);
    expect(next('5,40 14 * * *', at(2025, 1, 1, 14, 10), 3)).toEqual(['1 14:40', '2 14:05', '2 14:40']);
  });
  it('*/N and N-M/S', () => {
    expect(next('*/20 * * * *', at(2025, 1, 1, 10, 1), 4)).toEqual(['1 10:20', '1 10:40', '1 11:00', '1 11:20']);
    expect(next('10-40/15 * * * *', at(2025, 1, 1, 10, 0), 4)).toEqual(['1 10:10', '1 10:25', '1 10:40', '1 11:10']);
    expect(next('0 */6 * * *', at(2025, 1, 1, 1), 3)).toEqual(['1 06:00', '1 12:00', '1 18:00']);
  });
  it('day of month and month, with month names', () => {
    expect(next('0 0 15 * *', at(2025, 1, 20), 1)).toEqual(['15 00:00']);
    const feb = parseCron('0 0 1 FEB *').nextAfter(at(2025, 1, 1));
    expect(new Date(feb!).getMonth()).toBe(1);
    expect(new Date(parseCron('0 0 1 2 *').nextAfter(at(2025, 1, 1))!).getMonth()).toBe(1);
  });
  it('accepts extra whitespace and normalizes it', () => {
    expect(parseCron('  0   9 * *  1 ').expr).toBe('0 9 * * 1');
  });
});

describe('cron expressions: day of week', () => {
  it('0 and 7 are both Sunday', () => {
    expect(weekdays('0 9 * * 0', 3)).toEqual([0, 0, 0]);
    expect(weekdays('0 9 * * 7', 3)).toEqual([0, 0, 0]);
    expect(parseCron('0 9 * * 7').nextAfter(at(2025, 1, 1))).toBe(parseCron('0 9 * * 0').nextAfter(at(2025, 1, 1)));
  });
  it('1-5 is Monday to Friday', () => {
    expect(weekdays('0 9 * * 1-5', 7)).toEqual([3, 4, 5, 1, 2, 3, 4]);
    expect(weekdays('0 9 * * MON-FRI', 7)).toEqual([3, 4, 5, 1, 2, 3, 4]);
  });
  it('a range across the weekend up to 7 (Fri-Sun)', () => {
    expect(weekdays('0 9 * * 5-7', 5)).toEqual([5, 6, 0, 5, 6]);
    expect(weekdays('0 9 * * 6,0', 4)).toEqual([6, 0, 6, 0]);
  });
  it('day of month and day of week both restricted: either matches (Vixie cron)', () => {
    // The 1st of the month OR a Monday.
    expect(next('0 9 1 * 1', at(2025, 1, 25), 3)).toEqual(['27 09:00', '1 09:00', '3 09:00']);
  });
});

describe('cron expressions: errors name the field', () => {
  it.each([
    ['61 * * * *', 'cron "61 * * * *": minute field: 61 is out of range 0-59'],
    ['* 24 * * *', 'cron "* 24 * * *": hour field: 24 is out of range 0-23'],
    ['* * 0 * *', 'cron "* * 0 * *": day-of-month field: 0 is out of range 1-31'],
    ['* * * 13 *', 'cron "* * * 13 *": month field: 13 is out of range 1-12'],
    ['* * * * 8', 'cron "* * * * 8": day-of-week field: 8 is out of range 0-7'],
    ['* * * * FUN', 'cron "* * * * FUN": day-of-week field: "FUN" is not a number or a name (SUN-SAT)'],
    ['5-3 * * * *', 'cron "5-3 * * * *": minute field: range 5-3 starts after it ends'],
    ['*/0 * * * *', 'cron "*/0 * * * *": minute field: step in "*/0" must be at least 1'],
    ['1,,2 * * * *', 'cron "1,,2 * * * *": minute field: empty list item'],
    ['? * * * *', 'cron "? * * * *": minute field: "?" is not a number'],
    ['* * L * *', 'cron "* * L * *": day-of-month field: "L" is not a number'],
    ['5/10 * * * *', 'cron "5/10 * * * *": minute field: "5/10": a step needs * or a range before it (*/S or N-M/S)'],
  ])('%s', (expr, message) => {
    expect(() => parseCron(expr)).toThrow(message);
  });

  it('rejects 6-field (seconds) and other field counts', () => {
    expect(() => parseCron('0 * * * * *')).toThrow(/expected 5 fields, got 6 \(seconds fields are not supported\)/);
    expect(() => parseCron('* * * *')).toThrow(/expected 5 fields, got 4/);
    expect(() => parseCron('@hourly')).toThrow(/expected 5 fields, got 1/);
    expect(() => parseCron('')).toThrow(/expected 5 fields, got 0/);
  });

  it('rejects an expression that never matches', () => {
    expect(() => parseCron('0 0 31 2 *')).toThrow('cron "0 0 31 2 *": never matches any date');
  });
});
