import path from 'node:path';
import { appendEpisodicEntry } from '../context/episodic-notes.js';
import { applyMemoryUpdates, describeMemoryUpdates, parseMemoryUpdates, type MemoryProposal } from '../context/memory-updates.js';
import type { PermissionChecker } from '../permissions/types.js';
import type { AnyTool } from '../tools/tool.js';
import type { Services } from './startup-services.js';

/**
 * What a summary of a session leaves behind: a dated episodic entry and the memory updates it
 * proposes, saved only where the memory tool's own save would be allowed without asking (its
 * rules, the permission mode); the rest are shown as proposals. Returns the lines to tell the user.
 * Used after compaction and by archival at start.
 */
export interface MemoryDistiller {
  distill(summary: string, heading: string): Promise<string[]>;
}

export function createMemoryDistiller(opts: {
  cwd: string;
  cairnHome: string;
  now: () => Date;
  permissions: Pick<PermissionChecker, 'check'>;
  /** The session's tools: the memory tool among them decides what may be saved. */
  tools: () => readonly AnyTool[];
}): MemoryDistiller {
  const allowed = async (proposal: MemoryProposal): Promise<boolean> => {
    const memory = opts.tools().find((t) => t.name === 'memory');
    if (!memory) return false;
    const input = { action: 'save', scope: proposal.target === 'user' ? 'user' : 'project', text: proposal.text };
    return (await opts.permissions.check(memory, input)).behavior === 'allow';
  };
  return {
    async distill(summary, heading) {
      const when = opts.now();
      const file = await appendEpisodicEntry(opts.cwd, when, heading, summary);
      const updates = await applyMemoryUpdates({ proposals: parseMemoryUpdates(summary), cairnHome: opts.cairnHome, cwd: opts.cwd, now: when, allowed });
      return [`Episodic note: ${path.relative(opts.cwd, file) || file}`, ...describeMemoryUpdates(updates)];
    },
  };
}

/** The session's distiller: its workspace, clock, permissions and tools. */
export function memoryDistiller(services: Pick<Services, 'options' | 'cwd' | 'cairnHome' | 'now' | 'permissions' | 'tools'>): MemoryDistiller {
  // --bare: auto-memory is off; nothing is written to the memory files or the episodic notes.
  if (services.options.bare === true) return { distill: async () => [] };
  return createMemoryDistiller({ cwd: services.cwd, cairnHome: services.cairnHome, now: services.now, permissions: services.permissions, tools: () => services.tools });
}
