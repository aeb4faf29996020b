import { memo } from 'react';
import { PinnedLines } from './PinnedLines.js';
import { planPanelLines } from './transcript/plan-lines.js';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { useTheme } from './theme/use-theme.js';

const selectPlan = (s: TuiState): TuiState['plan'] => s.plan;

/** The approved plan, pinned above the prompt box: its title line, or unfolded its text (capped). */
export const PlanPanel = memo(function PlanPanel({ store, width, maxRows }: { store: TuiStore; width: number; maxRows: number }) {
  const plan = useStoreSelector(store, selectPlan);
  const theme = useTheme(store);
  return <PinnedLines lines={planPanelLines(plan, width, theme, maxRows)} width={width} />;
});
