import { describe, expect, it } from 'vitest';
import { projectCommands } from '../../../src/providers/offline-init-commands.js';

const commands = (files: Record<string, string>, listing: string[] = Object.keys(files)) =>
  projectCommands({ listing, files: new Map(Object.entries(files)) }).map((c) => c.command);

describe('projectCommands: the commands the manifests name (the offline /init)', () => {
  it('package.json scripts, run with the package manager its lockfile names', () => {
    const pkg = JSON.stringify({ scripts: { test: 'vitest', build: 'tsc', 'test:e2e': 'playwright test', postinstall: 'x' } });
    expect(commands({ 'package.json': pkg })).toEqual(['npm test', 'npm run build', 'npm run test:e2e']);
    expect(commands({ 'package.json': pkg }, ['package.json', 'pnpm-lock.yaml'])).toEqual(['pnpm run test', 'pnpm run build', 'pnpm run test:e2e']);
  });
  it('Makefile targets, not variables or special targets; Cargo and go modules', () => {
    expect(commands({ Makefile: 'X := 1\nY = 2\n.PHONY: all\nall: build\nbuild:\n\tcc\ntest: build\n' })).toEqual(['make all', 'make build', 'make test']);
    expect(commands({ 'Cargo.toml': '[package]\n', 'go.mod': 'module x\n' })).toEqual(['cargo build', 'cargo test', 'go build ./...', 'go test ./...']);
  });
  it('nothing invented: a package.json that does not parse, or without scripts, names none', () => {
    expect(commands({ 'package.json': '{ not json' })).toEqual([]);
    expect(commands({ 'package.json': '{"name":"x"}', 'README.md': 'run npm test' })).toEqual([]);
  });
});
