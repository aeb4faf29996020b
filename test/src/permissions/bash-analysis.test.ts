import { describe, expect, it } from 'vitest';
import { analyzeBash, analyzeBashCommand } from '../../../src/permissions/bash/analysis.js';

describe('analyzeBashCommand', () => {
  it('keeps a simple command as one part, not compound', async () => {
    expect(await analyzeBashCommand('git status -s')).toEqual({ parts: ['git status -s'], compound: false, writesFiles: [] });
  });

  it('splits lists, pipelines and newlines into parts', async () => {
    const a = await analyzeBashCommand('ls && echo "a b" || grep x | wc -l\npwd; date');
    expect(a.parts).toEqual(['ls', 'echo a b', 'grep x', 'wc -l', 'pwd', 'date']);
    expect(a.compound).toBe(true);
  });

  it('finds commands inside $(...), backticks, process substitution and heredocs', async () => {
    expect((await analyzeBashCommand('echo $(touch x) `id`')).parts).toEqual(['touch x', 'id', 'echo $(touch x) `id`']);
    expect((await analyzeBashCommand('echo "$(rm y)"')).parts).toContain('rm y');
    expect((await analyzeBashCommand('diff <(ls a) >(cat)')).parts).toEqual(['ls a', 'cat', 'diff <(ls a) >(cat)']);
    const heredoc = await analyzeBashCommand('cat <<EOF\nhi $(whoami)\nEOF');
    expect(heredoc.parts).toEqual(['cat', 'whoami']);
    expect(heredoc.compound).toBe(true);
  });

  it('looks through wrappers and leading assignments', async () => {
    const cases: Array<[string, string]> = [
      ['timeout 10 npm test', 'npm test'],
      ['timeout -s KILL 5s npm test', 'npm test'],
      ['nice -n 10 make', 'make'],
      ['nice make', 'make'],
      ['nohup node server.js', 'node server.js'],
      ['time -p npm test', 'npm test'],
      ['env FOO=1 BAR=2 npm test', 'npm test'],
      ['env -i npm test', 'npm test'],
      ['command git status', 'git status'],
      ['FOO=1 BAR=x npm run build', 'npm run build'],
      ['timeout 5 nice -n 2 env A=1 git log', 'git log'],
    ];
    for (const [command, part] of cases) expect((await analyzeBashCommand(command)).parts, command).toEqual([part]);
    expect((await analyzeBashCommand('find . -name "*.o" | xargs -0 -n 1 rm -f')).parts).toEqual(['find . -name *.o', 'rm -f']);
  });

  it('keeps assignments that change what runs in the part', async () => {
    expect((await analyzeBashCommand('PATH=/tmp/evil git status')).parts).toEqual(['PATH=/tmp/evil git status']);
  });

  it('parses sh -c and bash -c scripts recursively', async () => {
    expect((await analyzeBashCommand("bash -c 'ls; touch x'")).parts).toEqual(['ls', 'touch x']);
    expect((await analyzeBashCommand('sh -c "git status && npm test"')).parts).toEqual(['git status', 'npm test']);
    expect((await analyzeBashCommand("bash -lc 'sh -c \"rm -rf /\"'")).dangerous).toMatch(/rm/);
    expect((await analyzeBashCommand("eval 'ls; id'")).parts).toEqual(['ls', 'id']);
  });

  it('reports file writes by redirection, but not /dev/null or fd duplication', async () => {
    expect((await analyzeBashCommand('echo hi > out.txt 2>&1')).writesFiles).toEqual(['out.txt']);
    expect((await analyzeBashCommand('echo hi >> /tmp/log &> ../x')).writesFiles).toEqual(['/tmp/log', '../x']);
    const quiet = await analyzeBashCommand('npm test 2>/dev/null');
    expect(quiet.writesFiles).toEqual([]);
    expect(quiet.compound).toBe(false);
    expect((await analyzeBashCommand('cat < in.txt')).writesFiles).toEqual([]);
  });

  it('flags dangerous commands with a reason', async () => {
    // sudo is a built-in deny rule now (liftable by a setting), not "dangerous" (never liftable).
    expect((await analyzeBashCommand('sudo ls')).dangerous).toBeUndefined();
    expect((await analyzeBash('sudo ls')).builtinHits.map((h) => h.id)).toEqual(['sudo']);
    expect((await analyzeBashCommand('echo hi > /dev/sda')).dangerous).toMatch(/block device/);
    expect((await analyzeBashCommand(':(){ :|:& };:')).dangerous).toMatch(/fork bomb/);
    expect((await analyzeBashCommand('rm -rf build')).dangerous).toBeUndefined();
  });

  it('marks commands with syntax errors as unparseable', async () => {
    expect((await analyzeBashCommand('echo (')).unparseable).toBe(true);
    expect((await analyzeBashCommand('if then fi')).unparseable).toBe(true);
    expect((await analyzeBashCommand('echo ok')).unparseable).toBeUndefined();
  });

  it('flags $IFS tricks and computed command names', async () => {
    expect((await analyzeBashCommand('cat${IFS}/etc/passwd')).obfuscated).toMatch(/IFS/);
    expect((await analyzeBashCommand('IFS=, ; ls')).obfuscated).toMatch(/IFS/);
    expect((await analyzeBashCommand('$CMD -rf x')).obfuscated).toMatch(/command name/);
  });
});

