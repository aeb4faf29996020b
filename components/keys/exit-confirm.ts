/** A second Ctrl+C within this long exits (the status bar says so meanwhile). */
export const EXIT_CONFIRM_MS = 3000;
