// npm run learn -- <step>: runs one docs/learn step (npm run learn alone lists them).
import * as s01 from './01-one-call.js';
import * as s02 from './02-streaming.js';
import * as s03 from './03-history.js';
import * as s04 from './04-system-prompt.js';
import * as s05 from './05-tool-loop.js';
import * as s06 from './06-skills.js';
import * as s07 from './07-todo-planning.js';
import * as s08 from './08-subagents.js';
import * as s09 from './09-permissions.js';
import * as s10 from './10-tui-store.js';

const steps: Record<string, [string, () => Promise<unknown>]> = {
  '1': ['one model call', () => s01.main()],
  '2': ['streaming', () => s02.main()],
  '3': ['history', () => s03.main()],
  '4': ['system prompt', () => s04.main()],
  '5': ['tool use loop', () => s05.main()],
  '6': ['skills', () => s06.main()],
  '7': ['todo planning', () => s07.main()],
  '8': ['subagents', () => s08.main()],
  '9': ['permissions', () => s09.main()],
  '10': ['the TUI store', () => s10.main()],
};

const wanted = String(Number(process.argv[2] ?? 'NaN'));
const step = steps[wanted];
if (!step) {
  process.stdout.write(`Usage: npm run learn -- <step>\n${Object.entries(steps).map(([n, [name]]) => `  ${n.padStart(2)}  ${name}`).join('\n')}\n`);
  process.exitCode = process.argv[2] === undefined ? 0 : 1;
} else {
  step[1]().catch((error: unknown) => {
    process.stderr.write(`Step ${wanted} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
