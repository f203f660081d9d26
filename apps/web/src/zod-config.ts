// The web build resolves `zod` to this module (vite.config.ts), so zod is configured before any schema exists,
// whichever page first loads it (the login page loads no zod at all): zod's compiled parsers probe `new Function`,
// which the Content-Security-Policy (script-src 'self', no 'unsafe-eval') reports on every page.
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
