// A review's findings (report_findings' display, src/tools/report-findings-display.ts) as cards, as
// the terminal shows them: severity, file:line, what and why, the suggested fix, the lines around it.

/** The cards for a report_findings result; null for any other display. */
export function findingCards(display, el) {
  if (!display || display.kind !== 'report_findings' || !Array.isArray(display.findings)) return null;
  const cards = display.findings.map((f) =>
    el(
      'article',
      { class: `finding ${f.severity}`, 'data-finding': `${f.file}:${f.line}` },
      el('header', {}, el('span', { class: 'severity' }, f.severity), ' ', el('code', { class: 'where' }, `${f.file}:${f.line}`), ' ', el('strong', { class: 'title' }, f.title)),
      el('p', { class: 'why' }, f.why),
      el('p', { class: 'fix' }, `Fix: ${f.fix}`),
      f.excerpt ? el('pre', { class: 'excerpt' }, f.excerpt.lines.map((l, i) => `${String(f.excerpt.start + i).padStart(4)}  ${l}`).join('\n')) : null,
    ),
  );
  const head = display.findings.length === 0 ? 'No findings.' : `${display.findings.length} finding${display.findings.length === 1 ? '' : 's'}`;
  return el('section', { class: 'findings' }, el('div', { class: 'findings-head' }, display.summary ? `${head}: ${display.summary}` : head), ...cards);
}
