// The notices a fresh session opens with, in order: the runtime's start-up problems, then the
// offline model's hint. The store gets them before the first frame, and the early first frame
// (early-frame.ts) shows the same ones in the same rows.
import type { AgentSession } from '../../src/session/agent-session.js';

export const OFFLINE_NOTICE = 'No provider configured: using the offline scripted model. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see cairn --list-providers.';

export function startupNoticeList(startupNotices: readonly string[] | undefined, session: Pick<AgentSession, 'provider'>): { level: 'warning'; message: string }[] {
  const out = (startupNotices ?? []).map((message) => ({ level: 'warning' as const, message }));
  if (session.provider.offline === true) out.push({ level: 'warning', message: OFFLINE_NOTICE });
  return out;
}
