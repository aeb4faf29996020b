// `extraKnownMarketplaces` in settings (Claude Code's key): marketplaces a settings file names, by
// name, with where to fetch them: `{"team-tools": {"source": {"source": "github", "repo": "org/x"}}}`
// (also `"git"` with `url`, `"directory"` with `path`). They are added when a plugin of theirs is
// installed. A folder's own files name one only once the folder is trusted (trusted-layers.ts
// withholds the key, and the trust question lists the names).
import path from 'node:path';
import { claudeHomeFrom, readSettingsLayers } from '../settings/settings-layers.js';
import { layersInForce } from '../settings/trusted-layers.js';
import { isWorkspaceTrusted } from '../settings/workspace-trust.js';
import type { MarketplaceSource } from './plugin-store.js';

export interface ExtraMarketplace {
  source: MarketplaceSource;
  /** The settings file that named it. */
  file: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sourceOf(value: unknown, base: string): MarketplaceSource | string {
  const source = isObject(value) ? value['source'] : undefined;
  if (!isObject(source)) return 'expected {"source": {"source": "github", "repo": "owner/repo"}} (or "git" with "url", "directory" with "path")';
  if (source['source'] === 'github' && typeof source['repo'] === 'string') return { source: 'github', repo: source['repo'] };
  if ((source['source'] === 'git' || source['source'] === 'url') && typeof source['url'] === 'string') return { source: 'git', url: source['url'] };
  if (source['source'] === 'directory' && typeof source['path'] === 'string') return { source: 'directory', path: path.resolve(base, source['path']) };
  return `source ${JSON.stringify(source['source'])} is not one cairn fetches ("github", "git" or "directory")`;
}

/** The marketplaces the settings in force name; problems name the file and key. */
export async function extraMarketplaces(at: { cwd: string; cairnHome: string; env: NodeJS.ProcessEnv; trusted?: boolean }): Promise<{ marketplaces: Map<string, ExtraMarketplace>; problems: string[] }> {
  const claudeHome = claudeHomeFrom(at.env);
  const trusted = at.trusted ?? (await isWorkspaceTrusted({ workspace: at.cwd, cairnHome: at.cairnHome, claudeHome }));
  const { layers } = layersInForce((await readSettingsLayers({ workspace: at.cwd, cairnHome: at.cairnHome, claudeHome })).layers, trusted);
  const marketplaces = new Map<string, ExtraMarketplace>();
  const problems: string[] = [];
  for (const layer of layers) {
    const value = layer.data['extraKnownMarketplaces'];
    if (value === undefined) continue;
    if (!isObject(value)) {
      problems.push(`${layer.file}: extraKnownMarketplaces: expected {"<name>": {"source": {...}}}; not used`);
      continue;
    }
    // A directory path is relative to the workspace for a folder's files, to the current folder for the user's.
    for (const [name, entry] of Object.entries(value)) {
      const source = sourceOf(entry, at.cwd);
      if (typeof source === 'string') problems.push(`${layer.file}: extraKnownMarketplaces.${name}: ${source}; not used`);
      else marketplaces.set(name, { source, file: layer.file });
    }
  }
  return { marketplaces, problems };
}
