import * as z from 'zod';
import type { MessageBus } from '../team/message-bus.js';
import type { Team } from '../team/team.js';
import { defineTool, type AnyTool } from './tool.js';
import { errorMessage } from '../util/error-message.js';

const fail = (error: unknown) => ({ content: errorMessage(error), isError: true });

/** send_message and read_inbox for the agent called `me`. */
export function createMessagingTools(bus: MessageBus, me: string): AnyTool[] {
  return [
    defineTool({
      name: 'send_message',
      description: me === 'lead'
        ? 'Sends a message to a teammate by name (you are "lead", who started them). It lands in their inbox and wakes them if idle.'
        : 'Sends a message to a teammate by name, or to "lead" (the agent that started you and reports to the user). It lands in their inbox and wakes them if idle.',
      inputSchema: z.object({ to: z.string().describe('The recipient name'), text: z.string().describe('The message') }),
      kind: 'other',
      effects: () => 'session',
      async call(input) {
        try {
          const m = await bus.send(me, input.to, input.text);
          return { content: `Sent to ${m.to}.` };
        } catch (error) {
          return fail(error);
        }
      },
    }),
    defineTool({
      name: 'read_inbox',
      description: 'Reads the messages that arrived in your inbox since you last read it.',
      inputSchema: z.object({}),
      kind: 'read',
      effects: () => 'session',
      async call() {
        try {
          const mail = await bus.read(me);
          return { content: mail.length ? mail.map((m) => `[${m.ts}] ${m.from}: ${m.text}`).join('\n') : 'No new messages.' };
        } catch (error) {
          return fail(error);
        }
      },
    }),
  ];
}

export function createTeamSpawnTool(team: () => Team) {
  return defineTool({
    name: 'team_spawn',
    description: 'Starts a named teammate: a long-running agent of a given type that works in the background on its instructions and talks through send_message / read_inbox.',
    inputSchema: z.object({
      name: z.string().describe('A short unique name (letters, digits, - and _)'),
      type: z.string().describe('The agent type (see the agent tool)'),
      instructions: z.string().describe('What the teammate should do'),
    }),
    kind: 'other',
    async call(input) {
      try {
        const info = team().spawn(input.name, input.type, input.instructions);
        return { content: `Teammate ${info.name} (${info.type}) started.` };
      } catch (error) {
        return fail(error);
      }
    },
  });
}
