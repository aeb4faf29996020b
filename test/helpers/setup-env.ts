// Ink writes nothing until exit when it believes it runs in CI (it reads CI at import time), and
// CI machines set CI. The components under test render into fake or real terminals, so the
// test process is told it is not in CI before anything imports Ink.
delete process.env['CI'];
delete process.env['CONTINUOUS_INTEGRATION'];

// The app measures text with string-width once loaded (run-tui waits for it); components rendered
// directly in tests get the same measure.
const { loadTextWidth } = await import('../../components/theme/text-width.js');
await loadTextWidth();
