/** The `code` of a Node system error (`ENOENT`), if it has one. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

export function isErrno(err: unknown, code: string): boolean {
  return errnoCode(err) === code;
}
