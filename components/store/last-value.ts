// Remembers the last value computed and the inputs it was computed from: a row the painter draws
// every frame (the prompt box, the status bar) is built again only when what it shows from changed.

export type Inputs = readonly unknown[];

/** The same inputs, compared one by one with Object.is. */
export function sameInputs(a: Inputs | undefined, b: Inputs): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** `get(inputs, compute)`: the last value when `inputs` are the same as last time, else `compute()`. */
export function lastValue<T>(): (inputs: Inputs, compute: () => T) => T {
  let last: { inputs: Inputs; value: T } | undefined;
  return (inputs, compute) => {
    if (last && sameInputs(last.inputs, inputs)) return last.value;
    const value = compute();
    last = { inputs, value };
    return value;
  };
}
