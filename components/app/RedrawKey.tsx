import { useInput } from 'ink';
import { useCallback } from 'react';
import { is } from '../keys/keymap.js';

/**
 * Ctrl+L redraws the whole screen, whatever else has the keys (an approval, a dialog, the editor):
 * the way back when another program wrote over the frame. Renders nothing.
 */
export function RedrawKey({ redraw }: { redraw(): void }) {
  const onKey = useCallback((input: string, key: Parameters<Parameters<typeof useInput>[0]>[1]) => {
    if (is('redraw', input, key)) redraw();
  }, [redraw]);
  useInput(onKey);
  return null;
}
