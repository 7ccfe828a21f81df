// Reads the system clipboard for a test that checks what the app copied. Not from the app's own
// page: every response of the app denies clipboard-read (Permissions-Policy: the app never reads
// the clipboard), so the read happens in a second tab on the same origin whose only document is
// this blank one, served by the test without that header.

import type { BrowserContext } from 'playwright-core';

export async function readClipboard(context: BrowserContext, origin: string): Promise<string> {
  const reader = await context.newPage();
  try {
    // A file name (not an app route), so the service worker, if any, leaves it to the network.
    const url = `${origin}/__test-clipboard-reader.html`;
    await reader.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>clipboard</title>' }));
    await reader.goto(url);
    await reader.bringToFront();
    return await reader.evaluate(() => navigator.clipboard.readText());
  } finally {
    await reader.close();
  }
}
