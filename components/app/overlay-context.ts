import { createContext } from 'react';
import type { LineOverlay } from '../terminal/line-overlay.js';

/** Set when the cell-diff writer draws the transcript rows itself (see terminal/line-overlay.ts). */
export const OverlayContext = createContext<LineOverlay | undefined>(undefined);
