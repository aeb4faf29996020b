import type { Key } from 'ink';
import { useInput, useStdin } from 'ink';
import { useCallback, useEffect, useRef } from 'react';

export type KeyHandler = (input: string, key: Key, raw: string | undefined) => void;

/**
 * Ink's useInput, plus the raw sequence behind each event. Ink reports Backspace (0x7f) and
 * Delete (ESC[3~) both as `key.delete` with no text, and a read holding several control keys as
 * one event; only the raw bytes tell them apart. Ink emits each event to its listeners in the order
 * they subscribed: this listener subscribes first (its effect runs before useInput's), so the raw
 * bytes are recorded before the parsed key arrives, and cleared once used so they never go stale.
 */
export function useKeyInput(handler: KeyHandler): void {
  const { internal_eventEmitter: events } = useStdin();
  const raw = useRef<string | undefined>(undefined);
  useEffect(() => {
    const onRaw = (data: string): void => {
      raw.current = data;
    };
    events.on('input', onRaw);
    return () => {
      events.off('input', onRaw);
    };
  }, [events]);
  const onKey = useCallback(
    (input: string, key: Key) => {
      const bytes = raw.current;
      raw.current = undefined;
      handler(input, key, bytes);
    },
    [handler],
  );
  useInput(onKey);
}
