// The project's root folder, for Node code (tools, server, scripts, bench, tests) that reads or
// spawns files by path. The one definition: this file sits one folder below the root.

import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
