// The protocol view on the in-browser worker host: the tests are in protocol-view.ts, one file per host
// so the two hosts run side by side.

import { useAppAndBrowser } from './browser.ts';
import { protocolViewTests } from './protocol-view.ts';

const app = useAppAndBrowser();

protocolViewTests('worker', app);
