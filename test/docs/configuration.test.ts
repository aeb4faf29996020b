import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/configuration.md against the code: a flag, variable or settings key added without a line
// on the page fails here, naming it.
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');
const doc = read('docs/configuration.md');
const documented = (name: string): boolean => doc.includes(`\`${name}\``);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'web' && dir === 'components' ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}
const engineAndUi = [...sourceFiles('src'), ...sourceFiles('components')];

/** Flags the main parser accepts: the option names in parseArgs's `options`, with their short forms. */
function cliFlags(): string[] {
  const text = read('src/cli-args.ts');
  const block = /options: \{\n([\s\S]*?)\n\s{6}\},\n/.exec(text)?.[1];
  if (!block) throw new Error('src/cli-args.ts: the parseArgs options block was not found');
  return [...block.matchAll(/^\s*'?([\w-]+)'?: \{([^}]*)\}/gm)].flatMap((m) => {
    const short = /short: '(\w)'/.exec(m[2]!)?.[1];
    return [`--${m[1]}`, ...(short ? [`-${short}`] : [])];
  });
}

function serveFlags(): string[] {
  return [...read('src/serve/serve-command.ts').matchAll(/flag === '(-{1,2}[\w-]+)'/g)].map((m) => m[1]!);
}

/** Variables read as env['X'] / env.X / process.env.X, and names held as data ('X_API_KEY', 'CAIRN_X'). */
function envVariables(): string[] {
  const names = new Set<string>();
  for (const file of engineAndUi) {
    const text = read(file);
    for (const m of text.matchAll(/\benv\??(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g)) names.add((m[1] ?? m[2])!);
    for (const m of text.matchAll(/'((?:CAIRN_[A-Z0-9_]+)|(?:[A-Z0-9_]+_(?:API_KEY|BASE_URL)))'/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** Settings keys: the ones the loader accepts without a notice, and every key read off a settings layer. */
function settingsKeys(): string[] {
  const text = read('src/runtime/workspace-settings.ts');
  const set = (name: string): string[] => {
    const body = new RegExp(`const ${name} = new Set\\(\\[([\\s\\S]*?)\\]\\)`).exec(text)?.[1];
    if (!body) throw new Error(`src/runtime/workspace-settings.ts: ${name} was not found`);
    return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
  };
  const keys = new Set([...set('KNOWN_KEYS'), ...set('KNOWN_PERMISSION_KEYS').map((k) => `permissions.${k}`)]);
  for (const file of engineAndUi) {
    for (const m of read(file).matchAll(/\b(?:layer|l)\.data\[['"]([\w$]+)['"]\]/g)) keys.add(m[1]!);
  }
  const sandbox = read('src/sandbox/sandbox-settings.ts');
  const schema = /const LayerSchema = z\.looseObject\(\{([\s\S]*?)\n\}\);/.exec(sandbox)?.[1] ?? '';
  for (const m of schema.matchAll(/^ {2}(\w+): /gm)) keys.add(`sandbox.${m[1]!}`);
  for (const m of schema.matchAll(/^ {6}(\w+): /gm)) {
    const parent = /network|filesystem/.exec(schema.slice(0, m.index).split('\n').reverse().find((l) => /^ {2}\w+: z/.test(l)) ?? '')?.[0];
    keys.add(`sandbox.${parent ?? '?'}.${m[1]!}`);
  }
  // An object key is documented through its fields.
  return [...keys].filter((k) => ![...keys].some((other) => other.startsWith(`${k}.`)) || k === 'permissions' || k === 'sandbox').sort();
}

describe('configuration reference (docs/configuration.md)', () => {
  it('finds what it checks in the code', () => {
    expect(cliFlags()).toEqual(expect.arrayContaining(['--print', '-p', '--model', '--mcp-config', '--no-sandbox', '-c']));
    expect(serveFlags()).toEqual(expect.arrayContaining(['--port', '--host', '--token', '--open']));
    expect(envVariables()).toEqual(expect.arrayContaining(['CAIRN_HOME', 'ANTHROPIC_API_KEY', 'NO_COLOR', 'CAIRN_COMPACT_THRESHOLD']));
    expect(settingsKeys()).toEqual(expect.arrayContaining(['permissions.allow', 'sandbox.enabled', 'sandbox.network.allowedDomains', 'largeOutputThreshold']));
  });

  it('documents every command-line flag', () => {
    expect([...cliFlags(), ...serveFlags()].filter((f) => !documented(f))).toEqual([]);
  });

  it('documents every environment variable cairn reads', () => {
    expect(envVariables().filter((v) => !documented(v))).toEqual([]);
  });

  it('documents every settings key', () => {
    expect(settingsKeys().filter((k) => !documented(k))).toEqual([]);
  });

  it('gives the defaults the code uses', () => {
    const defaults: [string, string][] = [
      ['--max-turns', /DEFAULT_MAX_TURNS = (\d+)/.exec(read('src/loop/query.ts'))?.[1] ?? '?'],
      ['largeOutputThreshold', /DEFAULT_THRESHOLD = ([\d_]+)/.exec(read('src/tools/large-output.ts'))?.[1]?.replace(/_/g, '') ?? '?'],
      ['cleanupPeriodDays', /DEFAULT_CLEANUP_DAYS = (\d+)/.exec(read('src/runtime/large-output-setup.ts'))?.[1] ?? '?'],
    ];
    for (const [name, value] of defaults) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      expect(row, name).toContain(`| ${value} |`);
    }
  });
});
