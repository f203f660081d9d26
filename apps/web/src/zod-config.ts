import { z } from 'zod';

// Run by main.tsx before the app's modules load, so before any schema exists: zod's compiled parsers probe
// `new Function`, which the Content-Security-Policy (script-src 'self', no 'unsafe-eval') reports on every page.
z.config({ jitless: true });
