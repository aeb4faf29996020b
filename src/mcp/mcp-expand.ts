// `${VAR}` and `${VAR:-default}` in .mcp.json values, as Claude Code expands them. An unset variable
// without a default stays literal and is reported, so a missing token is visible instead of empty.

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands one value; each unset name without a default is passed to `onMissing`. */
export function expandVars(value: string, env: NodeJS.ProcessEnv, onMissing: (name: string) => void): string {
  return value.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (fallback !== undefined) return fallback;
    if (set === '') return '';
    onMissing(name);
    return whole;
  });
}

/** Expands every value of a string map (env, headers); keys are left alone. */
export function expandMap(map: Record<string, string>, env: NodeJS.ProcessEnv, onMissing: (name: string) => void): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, expandVars(v, env, onMissing)]));
}
