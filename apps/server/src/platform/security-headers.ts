import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer (screens, assets, API, errors), through helmet.
 *
 * The web app is one origin: scripts, API calls, fonts and images come from this server only. Styles allow
 * 'unsafe-inline' because antd 6 (CSS-in-JS) and Swagger UI insert <style> elements at run time; a nonce would need
 * index.html rendered per request. Images allow data:/blob: (Swagger UI's icons, previews of downloads).
 * HSTS and upgrade-insecure-requests are sent only when the public address is https: over plain HTTP they would
 * break a LAN install or pin a host that has no certificate.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  opts: {
    https: boolean;
    /** Outside origins a page of ours posts a form to (the NewebPay gateway of billing, ECPay's label print page). */
    formActions?: string[];
    /** Outside origins of a script with its frames (TapPay's TPDirect card fields, when an app id is set). */
    scriptOrigins?: string[];
  },
): Promise<void> {
  const scripts = opts.scriptOrigins ?? [];
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval': the camera scanner's barcode reader is WebAssembly served from here (it allows compiling
        // WebAssembly only, not eval of JavaScript).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...scripts],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...scripts],
        ...(scripts.length ? { frameSrc: ["'self'", ...scripts] } : {}),
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", ...(opts.formActions ?? [])],
        ...(opts.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: opts.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Cross-origin resource/opener policies stay at helmet's defaults (same-origin); no COEP (nothing needs it).
    crossOriginEmbedderPolicy: false,
  });
}
