import { describe, expect, it } from 'vitest';
import { DisposalStack } from '../../../src/util/disposal-stack.js';

describe('DisposalStack', () => {
  it('undoes in reverse, once; an undo that throws does not stop the rest and is named', () => {
    const stack = new DisposalStack();
    const done: string[] = [];
    stack.defer('screen', () => done.push('screen'));
    stack.defer('store', () => {
      throw new Error('store broke');
    });
    stack.defer('session', () => done.push('session'));
    const failures: string[] = [];
    stack.dispose((name, error) => failures.push(`${name}: ${(error as Error).message}`));
    stack.dispose();
    expect(done).toEqual(['session', 'screen']);
    expect(failures).toEqual(['store: store broke']);
    expect(stack.isDisposed).toBe(true);
  });

  it('without a handler, the failures are thrown together after every undo ran; one deferred after dispose runs at once', () => {
    const stack = new DisposalStack();
    const done: string[] = [];
    stack.defer('a', () => {
      throw new Error('a broke');
    });
    stack.defer('b', () => done.push('b'));
    expect(() => stack.dispose()).toThrow(/undoing a failed/);
    expect(done).toEqual(['b']);
    stack.defer('late', () => done.push('late'));
    expect(done).toEqual(['b', 'late']);
  });
});
