import type { AttachmentBlock } from '../messages.js';

/** A prompt waiting for the running turn, with the images and PDFs that go with it. */
export interface QueuedPrompt {
  text: string;
  attachments?: readonly AttachmentBlock[];
}
