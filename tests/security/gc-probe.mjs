// Test-only preload for a program under measurement (node --expose-gc --import this): on SIGUSR2 it
// runs two full garbage collections, then prints one stderr line `[gc-probe] {"rss":…,"heapUsed":…}`
// (bytes). RSS read right after a full collection measures what the program keeps, not how lazily
// V8 happens to collect (which differs between Node 20 and 24). The program itself is unchanged.
process.on('SIGUSR2', () => {
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(`[gc-probe] ${JSON.stringify({ rss, heapUsed })}\n`);
});
