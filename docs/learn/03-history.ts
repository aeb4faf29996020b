// Step 3: history. The model remembers nothing; we send the whole conversation on every call.
import type { Message } from '../../src/messages.js';
import { defaultIo, type StepIo } from './learn-kit.js';

export async function main(io: StepIo = defaultIo()): Promise<Message[]> {
  const history: Message[] = [];
  for (const prompt of ['My name is Ada.', 'What is my name?']) {
    history.push({ role: 'user', content: [{ type: 'text', text: prompt }] });
    io.write(`> ${prompt}   (sending ${history.length} message${history.length === 1 ? '' : 's'})\n`);
    for await (const event of io.model.stream({
      model: io.model.model,
      system: 'You are a helpful assistant. Answer briefly.',
      messages: history,
      tools: [],
      maxTokens: 1024,
      signal: new AbortController().signal,
    })) {
      if (event.type === 'text_delta') io.write(event.text);
      // The assistant's answer joins the history, so the next call sees it.
      if (event.type === 'message') history.push(event.message);
    }
    io.write('\n');
  }
  io.write(`[history: ${history.map((m) => m.role).join(', ')}]\n`);
  return history;
}
