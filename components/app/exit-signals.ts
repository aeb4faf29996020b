/** Signals that end the app, with the shell's exit code for each (128 + number). */
export const EXIT_SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGQUIT: 131, SIGTERM: 143 } as const;
export type ExitSignal = keyof typeof EXIT_SIGNALS;

export function isSignalExitCode(code: number): boolean {
  return Object.values(EXIT_SIGNALS).some((c) => c === code);
}
