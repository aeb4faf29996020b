// What was set up, undone in reverse: each part registers its undo where it is created, so a
// teardown never depends on a hand-kept list staying in step with the setup above it.

export class DisposalStack {
  private readonly undos: Array<{ name: string; undo: () => void }> = [];
  private disposed = false;

  /** Registers `undo` (named for the error report); after dispose() it runs at once. */
  defer(name: string, undo: () => void): void {
    if (this.disposed) {
      runUndo({ name, undo }, undefined);
      return;
    }
    this.undos.push({ name, undo });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Undoes everything, last registered first, once. An undo that throws does not stop the rest:
   * `onError` hears it (named), else it is rethrown after the others have run.
   */
  dispose(onError?: (name: string, error: unknown) => void): void {
    if (this.disposed) return;
    this.disposed = true;
    const failures: Array<{ name: string; error: unknown }> = [];
    for (const entry of this.undos.splice(0).reverse()) runUndo(entry, (error) => failures.push({ name: entry.name, error }));
    if (failures.length === 0) return;
    if (onError) for (const f of failures) onError(f.name, f.error);
    else throw new AggregateError(failures.map((f) => f.error), `undoing ${failures.map((f) => f.name).join(', ')} failed`);
  }
}

function runUndo(entry: { name: string; undo: () => void }, onError: ((error: unknown) => void) | undefined): void {
  try {
    entry.undo();
  } catch (error) {
    if (!onError) throw error;
    onError(error);
  }
}
