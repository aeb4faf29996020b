// Loads real Ink the way it behaves on a user's terminal, and a stdin it accepts.
import type * as Ink from 'ink';
import { PassThrough } from 'node:stream';

/**
 * Ink writes nothing until exit when it believes it runs in CI (is-in-ci reads the
 * environment once, at import), and chalk picks its colour level at import too.
 */
export async function loadInk(): Promise<typeof Ink> {
  const saved = { ...process.env };
  for (const key of Object.keys(process.env)) {
    if (key === 'CI' || key === 'CONTINUOUS_INTEGRATION' || key.startsWith('CI_')) delete process.env[key];
  }
  process.env['FORCE_COLOR'] = '3';
  try {
    return await import('ink');
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

export function fakeStdin(): NodeJS.ReadStream {
  return Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
  }) as unknown as NodeJS.ReadStream;
}
