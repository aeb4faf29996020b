import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Skills and custom commands in the built cairn, in a real terminal (tmux), on the offline model.
const { start } = cairnTerminals();
// The machine's own ~/.claude/skills stay out of it.
const NO_USER_SKILLS = { CLAUDE_CONFIG_DIR: '/nonexistent/cairn-test-claude-home' };

const files = {
  '.claude/skills/hello-skill/SKILL.md': '---\nname: hello-skill\ndescription: Greets the project warmly.\n---\nSay hello to the project, politely.\n',
  '.claude/skills/hello-skill/reference/tone.md': 'Warm, short.\n',
  '.claude/skills/broken-skill/SKILL.md': '---\nname: other-name\ndescription: x\n---\n',
  '.claude/commands/git/greet.md': '---\ndescription: Greets someone by name\nargument-hint: <name>\n---\nGreet $0 warmly, then stop.\n',
};

describe.skipIf(!TmuxTerminal.available())('skills and custom commands in a real terminal', () => {
  it('/skills lists them with sources and problems; /<skill> runs from the palette; the model loads one with load_skill', async () => {
    const { term, ws } = await start({ files, columns: 140, rows: 45, env: NO_USER_SKILLS });
    // The broken skill was told at start, with its path and reason.
    await term.waitForText('differs from its folder "broken-skill"');

    term.type('/skills');
    term.keys('Enter');
    const listed = await term.waitForText('Problems (1):');
    expect(listed).toMatch(/\/hello-skill +Greets the project warmly\./);
    expect(listed).toContain(`from ${ws.dir}/.claude/skills/hello-skill/SKILL.md`);
    expect(listed).toMatch(/\/commit-message +Write a git commit message/);
    expect(listed).toMatch(/\/git:greet <name> +Greets someone by name/);

    term.type('/hello-');
    const palette = await term.waitForScreen((s) => /› \/hello-skill +\(project skill\) Greets the project warmly\./.test(s), 'the palette entry');
    expect(palette).not.toMatch(/\/help /);
    term.keys('Enter');
    const ran = await term.waitForText('You said:');
    expect(ran).toMatch(/\/hello-skill\s/);
    await term.waitForText('Ask cairn');

    term.type('use the hello-skill skill');
    term.keys('Enter');
    await term.waitForScreen((s) => /load_skill/.test(s) && /Skill "hello-skill" loaded/.test(s), 'the load_skill card and its summary');
  });

  it('picks a namespaced custom command from the palette and runs it with its arguments', async () => {
    const { term } = await start({ files, columns: 140, rows: 45, env: NO_USER_SKILLS });
    term.type('/git:g');
    await term.waitForScreen((s) => /› \/git:greet <name> +\(project command\) Greets someone by name/.test(s), 'the palette entry with its hint');
    term.keys('Enter');
    // It needs an argument: the palette fills the name in and waits for it.
    await term.waitForScreen((s) => s.includes('/git:greet') && !s.includes('(project command)'), 'the command name in the prompt, the palette closed');
    term.type('Ada');
    term.keys('Enter');
    const sent = await term.waitForText('Greet Ada warmly, then stop.');
    expect(sent).toContain('/git:greet Ada');
  });
});
