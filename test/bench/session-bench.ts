import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../src/events.js';
import { loadSession } from '../../src/session/session-loader.js';
import { SessionWriter } from '../../src/session/session-writer.js';

/** One exchange as the loop records it: prompt, a tool call, its result, the answer. */
export function exchangeEvents(i: number): AgentEvent[] {
  return [
    { type: 'user_prompt', text: `prompt ${i}: read file ${i}` },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `f${i}.txt` } }] } },
    { type: 'tool_start', id: `t${i}`, name: 'read_file', input: { path: `f${i}.txt` }, parallel: false, batch: i },
    { type: 'tool_result', id: `t${i}`, name: 'read_file', content: `     1\tline of file ${i}\n     2\tanother line`, is_error: false, duration_ms: 1 },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `File ${i} has 2 lines.` }] } },
  ];
}

/** Writes a session of `messages` messages (4 per exchange) and returns its file. */
export async function writeSession(dir: string, id: string, messages: number): Promise<string> {
  const file = path.join(dir, `${id}.jsonl`);
  const w = SessionWriter.create(file, { id, cwd: dir, created: new Date().toISOString() });
  for (let i = 0; i < messages / 4; i++) for (const e of exchangeEvents(i)) w.append(e);
  w.close();
  return file;
}

/** Append cost per message at the start and at the end of a 10,000-message file; load time. */
export async function benchSessions(): Promise<{ firstAppendUs: number; lastAppendUs: number; load10kMs: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sbench-'));
  const file = path.join(dir, 's.jsonl');
  const w = SessionWriter.create(file, { id: 's', cwd: dir, created: new Date().toISOString() });
  const exchanges = 2500; // 10,000 messages
  const perExchange: number[] = [];
  for (let i = 0; i < exchanges; i++) {
    const t = process.hrtime.bigint();
    for (const e of exchangeEvents(i)) w.append(e);
    perExchange.push(Number(process.hrtime.bigint() - t) / 1000 / 4);
  }
  w.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const t = performance.now();
  const loaded = await loadSession(file);
  const load10kMs = performance.now() - t;
  if (loaded.messages.length !== 10_000) throw new Error(`expected 10,000 messages, got ${loaded.messages.length}`);
  await fs.rm(dir, { recursive: true, force: true });
  return { firstAppendUs: median(perExchange.slice(0, 250)), lastAppendUs: median(perExchange.slice(-250)), load10kMs };
}
