import { attachmentChip } from '../attachments/attachment-label.js';
import { attachUserFile, namesAttachableFile, type UserFileRules } from '../attachments/attach-user-file.js';
import type { AttachmentBlock } from '../messages.js';
import { findMentions } from './expand-mentions.js';

/** The `@` mentions of a prompt that name images or PDFs, attached; or the problems that stop it being sent. */
export interface MentionedAttachments {
  blocks: AttachmentBlock[];
  /** Each attached mention and the chip that stands for it in the transcript. */
  chips: { mention: string; chip: string }[];
  /** One sentence per file that could not be attached, naming it and why. */
  problems: string[];
}

/**
 * Attaches the images and PDFs a prompt's `@path` mentions name (inside the workspace, outside
 * the user's Read deny rules, checked and scaled like read_file's). A mention naming nothing
 * stays plain text; text files are expand-mentions.ts's.
 */
export async function attachMentionedFiles(text: string, rules: Omit<UserFileRules, 'workspaceOnly'>): Promise<MentionedAttachments> {
  const out: MentionedAttachments = { blocks: [], chips: [], problems: [] };
  for (const mention of findMentions(text)) {
    if (!(await namesAttachableFile(mention.replace(/\\ /g, ' '), rules.root))) continue;
    const result = await attachUserFile(mention.replace(/\\ /g, ' '), { ...rules, workspaceOnly: true });
    if ('problem' in result) out.problems.push(result.problem);
    else {
      out.blocks.push(result.block);
      out.chips.push({ mention, chip: attachmentChip(result.block) });
    }
  }
  return out;
}

/** The prompt as the transcript shows it: each attached image or PDF mention as its chip. */
export function withAttachmentChips(text: string, chips: MentionedAttachments['chips']): string {
  let out = text;
  for (const { mention, chip } of chips) out = out.split(`@${mention}`).join(chip);
  return out;
}
