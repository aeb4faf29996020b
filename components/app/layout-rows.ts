/** Small terminals drop the header and shrink the rest before the transcript loses its last row. */
export const HEADER_MIN_ROWS = 16;
