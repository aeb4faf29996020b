// Step 2: streaming. Print each text_delta as it arrives instead of waiting for the whole message.
import { defaultIo, type StepIo } from './learn-kit.js';

export async function main(io: StepIo = defaultIo()): Promise<number> {
  let deltas = 0;
  for await (const event of io.model.stream({
    model: io.model.model,
    system: 'You are a helpful assistant.',
    // The offline model streams that many words of markdown; a real model writes a short poem.
    messages: [{ role: 'user', content: [{ type: 'text', text: io.model.offline ? 'stream 30' : 'Write four lines about cairns.' }] }],
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
  })) {
    if (event.type === 'text_delta') {
      deltas++;
      io.write(event.text);
    } else if (event.type === 'usage') {
      io.write(`\n[usage: ${event.usage.input_tokens} in, ${event.usage.output_tokens} out]`);
    }
  }
  io.write(`\n[${deltas} text deltas]\n`);
  return deltas;
}
