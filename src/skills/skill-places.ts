import { existsSync } from 'node:fs';
import path from 'node:path';
import { claudeHomeFrom } from '../settings/settings-layers.js';
import { cairnPackageRoot } from '../util/package-root.js';
import type { SkillSource } from './skill.js';

export interface Place {
  source: SkillSource;
  /** A folder, or (a plugin's custom path) one command file. */
  dir: string;
  /** A plugin's name: its skills and commands are `/<plugin>:<name>`. */
  namespace?: string;
}

/**
 * The `skills/` folder shipped with cairn, beside its package.json (see cairnPackageRoot), so it
 * works from any directory and after `npm install -g`.
 */
export function shippedSkillsDir(from?: string): string | undefined {
  const root = cairnPackageRoot(from);
  return root && existsSync(path.join(root, 'skills')) ? path.join(root, 'skills') : undefined;
}

export interface PlaceOptions {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  /** The shipped folder; found from the installed package when absent. */
  shippedDir?: string | undefined;
}

/** The five places skills come from, lowest precedence first: a later one replaces an earlier one of the same name. */
export function skillPlaces(opts: PlaceOptions): Place[] {
  const shipped = 'shippedDir' in opts ? opts.shippedDir : shippedSkillsDir();
  return [
    ...(shipped ? [{ source: 'cairn' as const, dir: shipped }] : []),
    { source: 'cairn-home', dir: path.join(opts.cairnHome, 'skills') },
    { source: 'claude-user', dir: path.join(claudeHomeFrom(opts.env), 'skills') },
    { source: 'claude-project', dir: path.join(opts.cwd, '.claude', 'skills') },
    { source: 'cairn-project', dir: path.join(opts.cwd, '.cairn', 'skills') },
  ];
}

/** The four places custom commands come from, lowest precedence first. */
export function commandPlaces(opts: Omit<PlaceOptions, 'shippedDir'>): Place[] {
  return [
    { source: 'cairn-home', dir: path.join(opts.cairnHome, 'commands') },
    { source: 'claude-user', dir: path.join(claudeHomeFrom(opts.env), 'commands') },
    { source: 'claude-project', dir: path.join(opts.cwd, '.claude', 'commands') },
    { source: 'cairn-project', dir: path.join(opts.cwd, '.cairn', 'commands') },
  ];
}

/** How /skills and the palette name a place: the folder as the user would type it. */
export function placeLabel(place: Place): string {
  switch (place.source) {
    case 'cairn':
      return 'cairn (built-in)';
    case 'cairn-home':
      return `${place.dir} (user)`;
    case 'claude-user':
      return `${place.dir} (user)`;
    case 'claude-project':
      return '.claude (project)';
    case 'cairn-project':
      return '.cairn (project)';
    case 'plugin':
      return place.namespace ? `plugin ${place.namespace} (${place.dir})` : `${place.dir} (plugin)`;
  }
}
