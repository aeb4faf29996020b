// Shared by the docs/learn steps: which model to talk to, where output goes, a scratch workspace.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createOfflineProvider } from '../../src/providers/offline.js';
import type { ModelProvider } from '../../src/providers/provider.js';

export interface StepIo {
  /** Where the step prints (stdout when run, a buffer in test/docs/learn.test.ts). */
  write: (text: string) => void;
  model: ModelProvider;
}

/** The offline scripted model, or Claude when ANTHROPIC_API_KEY is set. */
export function pickModel(env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const apiKey = env['ANTHROPIC_API_KEY'];
  if (apiKey) return createAnthropicProvider({ apiKey, model: env['CAIRN_MODEL'] ?? 'claude-sonnet-5-5' });
  return createOfflineProvider();
}

export function defaultIo(): StepIo {
  return { write: (text) => process.stdout.write(text), model: pickModel() };
}

/** A throwaway project folder with a few small files, so a step never touches your clone. */
export function sampleWorkspace(files: Record<string, string> = SAMPLE_FILES): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-learn-')));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

export const SAMPLE_FILES: Record<string, string> = {
  'notes.txt': 'Buy milk\nFix the flaky test\n',
  'a.txt': 'alpha\n',
  'b.txt': 'beta\n',
  'AGENTS.md': 'This project is a shopping list. Answer in one sentence.\n',
};
