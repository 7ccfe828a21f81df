// The playground's version, written into exported files so a later version knows what it reads.
// Vite inlines just this one field of package.json.
import { version } from '../../../package.json';

export const APP_VERSION: string = version;
