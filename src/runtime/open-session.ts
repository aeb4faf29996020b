// Start-up, phase 3 of 4: the session itself, recorded to its file from its first event, with the
// team and the listeners that follow it. It can be shown at once (the TUI's first frame); a turn
// waits for phase 4 (finishStartup), which `finish` runs.
import { notice, type PermissionMode } from '../events.js';
import type { SessionWriter } from '../session/session-writer.js';
import { StartingSession } from '../session/starting-session.js';
import { createDecisionLog, decisionLogFile } from '../session/decision-log.js';
import { SpendCap } from '../session/spend-cap.js';
import { createTeam, LEAD, type Team } from '../team/team.js';
import { permissionsForMode } from './permissions-from-options.js';
import { memoryDistiller } from './memory-distill.js';
import { compactThreshold } from './provider-setup.js';
import { followSession, leadMail, recordSession } from './session-wiring.js';
import type { Services } from './startup-services.js';

export interface OpenedSession {
  session: StartingSession;
  team: Team;
  writer?: SessionWriter;
  /** The system prompt for a mode and model. */
  system: (ctx: { mode: PermissionMode; model: string }) => Promise<string>;
}

/** The spending cap in force, having counted a resumed session's earlier calls (as the status row does). */
function spendCapFor(services: Services): SpendCap | undefined {
  const setting = services.facts.spendCap;
  if (!setting) return undefined;
  const cap = new SpendCap(setting, services.facts.sessionConfig.pricing);
  const said = (services.start.resumed?.events ?? []).flatMap((event) => cap.observe(event, services.provider.model));
  services.notices.push(...said);
  return cap;
}

/** `finish` is phase 4: the session runs it once, from finishStartup() or its first turn. */
export function openSession(services: Services, finish: (opened: OpenedSession) => Promise<void>): OpenedSession {
  const { options, cwd, cairnHome, now, start, promptSource, background, bus, disposals } = services;
  const system = async (ctx: { mode: PermissionMode; model: string }): Promise<string> => (await promptSource.build(ctx)).text;
  const parts: { opened?: OpenedSession } = {};
  const spendCap = spendCapFor(services);
  const finishOpened = (): Promise<void> => (parts.opened ? finish(parts.opened) : Promise.reject(new Error('start-up was finished before the session was open')));
  const decisions = createDecisionLog({
    ...(options.persist !== false ? { file: decisionLogFile(cairnHome, cwd, start.sessionId) } : {}),
    now,
    onProblem: services.reportProblem,
  });
  const session = new StartingSession(
    {
      decisions,
      provider: services.provider,
      tools: services.tools,
      permissions: services.permissions,
      cwd,
      env: options.env,
      hooks: services.hooks.runner,
      system,
      interactive: options.interactive,
      ...(options.answersQuestions === true ? { answersQuestions: true } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(start.resumed ? { history: start.resumed.messages, prompts: start.resumed.prompts } : {}),
      ...(services.checkpoints ? { checkpoints: services.checkpoints } : {}),
      compaction: {
        thresholdTokens: compactThreshold(options.env, services.resolved.contextWindow),
        // An episodic note and the memory updates the summary proposes, told in a notice.
        onCompacted: (result, trigger) => memoryDistiller(services).distill(result.summary, `compaction (${trigger}), ${result.summarisedCount} messages summarised`),
      },
      // After /model, the threshold follows the new model's window.
      compactionThreshold: (window) => compactThreshold(options.env, window),
      providerFor: services.providerFor,
      modelForPrompt: (text) => services.skills.current?.modelFor(text),
      sessionId: start.sessionId,
      continueOnMaxTokens: services.facts.sessionConfig.continueOnMaxTokens,
      reminders: async () => [...background.reminders(), ...leadMail(await bus.read(LEAD))],
      ...(spendCap ? { spendCap } : {}),
      ...(services.facts.settings.classifierModel !== undefined ? { classifierModel: services.facts.settings.classifierModel } : {}),
    },
    finishOpened,
  );
  services.ref.session = session;
  session.subscribe((event) => decisions.record(event));
  // The terminal's approval timeout (off unless config.json sets it); cairn serve sets the page's over it.
  session.setApprovalTimeout(services.facts.sessionConfig.approvalTimeoutSeconds.tui * 1000);
  // Recorded from the first event on; hooks read the file's path from here.
  const writer =
    options.persist !== false
      ? recordSession(session, { cairnHome, cwd, sessionId: start.sessionId, now, ...(start.resumeFile ? { resumeFile: start.resumeFile } : {}) })
      : undefined;
  if (writer && start.forkedFrom !== undefined && start.resumed) {
    // A fork's file starts with the history it continues, so it resumes whole on its own.
    for (const event of start.resumed.events) writer.append(event);
    writer.append(notice('info', `Forked from session ${start.forkedFrom}; that session is unchanged.`));
  }
  if (writer) {
    services.ref.file = writer.file;
    disposals.defer('session file', () => writer.close());
  }
  const team = createTeam({
    bus,
    definitions: () => services.agents.list,
    provider: services.modelProvider,
    tools: (name) => {
      if (!services.teammateTools) throw new Error('the tools are not available yet');
      return services.teammateTools(name);
    },
    permissions: (mode) => permissionsForMode({ cwd, cairnHome, permissions: services.permissions }, mode),
    ...(session.askChannel ? { ask: session.askChannel } : {}),
    emit: (event) => session.emit(event),
    cwd,
    environment: services.environment,
  });
  // Teammates stop before the session file closes: what they say on the way out is recorded.
  disposals.defer('team', () => team.abortAll());
  followSession(session, { todos: start.todos, cairnHome, sessionId: start.sessionId, now });
  parts.opened = { session, team, ...(writer ? { writer } : {}), system };
  return parts.opened;
}
