// The session file's format. Its lines are the engine's events, so changing an event's shape
// changes the format: bump SESSION_FORMAT_VERSION, add the migration from the previous version
// below, and keep a file written by the previous release in test/fixtures/sessions/ (the golden
// files test loads each one). Format 1 is the first released one; nothing has migrated yet.

export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
  type: 'session_header';
  version: number;
  id: string;
  cwd: string;
  created: string;
}

/** Rewrites one record written at format `n` into its format `n + 1` shape. Pure: no I/O. */
export type RecordMigration = (record: Record<string, unknown>) => Record<string, unknown>;

/** MIGRATIONS[n] takes a record from format n to n + 1. */
export const MIGRATIONS: Readonly<Record<number, RecordMigration>> = {};

/** Why a file of this version cannot be read by this cairn, or undefined when it can. */
export function unreadableVersion(
  version: unknown,
  current: number = SESSION_FORMAT_VERSION,
  migrations: Readonly<Record<number, RecordMigration>> = MIGRATIONS,
): string | undefined {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return `has no valid format version (${JSON.stringify(version)})`;
  if (version > current) return `written by a newer cairn (format ${version}, this cairn reads up to ${current}); upgrade cairn to open it`;
  for (let v = version; v < current; v++) {
    if (!migrations[v]) return `is format ${version} and this cairn has no migration from format ${v}`;
  }
  return undefined;
}

/** A record as today's schema expects it: each migration from `version` up to `current`, in order. */
export function migrateRecord(
  record: unknown,
  version: number,
  current: number = SESSION_FORMAT_VERSION,
  migrations: Readonly<Record<number, RecordMigration>> = MIGRATIONS,
): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  let out = record as Record<string, unknown>;
  for (let v = version; v < current; v++) {
    const step = migrations[v];
    if (step) out = step(out);
  }
  return out;
}
