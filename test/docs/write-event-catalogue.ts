import fs from 'node:fs';
import path from 'node:path';
import { eventCatalogue } from './event-catalogue.js';

// `npm run docs:events`: rewrites docs/events.md from src/events.ts. Run from the repository root.
const root = process.cwd();
const out = path.join(root, 'docs/events.md');
fs.writeFileSync(out, eventCatalogue(fs.readFileSync(path.join(root, 'src/events.ts'), 'utf8')));
process.stdout.write(`wrote ${path.relative(root, out)}\n`);
