import { describe, expect, it } from 'vitest';
import { matchBashSpecifier, matchPathSpecifier, ruleCoversTool } from '../../../src/permissions/rules/match.js';
import { parseRule } from '../../../src/permissions/rules/parse.js';

describe('matchBashSpecifier', () => {
  const table: Array<[string, string, boolean]> = [
    // legacy prefix form
    ['git status:*', 'git status', true],
    ['git status:*', 'git status -s', true],
    ['git status:*', 'git statusx', false],
    ['git status:*', 'git stash', false],
    ['git status:*', 'xgit status', false],
    ['npm run test:*', 'npm run test -- --watch', true],
    ['npm run test:*', 'npm run test-e2e', false],
    // wildcards, with the word boundary kept by a trailing ` *`
    ['ls *', 'ls', true],
    ['ls *', 'ls -la', true],
    ['ls *', 'lsof', false],
    ['npm run test *', 'npm run test', true],
    ['npm run test *', 'npm run test --coverage', true],
    ['npm run test *', 'npm run tests', false],
    ['git * --help', 'git log --help', true],
    ['git * --help', 'git log --oneline', false],
    ['ls*', 'lsof', true],
    ['echo \\*', 'echo *', true],
    ['echo \\*', 'echo hi', false],
    // exact
    ['npm test', 'npm test', true],
    ['npm test', 'npm test --watch', false],
    // regex characters are literal
    ['echo a.b', 'echo axb', false],
    ['echo (x)', 'echo (x)', true],
  ];
  it.each(table)('%s vs %s -> %s', (spec, command, expected) => {
    expect(matchBashSpecifier(spec, command)).toBe(expected);
  });
});

describe('matchPathSpecifier', () => {
  const bases = { workspace: '/ws/proj', home: '/home/u' };
  const table: Array<[string, string, boolean]> = [
    ['./secrets/**', '/ws/proj/secrets/key.pem', true],
    ['./secrets/**', '/ws/proj/secrets/deep/a/b', true],
    ['./secrets/**', '/ws/proj/secretsx/a', false],
    ['secrets/**', '/ws/proj/secrets/key.pem', true],
    ['./secrets', '/ws/proj/secrets/key.pem', true], // a directory covers what is inside
    ['./src/*.ts', '/ws/proj/src/a.ts', true],
    ['./src/*.ts', '/ws/proj/src/sub/a.ts', false],
    ['./src/**/*.ts', '/ws/proj/src/sub/a.ts', true],
    ['./.env', '/ws/proj/.env', true],
    ['.env*', '/ws/proj/.env.local', true],
    ['/etc/**', '/etc/passwd', true],
    ['/etc/**', '/ws/proj/etc/passwd', false],
    ['~/.ssh/**', '/home/u/.ssh/id_rsa', true],
    ['~/.ssh/**', '/ws/proj/.ssh/id_rsa', false],
    ['~', '/home/u/notes.txt', true],
    ['./**', '/ws/proj', true],
    ['./**', '/ws/other/x', false],
    ['**/.env', '/ws/proj/a/.env', true],
    ['**/.env', '/elsewhere/.env', true],
    ['./secrets/**', '/ws/secrets/key', false],
  ];
  it.each(table)('%s vs %s -> %s', (spec, path, expected) => {
    expect(matchPathSpecifier(spec, path, bases)).toBe(expected);
  });
});

describe('ruleCoversTool', () => {
  it('applies Edit(path) to every edit tool and Read(path) to every read tool, bare rules to one tool', () => {
    const writeFile = { name: 'write_file', kind: 'edit' as const };
    const grep = { name: 'grep', kind: 'read' as const };
    expect(ruleCoversTool(parseRule('Edit(./src/**)'), writeFile)).toBe(true);
    expect(ruleCoversTool(parseRule('Read(./secrets/**)'), grep)).toBe(true);
    expect(ruleCoversTool(parseRule('Read(./secrets/**)'), writeFile)).toBe(false);
    expect(ruleCoversTool(parseRule('Edit'), writeFile)).toBe(false);
    expect(ruleCoversTool(parseRule('Write'), writeFile)).toBe(true);
    expect(ruleCoversTool(parseRule('Write(./a)'), { name: 'edit_file', kind: 'edit' })).toBe(false);
    expect(ruleCoversTool(parseRule('Bash(ls:*)'), { name: 'bash', kind: 'execute' })).toBe(true);
  });
});
