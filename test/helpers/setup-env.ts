// Ink writes nothing until exit when it believes it runs in CI (it reads CI at import time), and
// CI machines set CI. The components under test render into fake or real terminals, so the
// test process is told it is not in CI before anything imports Ink.
delete process.env['CI'];
delete process.env['CONTINUOUS_INTEGRATION'];
