import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../../src/events.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { describeCall, genericCallView } from '../../../src/tools/call-view.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createExitPlanModeTool } from '../../../src/tools/exit-plan-mode.js';
import { defineTool } from '../../../src/tools/tool.js';
import * as z from 'zod';

describe('a tool describes its own calls', () => {
  it('bash: the description the model wrote is the title, the command is what an approval is about', () => {
    const bash = createBashTool();
    expect(describeCall(bash, { command: "node src/cli.js '2 weeks 3d'", description: 'Parse a duration' })).toEqual({
      title: 'Parse a duration',
      subject: { kind: 'command', command: "node src/cli.js '2 weeks 3d'" },
    });
    // No description: the command's first line.
    expect(describeCall(bash, { command: '\ncd src\nnpm test' }).title).toBe('cd src');
  });

  it('edits are about their path, a plan about the plan', () => {
    expect(describeCall(createEditFileTool(), { path: 'a.ts', old_string: 'x', new_string: 'y' })).toEqual({ title: 'a.ts', subject: { kind: 'path', path: 'a.ts' } });
    const plan = describeCall(createExitPlanModeTool({ mode: 'plan', setMode: () => undefined }), { plan: '# Fix the parser\n\n1. ...' });
    expect(plan).toEqual({ title: 'Fix the parser', subject: { kind: 'plan', plan: '# Fix the parser\n\n1. ...' } });
  });

  it('an MCP tool (no describe), a throwing describe or input that does not fit get the generic view, never an empty title', () => {
    expect(genericCallView({ owner: 'a', repo: 'b' })).toEqual({ title: 'a', subject: { kind: 'input' } });
    expect(genericCallView({ n: 3 }).title).toBe('{"n":3}');
    expect(genericCallView({}).title).toBe('(no arguments)');
    const throwing = defineTool({ name: 't', description: '', inputSchema: z.object({ q: z.string() }), kind: 'read', describe: () => { throw new Error('boom'); }, call: async () => ({ content: '' }) });
    expect(describeCall(throwing, { q: 'find me' })).toEqual({ title: 'find me', subject: { kind: 'input' } });
    const empty = defineTool({ name: 't', description: '', inputSchema: z.object({ q: z.string() }), kind: 'read', describe: () => ({ title: ' ', subject: { kind: 'input' } }), call: async () => ({ content: '' }) });
    expect(describeCall(empty, { q: 'x' }).title).toBe('x');
    expect(describeCall(createBashTool(), { cmd: 'ls' }).title).toBe('ls');
  });

  it('session files: a tool_start without a view still loads, a malformed view is dropped, not the event', () => {
    const old = { type: 'tool_start', id: 't1', name: 'bash', input: { command: 'ls' }, parallel: false, batch: 1 };
    expect(AgentEventSchema.parse(old)).toEqual(old);
    const bad = AgentEventSchema.parse({ ...old, view: { title: 3 } });
    expect(bad).toEqual(old);
    const good = { ...old, view: { title: 'ls', subject: { kind: 'command', command: 'ls' } } };
    expect(AgentEventSchema.parse(good)).toEqual(good);
  });
});
