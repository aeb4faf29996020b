import { createContext } from 'react';
import type { ScreenPainter } from './screen-painter.js';

/** Set when the frame writer is in use: the transcript, prompt and status rows are painted, not laid out by Ink. */
export const PainterContext = createContext<ScreenPainter | undefined>(undefined);
