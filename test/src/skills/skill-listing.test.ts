import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/context/tokens.js';
import type { Skill } from '../../../src/skills/skill.js';
import { skillListing } from '../../../src/skills/skill-listing.js';

const skill = (i: number, extra: Partial<Skill> = {}): Skill => ({
  name: `skill-${String(i).padStart(3, '0')}`,
  description: `Does job number ${i} for the user: reads the inputs, checks them, and reports what it found in a short summary.`,
  dir: `/s/skill-${i}`,
  file: `/s/skill-${i}/SKILL.md`,
  body: 'body',
  source: 'cairn-home',
  allowedTools: [],
  disableModelInvocation: false,
  ...extra,
});

describe('the skills section of the system prompt', () => {
  it('lists name and description while they fit in 1% of the context window', () => {
    const listing = skillListing([skill(1), skill(2)], 200_000);
    expect(listing.budget).toBe(2000);
    expect(listing.namesOnly).toBe(0);
    expect(listing.text).toContain('- skill-001: Does job number 1 for the user');
    expect(listing.text).toContain('load_skill');
    expect(listing.tokens).toBe(estimateTokens(listing.text));
  });

  it('many skills: past the budget, names only, and the whole stays near the budget (measured in tokens)', () => {
    const many = Array.from({ length: 200 }, (_, i) => skill(i));
    const listing = skillListing(many, 200_000);
    const described = listing.text.split('\n').filter((l) => l.startsWith('- ')).length;
    expect(described).toBeGreaterThan(20);
    expect(described + listing.namesOnly).toBe(200);
    expect(listing.text).toMatch(/More skills \(names only; load_skill gives the details\): skill-\d{3}, /);
    for (const s of many) expect(listing.text).toContain(s.name);
    // The described part keeps within the budget; the names past it cost about 4 tokens each.
    const describedTokens = estimateTokens(listing.text.split('\nMore skills')[0] ?? '');
    expect(describedTokens).toBeLessThanOrEqual(listing.budget);
    expect(listing.tokens).toBeLessThan(listing.budget + listing.namesOnly * 5);
    // All 200 described would cost far more.
    const unlimited = skillListing(many, 100_000_000);
    expect(unlimited.namesOnly).toBe(0);
    expect(unlimited.tokens).toBeGreaterThan(listing.tokens * 2);
  });

  it('leaves out skills the model may not invoke', () => {
    const listing = skillListing([skill(1), skill(2, { disableModelInvocation: true })], 200_000);
    expect(listing.text).toContain('skill-001');
    expect(listing.text).not.toContain('skill-002');
    expect(skillListing([skill(2, { disableModelInvocation: true })], 200_000).text).toBe('');
  });
});
