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
}

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
  const defaults: SessionConfig = { continueOnMaxTokens: false, pricing: builtinPriceTable, archiveSessions: true };
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
  if (problems.length > 0) throw new SessionConfigError(problems.join('\n'));
  return { continueOnMaxTokens: cont === true, pricing: 'problems' in pricing ? builtinPriceTable : pricing, archiveSessions: archive !== false };
}
