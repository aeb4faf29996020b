// Applies a PermissionRequest hook's `updatedPermissions` once its allow has answered the prompt, as
// if you had picked the matching answer: rules for the session ("a"), rules written into cairn's
// settings file of that scope with every other byte kept (as "p" and /permissions add), a mode
// (as Shift+Tab), working folders. A rule a hook adds is one more rule: deny rules, ask rules and
// protected paths come before allow rules in the chain, so it cannot reach past them.
//
// What a hook may do depends on where it was read. Any hook (a project's, a plugin's, yours): add
// allow, ask or deny rules for the session or to the project's local or shared file (the project
// could write those files itself); take out allow rules (which only narrows); switch to default,
// acceptEdits, plan, dontAsk or (with a classifier) auto for this session. Only a hook in your own
// settings ($CAIRN_HOME, ~/.claude, --settings): write rules into your user settings, add working
// folders. No hook: set bypassPermissions (cairn enters it only when started in it), take out a deny
// or ask rule, replace rules. Anything refused or malformed is a notice naming the hook's file.
import { notice, type AgentEvent, type PermissionMode } from '../events.js';
import type { HookDefinition } from '../hooks/hook-types.js';
import { readPermissionUpdates, type PermissionUpdate } from '../hooks/permission-updates.js';
import { parseRule } from '../permissions/rules/parse.js';
import type { PermissionChecker } from '../permissions/types.js';
import { errorMessage } from '../util/error-message.js';
import fs from 'node:fs/promises';

const SCOPE = { localSettings: 'local', projectSettings: 'project', userSettings: 'user' } as const;

interface UpdateContext {
  permissions: PermissionChecker;
  /** Auto mode's classifier: without one, auto mode cannot be switched to. */
  classifier?: unknown;
}

const plural = (n: number, word: string): string => `${word}${n === 1 ? '' : 's'}`;

export async function* applyPermissionUpdates(raw: unknown, hook: HookDefinition, ctx: UpdateContext): AsyncGenerator<AgentEvent, void> {
  const who = `The PermissionRequest hook in ${hook.source} (${hook.key})`;
  const { updates, problems } = readPermissionUpdates(raw);
  for (const p of problems) yield notice('warning', `${who}: ${p}; ignored.`, 'hook');
  for (const update of updates) {
    try {
      for (const line of await applyOne(update, hook, ctx)) {
        if (line.mode !== undefined) yield { type: 'mode_change', mode: line.mode };
        yield notice(line.refused ? 'warning' : 'info', `${who}${line.refused ? `: ${line.at ?? update.at}: ` : ' '}${line.text}`, 'hook');
      }
    } catch (error) {
      yield notice('warning', `${who}: ${update.at}: ${errorMessage(error)}; ignored.`, 'hook');
    }
  }
}

/** One thing told about an update: done, or refused (`at`: a field of it, when the refusal is about one). */
type Line = { text: string; refused?: boolean; at?: string; mode?: PermissionMode };

const OWN = 'only a hook in your own settings ($CAIRN_HOME/settings.json, ~/.claude/settings.json, --settings) may';

async function applyOne(update: PermissionUpdate, hook: HookDefinition, ctx: UpdateContext): Promise<Line[]> {
  const own = hook.userOwned === true;
  const refused = (text: string): Line[] => [{ text: `${text}.`, refused: true }];
  const { permissions } = ctx;
  switch (update.type) {
    case 'setMode': {
      if (update.mode === 'bypassPermissions') return refused('setMode bypassPermissions is not applied: cairn enters bypassPermissions only when started in it, never by a hook');
      if (update.mode === 'auto' && ctx.classifier === undefined) return refused('setMode auto is not applied: auto mode needs a model for its classifier');
      if (update.mode === permissions.mode) return [];
      permissions.setMode(update.mode);
      const saved = update.destination === 'session' ? '' : ` (for this session: cairn does not write a mode a hook sets to ${update.destination})`;
      return [{ text: `switched to ${update.mode} mode${saved}.`, mode: update.mode }];
    }
    case 'addDirectories': {
      if (!own) return refused(`addDirectories is not applied: ${OWN} add working folders`);
      for (const dir of update.directories) {
        const isDir = await fs.stat(dir).then((s) => s.isDirectory(), () => false);
        if (!isDir) return refused(`addDirectories is not applied: ${dir} is not an existing folder`);
      }
      if (!permissions.addDirectories) return refused('addDirectories is not applied: working folders cannot be added here');
      permissions.addDirectories(update.directories);
      const saved = update.destination === 'session' ? '' : ` (not written to ${update.destination}: cairn's working folders in files come from you)`;
      return [{ text: `added the working ${plural(update.directories.length, 'folder')} ${update.directories.join(', ')} for this session${saved}.` }];
    }
    case 'removeRules': {
      if (update.behavior !== 'allow') return refused(`removeRules of ${update.behavior} rules is not applied: a hook never takes out a deny or ask rule`);
      if (!permissions.removeRule) return refused('removeRules is not applied: rules cannot be removed here');
      const lines: Line[] = [];
      for (const rule of update.rules) {
        const removed = await permissions.removeRule('allow', rule);
        const from = [...removed.removedFrom, ...removed.notInAFile];
        lines.push({ text: from.length > 0 ? `took out the allow rule ${rule} (${removed.removedFrom.join(', ') || 'nowhere'}${removed.notInAFile.length > 0 ? `; it stays in ${removed.notInAFile.join(', ')}` : ''}).` : `asked to take out the allow rule ${rule}, which is not in force.` });
      }
      return lines;
    }
    case 'addRules': {
      if (update.destination === 'userSettings' && !own) return refused(`addRules to userSettings is not applied: ${OWN} change your user settings`);
      const lines: Line[] = [];
      const good: string[] = [];
      update.rules.forEach((rule, i) => {
        try {
          parseRule(rule);
          good.push(rule);
        } catch (error) {
          lines.push({ text: `${errorMessage(error)}; ignored.`, refused: true, at: `${update.at}.rules[${i}]` });
        }
      });
      if (good.length === 0) return lines;
      if (update.destination === 'session') {
        permissions.addSessionRules(good, update.behavior);
        return [...lines, { text: `added the ${update.behavior} ${plural(good.length, 'rule')} ${good.join(', ')} for this session.` }];
      }
      if (!permissions.addRule) return [...lines, ...refused(`addRules to ${update.destination} is not applied: rules cannot be saved here`)];
      for (const rule of good) {
        const { added, file } = await permissions.addRule(update.behavior, rule, SCOPE[update.destination]);
        lines.push({ text: added ? `added the ${update.behavior} rule ${rule} to ${file}.` : `asked for the ${update.behavior} rule ${rule}, which ${file} has already.` });
      }
      return lines;
    }
  }
}