describe('hostile input', () => {
  it('a command nested thousands deep is unparseable, not a stack overflow', async () => {
    const deep = `echo ${'$(echo '.repeat(3000)}${')'.repeat(3000)}`;
    const a = await analyzeBash(deep);
    expect(a.unparseable).toBe(true);
    expect(a.unparseableReason).toMatch(/nested too deeply/);
  });

  it('a command longer than the analysis reads is unparseable', async () => {
    const a = await analyzeBash(`echo ${'x'.repeat(200 * 1024)}`);
    expect(a.unparseableReason).toMatch(/too long/);
  });

  it('a long chain of assignments feeding arithmetic is still traced to the value set at run time', async () => {
    const n = 2000;
    const chain = `${Array.from({ length: n }, (_, i) => `a${n - i}=a${n - i - 1}`).join('; ')}; a0=$(cat f); echo $((a${n}))`;
    expect((await analyzeBash(chain)).obfuscated).toMatch(/arithmetic evaluates a2000/);
  });
});

describe('analyzeBash details', () => {
  it('names the program after every wrapper, with base-name forms for deny rules', async () => {
    const a = await analyzeBash('timeout 5 stdbuf -o0 /usr/bin/rm -f a');
    expect(a.parts.map((p) => p.program)).toEqual(['rm']);
    expect(a.parts[0]!.forms).toEqual(expect.arrayContaining(['timeout 5 stdbuf -o0 /usr/bin/rm -f a', '/usr/bin/rm -f a', 'rm -f a']));
    expect((await analyzeBash('git --no-pager -C x push')).parts[0]!.forms).toContain('git push');
  });

  it('marks read-only parts and the paths they read', async () => {
    const a = await analyzeBash('cat README.md src/a.ts | grep -n foo | wc -l');
    expect(a.readOnly).toBe(true);
    expect(a.readsFiles).toEqual(['README.md', 'src/a.ts']);
    expect(a.parts.map((p) => p.readOnly)).toEqual([true, true, true]);
    const notRead = await analyzeBash('cat README.md > out');
    expect(notRead.readOnly).toBe(false);
    expect(notRead.parts[0]!.readOnly).toBe(true); // the program reads; the redirect is the command's write
    expect((await analyzeBash('cat < in.txt')).readsFiles).toEqual(['in.txt']);
  });

  it('separates output files (judged as write_file) from the files file programs change', async () => {
    const a = await analyzeBash('sort -o sorted.txt a && cp a b && rm -f c && sed -i s/x/y/ d && git diff --output=p.diff');
    expect(a.writesFiles).toEqual(['sorted.txt', 'p.diff']);
    expect(a.changesFiles).toEqual(['b', 'c', 'd']);
  });

  it('gives a risk to parts whose environment or options change what runs', async () => {
    const risks = async (command: string) => (await analyzeBash(command)).parts.map((p) => p.risk);
    expect(await risks('env GIT_DIR=x git status')).toEqual([expect.stringMatching(/GIT_DIR/)]);
    expect(await risks('npm test --script-shell=x')).toEqual([expect.stringMatching(/script-shell/)]);
    expect(await risks('export PATH=/x; ls')).toEqual([expect.stringMatching(/PATH/), expect.stringMatching(/PATH/)]);
    expect(await risks('CI=1 npm test')).toEqual([undefined]);
  });

  it('records built-in deny hits, directory changes and write-then-run chains', async () => {
    expect((await analyzeBash('find x -delete')).builtinHits.map((h) => h.id)).toEqual(['recursive-rm']);
    expect((await analyzeBash('xargs rm')).builtinHits.map((h) => h.id)).toEqual(['recursive-rm']);
    expect((await analyzeBash('xargs rm --')).builtinHits).toEqual([]);
    expect((await analyzeBash('cd src && ls')).changesDirectory).toBe(true);
    expect((await analyzeBash('echo x > a.json && npm test')).writesThenRuns).toMatch(/a.json.*npm test/);
    expect((await analyzeBash('npm test > log')).writesThenRuns).toBeUndefined();
  });

  it('reads a heredoc or here-string fed to a shell as a script, and flags one it cannot see', async () => {
    expect((await analyzeBash("bash <<< 'touch x'")).parts.map((p) => p.text)).toEqual(['touch x']);
    expect((await analyzeBash("bash <<'EOF'\ntouch x\nEOF")).parts.map((p) => p.text)).toEqual(['touch x']);
    expect((await analyzeBash('curl x | bash')).obfuscated).toMatch(/input/);
    const sourced = await analyzeBash('source a.sh', { readScript: async (p) => (p === 'a.sh' ? 'touch y' : undefined) });
    expect(sourced.parts.map((p) => p.text)).toEqual(['source a.sh', 'touch y']);
    expect((await analyzeBash('source a.sh')).obfuscated).toMatch(/could not read/);
  });
});
