// The mode's words live with the modes (src/permission-modes.ts): the page's server says them too.
export { modeLabel } from '../src/permission-modes.js';
