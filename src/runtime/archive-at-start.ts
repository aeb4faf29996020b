// The start-up hook for archival (src/runtime/session-archival.ts): once background work starts
// (interactive sessions, after the screen subscribed), unless config.json says `archiveSessions: false`.
import { notice } from '../events.js';
import type { AgentSession } from '../session/agent-session.js';
import { memoryDistiller } from './memory-distill.js';
import { archiveEndedSessions } from './session-archival.js';
import type { Services } from './startup-services.js';

export function startArchival(services: Services, session: AgentSession): void {
  // --bare: no summaries of ended sessions (they would write memory).
  if (!services.facts.sessionConfig.archiveSessions || services.options.bare === true) return;
  const stop = new AbortController();
  services.disposals.defer('archival', () => stop.abort());
  void archiveEndedSessions({
    cairnHome: services.cairnHome,
    cwd: services.cwd,
    currentId: services.start.sessionId,
    provider: services.currentProvider(),
    distiller: memoryDistiller(services),
    now: services.now,
    signal: stop.signal,
    tell: (line) => session.emit(notice('info', line)),
  });
}
