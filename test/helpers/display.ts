import type { DisplayOf, ToolDisplay, ToolDisplayKind } from '../../src/tools/display.js';

/** A result's display if it is of this kind (undefined otherwise), typed for that kind. */
export function displayOf<K extends ToolDisplayKind>(result: { readonly display?: ToolDisplay | undefined }, kind: K): DisplayOf<K> | undefined {
  const d = result.display;
  return d?.kind === kind ? (d as DisplayOf<K>) : undefined;
}
