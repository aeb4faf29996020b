import { useSyncExternalStore } from 'react';
import type { StatusLineText } from './status-line.js';

/** The user's statusLine command's latest line, or undefined (none configured, or no output yet). */
export function useStatusLineText(line: StatusLineText | undefined): string | undefined {
  return useSyncExternalStore(line?.subscribe ?? noSubscribe, line?.get ?? nothing);
}
const noSubscribe = (): (() => void) => () => undefined;
const nothing = (): undefined => undefined;
