/** The command of a `!` prompt (shell mode), or undefined when the prompt is for the model. */
export function shellCommandOf(text: string): string | undefined {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('!')) return undefined;
  const command = trimmed.slice(1).trim();
  return command === '' ? undefined : command;
}
