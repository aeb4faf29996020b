import { afterEach, describe, expect, it } from 'vitest';
import { STATIC_PROMPT } from '../../../src/context/system-prompt.js';
import { closeRecordedSessions, recordedSession } from '../../helpers/recorded-session.js';

afterEach(closeRecordedSessions);

describe('the system prompt a session sends', () => {
  it('tells the model how answers are shown, to report faithfully, the git policy, path:line, and to ask before outward actions', async () => {
    const { runtime } = await recordedSession();
    const prompt = await runtime.systemPrompt();
    const facts: [string, RegExp][] = [
      ['answers are Markdown in a terminal', /Markdown in a terminal/],
      ['tool output is folded: quote what matters', /sees each tool call folded[^\n]*quote those lines/],
      ['never claim tests pass unrun', /Say tests pass only after running them/],
      ['failures shown as they are', /show a failure or an error as it happened/],
      ['commit only when asked', /Commit only when the user asks/],
      ['no amend or force-push unasked', /never amend, rebase or force-push unless asked/],
      ['no secrets committed', /Never commit secrets/],
      ['show what was committed', /After a commit, show what went in/],
      ['path:line references', /path:line/],
      ['outward actions need the user', /needs the user's say first: pushing, publishing[^\n]*sending messages, deleting outside the workspace/],
      ['check a target before overwriting it', /Before you overwrite[^\n]*look at what is there now/],
    ];
    for (const [fact, pattern] of facts) expect(prompt, fact).toMatch(pattern);
    // They are in the static part, which opens the prompt.
    expect(prompt.startsWith(STATIC_PROMPT)).toBe(true);
    for (const [fact, pattern] of facts) expect(STATIC_PROMPT, fact).toMatch(pattern);
  });

  it('opens every request with the same static part, byte for byte, across turns and a mode change', async () => {
    const { runtime, requests } = await recordedSession();
    await runtime.session.run('read a.txt');
    await runtime.session.run('hello');
    runtime.session.setMode('plan');
    await runtime.session.run('hello again');
    // read a.txt: the call, then the answer; then one request per chat prompt.
    expect(requests).toHaveLength(4);
    const [first, second] = requests;
    // Two turns with nothing changed between them: the whole system prompt is the same (cacheable).
    expect(second?.system).toBe(first?.system);
    for (const request of requests) expect(request.system.slice(0, STATIC_PROMPT.length)).toBe(STATIC_PROMPT);
    // The mode change shows after the static part only.
    expect(requests[3]?.system).toMatch(/Permission mode: plan/);
    expect(requests[3]?.system).not.toBe(first?.system);
  });
});
