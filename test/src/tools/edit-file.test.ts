import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { displayOf } from '../../helpers/display.js';

let dir: string;
let ctx: ToolContext;
let file: string;
const tool = createEditFileTool();

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-edit-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
  file = path.join(dir, 'code.ts');
  await fs.writeFile(file, 'const a = 1;\nconst b = 2;\nlog(a);\nlog(a);\n');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('edit_file', () => {
  it('replaces a unique string and shows the diff', async () => {
    const r = await tool.call({ path: 'code.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/^Edited code\.ts \(1 replacement\)\./);
    expect(r.content).toContain('-const b = 2;');
    expect(r.content).toContain('+const b = 3;');
    expect(displayOf(r, 'edit_file')?.diff).toContain('+const b = 3;');
    expect(await fs.readFile(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\nlog(a);\nlog(a);\n');
  });

  it('refuses an ambiguous match, saying how many and what to do', async () => {
    const r = await tool.call({ path: 'code.ts', old_string: 'log(a);', new_string: 'log(b);' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('occurs 2 times');
    expect(r.content).toContain('replace_all');
    expect(await fs.readFile(file, 'utf8')).toContain('log(a);\nlog(a);');
  });

  it('replaces every occurrence with replace_all', async () => {
    const r = await tool.call(
      { path: 'code.ts', old_string: 'log(a);', new_string: 'log(b);', replace_all: true },
      ctx,
    );
    expect(r.content).toMatch(/2 replacements/);
    expect(await fs.readFile(file, 'utf8')).toBe('const a = 1;\nconst b = 2;\nlog(b);\nlog(b);\n');
  });

  it('reports a miss with the closest line as a hint', async () => {
    const r = await tool.call({ path: 'code.ts', old_string: 'const b =  2;', new_string: 'x' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('old_string was not found in code.ts');
    expect(r.content).toContain('closest line is 2: "const b = 2;"');
  });

  it('rejects identical old and new strings', async () => {
    const r = await tool.call({ path: 'code.ts', old_string: 'log(a);', new_string: 'log(a);' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('identical');
  });

  it('inserts replacement text literally, even with $ patterns', async () => {
    await tool.call({ path: 'code.ts', old_string: 'const a = 1;', new_string: "const a = '$&$1';" }, ctx);
    expect(await fs.readFile(file, 'utf8')).toMatch(/^const a = '\$&\$1';\n/);
  });

  it('matches LF old_string against a CRLF file and keeps CRLF', async () => {
    await fs.writeFile(file, 'one\r\ntwo\r\nthree\r\n');
    const r = await tool.call({ path: 'code.ts', old_string: 'one\ntwo', new_string: 'uno\ndos' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(await fs.readFile(file, 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('names a missing file and suggests write_file', async () => {
    const r = await tool.call({ path: 'nope.ts', old_string: 'a', new_string: 'b' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('nope.ts');
    expect(r.content).toContain('write_file');
  });

  it('previews the same diff without touching the file', async () => {
    const input = { path: 'code.ts', old_string: 'const a = 1;', new_string: 'const a = 10;' };
    const preview = await tool.preview?.(input, ctx);
    expect(preview).toContain('+const a = 10;');
    expect(await fs.readFile(file, 'utf8')).toContain('const a = 1;');
    const r = await tool.call(input, ctx);
    expect(displayOf(r, 'edit_file')?.diff).toBe(preview);
    expect(await tool.preview?.({ path: 'code.ts', old_string: 'missing', new_string: 'x' }, ctx)).toBeUndefined();
  });

  describe('bytes that are not UTF-8', () => {
    // A Latin-1 comment (0xE9: é), a lone continuation byte and a truncated sequence around UTF-8 text.
    const latin1 = Buffer.from([0x2f, 0x2f, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]); // "// caf\xE9\n"
    const stray = Buffer.from([0x80, 0xc3, 0x0a]);
    const original = Buffer.concat([latin1, Buffer.from('const name = "café";\n', 'utf8'), stray, Buffer.from('log(name);\n', 'utf8')]);

    it('change only the bytes old_string matches: everything else stays byte for byte', async () => {
      await fs.writeFile(file, original);
      const r = await tool.call({ path: 'code.ts', old_string: 'log(name);', new_string: 'console.log(name);' }, ctx);
      expect(r.isError).toBeFalsy();
      const expected = Buffer.concat([latin1, Buffer.from('const name = "café";\n', 'utf8'), stray, Buffer.from('console.log(name);\n', 'utf8')]);
      expect((await fs.readFile(file)).equals(expected)).toBe(true);
    });

    it('replace_all and a CRLF match keep them too', async () => {
      await fs.writeFile(file, Buffer.concat([latin1, Buffer.from('a\r\nb\r\n'), stray, Buffer.from('a\r\nb\r\n')]));
      const r = await tool.call({ path: 'code.ts', old_string: 'a\nb', new_string: 'x\ny', replace_all: true }, ctx);
      expect(r.content).toMatch(/2 replacements/);
      expect((await fs.readFile(file)).equals(Buffer.concat([latin1, Buffer.from('x\r\ny\r\n'), stray, Buffer.from('x\r\ny\r\n')]))).toBe(true);
    });

    it('an old_string with U+FFFD (how read_file shows such bytes) is not found, and the message says why and what to do', async () => {
      await fs.writeFile(file, original);
      const r = await tool.call({ path: 'code.ts', old_string: '// caf\uFFFD', new_string: '// cafe' }, ctx);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/not valid UTF-8.*Choose an old_string next to them/s);
      expect((await fs.readFile(file)).equals(original)).toBe(true);
    });
  });
});
