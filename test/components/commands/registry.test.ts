import { describe, expect, it } from 'vitest';
import { builtinCommands } from '../../../components/commands/builtin.js';
import { nextMode } from '../../../src/permission-modes.js';
import { createCommandRegistry, parseSlash } from '../../../components/commands/registry.js';
import { editDistance } from '../../../src/util/edit-distance.js';

describe('command registry', () => {
  const registry = createCommandRegistry(builtinCommands());

  it('filters by name prefix, then by alias', () => {
    expect(registry.filter('m').map((c) => c.name)).toEqual(['mode', 'model']);
    expect(registry.filter('').length).toBe(registry.all().length);
    expect(registry.filter('quit').map((c) => c.name)).toEqual(['exit']);
  });

  it('finds by alias and suggests the closest name for a typo', () => {
    expect(registry.find('q')?.name).toBe('exit');
    expect(registry.closest('hlep')?.name).toBe('help');
    expect(registry.closest('usgae')?.name).toBe('usage');
    expect(registry.closest('zzzzzzzzzz')).toBeUndefined();
  });

  it('refuses a duplicate name', () => {
    expect(() => registry.register({ name: 'help', description: 'x', run: () => undefined })).toThrow('/help is registered twice');
  });

  it('parses a command line', () => {
    expect(parseSlash('/mode plan')).toEqual({ name: 'mode', args: 'plan' });
    expect(parseSlash('/help')).toEqual({ name: 'help', args: '' });
    expect(parseSlash('hello')).toBeUndefined();
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('cycles modes, auto after plan, with bypass only when the session started in it', () => {
    expect(nextMode('default', false)).toBe('acceptEdits');
    expect(nextMode('acceptEdits', false)).toBe('plan');
    expect(nextMode('plan', false)).toBe('auto');
    expect(nextMode('auto', false)).toBe('default');
    expect(nextMode('auto', true)).toBe('bypassPermissions');
    expect(nextMode('bypassPermissions', true)).toBe('default');
  });

  it('skips auto when there is no model for its classifier (offline)', () => {
    expect(nextMode('plan', false, false)).toBe('default');
    expect(nextMode('plan', true, false)).toBe('bypassPermissions');
  });

  it('dontAsk never cycles: Shift+Tab leaves it as it is (issue 15)', () => {
    expect(nextMode('dontAsk', false)).toBe('dontAsk');
    expect(nextMode('dontAsk', true)).toBe('dontAsk');
    for (const mode of ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions'] as const) expect(nextMode(mode, true)).not.toBe('dontAsk');
  });
});
