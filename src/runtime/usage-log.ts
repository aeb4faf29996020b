import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent } from '../events.js';
import { usageIn } from '../usage-events.js';
import { errorMessage } from '../util/error-message.js';

/** Appends each model call's usage to $CAIRN_HOME/usage.jsonl; a failure is reported, not thrown. */
export function createUsageLog(cairnHome: string, meta: () => { session: string; provider: string; model: string }, now: () => Date, onError: (message: string) => void) {
  const file = path.join(cairnHome, 'usage.jsonl');
  let chain: Promise<void> = fs.mkdir(cairnHome, { recursive: true }).then(() => undefined);
  return (event: AgentEvent): void => {
    for (const u of usageIn(event)) {
      const m = meta();
      const line = JSON.stringify({ ts: now().toISOString(), session: m.session, provider: m.provider, model: u.model ?? m.model, ...u.usage });
      chain = chain.then(() => fs.appendFile(file, `${line}\n`)).catch((error: unknown) => onError(`Could not append to ${file}: ${errorMessage(error)}`));
    }
  };
}
