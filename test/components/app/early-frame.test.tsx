import { afterEach, describe, expect, it } from 'vitest';
import { earlyFrameLines } from '../../../components/app/early-frame.js';
import { openingActions } from '../../../components/app/startup-notices.js';
import { stripAnsi } from '../../../components/theme/ansi.js';
import { createRig } from '../../helpers/tui-rig.js';

const rigs: Awaited<ReturnType<typeof createRig>>[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) rig.cleanup();
});

describe('the early first frame', () => {
  it('is the frame the app draws first: same header, prompt box and status row in the same rows', async () => {
    for (const [columns, rows] of [[120, 40], [80, 24], [60, 16]] as const) {
      const rig = await createRig({ columns, rows });
      rigs.push(rig);
      // What startSessionUi puts in the store before the app's first frame.
      const problems = ['.claude/settings.json: "permissions.allow" must be a list; ignored'];
      for (const action of openingActions({ startupNotices: problems }, rig.session, Date.now())) rig.store.dispatch(action);
      await rig.waitFrame((f) => f.includes('No provider configured'));
      const early = earlyFrameLines({ session: rig.session, startupNotices: problems, cwd: rig.dir, themeName: 'dark', now: () => Date.now() }, columns, rows).map((l) => stripAnsi(l).trimEnd());
      const app = rig.frame().split('\n').map((l) => l.trimEnd());
      expect(early).toHaveLength(rows - 1);
      expect(early).toEqual(app);
      expect(early.at(-3)).toContain('Ask cairn');
      expect(early.join('\n')).toContain('No provider configured');
      expect(early.join('\n')).toContain('must be a list');
    }
  });
});
