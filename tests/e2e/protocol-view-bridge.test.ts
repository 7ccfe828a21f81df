// The protocol view and the failure lab on the local bridge host: the tests are in protocol-view.ts,
// in files of their own per host so the long runs go side by side.

import { useAppAndBrowser } from './browser.ts';
import { failureLabTests, protocolViewTests } from './protocol-view.ts';

const app = useAppAndBrowser();

protocolViewTests('bridge', app);
failureLabTests('bridge', app);
