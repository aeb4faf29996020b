import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { droppedPaths } from '../../../components/prompt/dropped-paths.js';

describe('droppedPaths: what a terminal pastes when a file is dropped on it', () => {
  it.each([
    ['/home/me/shot.png', ['/home/me/shot.png']],
    ["'/home/me/my shot.png'", ['/home/me/my shot.png']],
    ['"/home/me/my shot.JPG"', ['/home/me/my shot.JPG']],
    ['/Users/me/my\\ screen\\ shot.png ', ['/Users/me/my screen shot.png']],
    ['file:///home/me/my%20shot.png', ['/home/me/my shot.png']],
    ['/a/one.png /b/two.pdf', ['/a/one.png', '/b/two.pdf']],
    ['/a/one.png\n/b/two.webp\n', ['/a/one.png', '/b/two.webp']],
    ['~/Desktop/x.gif', [`${os.homedir()}/Desktop/x.gif`]],
    ['./docs/spec.pdf', ['./docs/spec.pdf']],
  ])('%j names %j', (pasted, paths) => {
    expect(droppedPaths(pasted)).toEqual(paths);
  });

  it.each([
    'look at /home/me/shot.png',
    'shot.png',
    '/home/me/notes.txt',
    "'/home/me/unclosed.png",
    '/a/one.png and more',
    '',
  ])('%j stays text', (pasted) => {
    expect(droppedPaths(pasted)).toBeUndefined();
  });
});
