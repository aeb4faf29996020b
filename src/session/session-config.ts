import { configPath } from '../providers/config.js';
import { builtinPriceTable, type PriceTable } from '../pricing.js';
import { pricingFrom } from '../pricing-config.js';
import { FileReadError, readTextFileSync } from '../util/read-text-file.js';

/** The parts of $CAIRN_HOME/config.json that shape a conversation rather than pick a provider. */
export interface SessionConfig {
  /** After an answer cut at the output limit, ask the model once to continue (default false). */
  continueOnMaxTokens: boolean;
  /** Prices for /usage and the status bar: the built-in table with config.json's `pricing` over it. */
  pricing: PriceTable;
  /** Archive ended sessions that were never compacted at the next interactive start (default true). */
  archiveSessions: boolean;
  /** How long an approval waits before it is answered no, in seconds, per face; 0 waits for ever. */
  approvalTimeoutSeconds: { web: number; tui: number };
}

/** The page answers no after 3 minutes (someone walked away from a browser tab); the terminal waits. */
export const DEFAULT_APPROVAL_TIMEOUT = { web: 180, tui: 0 } as const;

export class SessionConfigError extends Error {
  override name = 'SessionConfigError';
}

/** Reads those fields; a malformed one stops start-up naming the file and field, as for providers. */
export function loadSessionConfig(cairnHome: string): SessionConfig {
  const file = configPath(cairnHome);
  let text: string | undefined;
  try {
    text = readTextFileSync(file);
  } catch (error) {
    if (error instanceof FileReadError) throw new SessionConfigError(error.message);
    throw error;
  }
  const defaults: SessionConfig = { continueOnMaxTokens: false, pricing: builtinPriceTable, archiveSessions: true, approvalTimeoutSeconds: { ...DEFAULT_APPROVAL_TIMEOUT } };
  if (text === undefined) return defaults;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SessionConfigError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return defaults;
  const fields = json as Record<string, unknown>;
  const problems: string[] = [];
  const cont = fields['continueOnMaxTokens'];
  if (cont !== undefined && typeof cont !== 'boolean') problems.push(`${file}: continueOnMaxTokens: expected true or false`);
  const archive = fields['archiveSessions'];
  if (archive !== undefined && typeof archive !== 'boolean') problems.push(`${file}: archiveSessions: expected true or false`);
  const pricing = pricingFrom(fields['pricing'], file);
  if ('problems' in pricing) problems.push(...pricing.problems);
  const timeouts = approvalTimeoutsFrom(fields['approvalTimeoutSeconds'], file, problems);
  if (problems.length > 0) throw new SessionConfigError(problems.join('\n'));
  return { continueOnMaxTokens: cont === true, pricing: 'problems' in pricing ? builtinPriceTable : pricing, archiveSessions: archive !== false, approvalTimeoutSeconds: timeouts };
}

/** `approvalTimeoutSeconds: { "web": 180, "tui": 0 }`, either key optional; a bad value is a problem naming the field. */
function approvalTimeoutsFrom(value: unknown, file: string, problems: string[]): SessionConfig['approvalTimeoutSeconds'] {
  const out: SessionConfig['approvalTimeoutSeconds'] = { ...DEFAULT_APPROVAL_TIMEOUT };
  if (value === undefined) return out;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${file}: approvalTimeoutSeconds: expected an object like {"web": 180, "tui": 0} (seconds; 0 waits for ever)`);
    return out;
  }
  for (const [key, seconds] of Object.entries(value)) {
    if (key !== 'web' && key !== 'tui') problems.push(`${file}: approvalTimeoutSeconds.${key}: unknown key (use "web" and "tui")`);
    else if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) problems.push(`${file}: approvalTimeoutSeconds.${key}: expected seconds, 0 or more (0 waits for ever)`);
    else out[key] = seconds;
  }
  return out;
}
