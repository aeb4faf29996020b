/**
 * Deny rules cairn ships with. They hold in every mode, bypassPermissions included: a model talked
 * into `rm -rf` or `sudo` is told to ask the user to run the command themselves. Only the setting
 * `permissions.liftBuiltinDeny: ["<id>"]` lifts one; no mode does.
 */
export interface BuiltinDenyRule {
  id: 'recursive-rm' | 'sudo';
  /** How /rules shows it. */
  text: string;
  /** What the model is told. */
  reason: string;
}

export const BUILTIN_DENY: readonly BuiltinDenyRule[] = [
  {
    id: 'recursive-rm',
    text: 'Bash(rm -r*) (built-in)',
    reason: 'cairn never runs a recursive rm itself; ask the user to run the command themselves if it is really wanted',
  },
  {
    id: 'sudo',
    text: 'Bash(sudo|doas|su *) (built-in)',
    reason: 'cairn never runs commands as another user (sudo, doas, su); ask the user to run the command themselves',
  },
];
