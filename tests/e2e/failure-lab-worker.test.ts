// The failure lab on the in-browser worker host (the longest single e2e test): the tests are in
// protocol-view.ts, here in a file of their own so they run beside the rest of the protocol view.

import { useAppAndBrowser } from './browser.ts';
import { failureLabTests } from './protocol-view.ts';

const app = useAppAndBrowser();

failureLabTests('worker', app);
