// The /model picker's "save as default": `defaultProvider` and `model` in $CAIRN_HOME/config.json,
// every other key of the file kept as it was.
import { rm } from 'node:fs/promises';
import { readTextFile } from '../util/read-text-file.js';
import { writeFileAtomically } from '../util/write-atomically.js';
import { ConfigError, configPath, loadProviderConfig } from './config.js';

export interface SavedDefault {
  file: string;
  /** What still wins over the saved default in this environment (CAIRN_PROVIDER, CAIRN_MODEL), to tell the user. */
  overriddenBy: string[];
}

/**
 * Writes the provider and model as the default for the next start. Throws ConfigError naming the
 * file when it cannot be read, is not a JSON object, or would no longer load; the file is then unchanged.
 */
export async function saveDefaultModel(opts: { cairnHome: string; provider: string; model: string; env: Readonly<Record<string, string | undefined>> }): Promise<SavedDefault> {
  const file = configPath(opts.cairnHome);
  let text: string | undefined;
  try {
    text = await readTextFile(file);
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}; the default model was not saved`);
  }
  let data: Record<string, unknown> = {};
  if (text !== undefined && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`${file}: not valid JSON (${(error as Error).message}); the default model was not saved: fix the file first`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`${file}: must hold a JSON object ({...}); the default model was not saved`);
    }
    data = parsed as Record<string, unknown>;
  }
  const next = { ...data, defaultProvider: opts.provider, model: opts.model };
  await writeFileAtomically(file, `${JSON.stringify(next, null, 2)}\n`);
  // What was written must load at the next start; if not, the file goes back as it was.
  try {
    loadProviderConfig(opts.cairnHome);
  } catch (error) {
    if (text === undefined) await rm(file, { force: true });
    else await writeFileAtomically(file, text);
    throw new ConfigError(`${(error as Error).message}\n(the default model was not saved; ${file} is as it was)`);
  }
  const overriddenBy = ['CAIRN_PROVIDER', 'CAIRN_MODEL'].filter((name) => (opts.env[name] ?? '').trim() !== '');
  return { file, overriddenBy };
}
