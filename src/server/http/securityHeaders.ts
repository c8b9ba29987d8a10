// Response headers on everything fastify serves (the app, its assets, the API): a strict CSP so an
// injected string can never run as script or load from elsewhere, no MIME sniffing (a JSON answer is
// never run as a script by another site's <script src>), no framing (clickjacking), no Referer.
// `style-src 'unsafe-inline'` is NOT needed: React and React Flow set styles through the CSSOM
// (element.style), which CSP does not govern; Tailwind is a built stylesheet. Checked in Chromium
// with no CSP violation (e2e/attacks.spec.ts).
import type { FastifyInstance } from 'fastify';

const STATIC_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

// A Host that already passed the origin guard (or, under inject, at least looks like a host).
const SAFE_HOST = /^[A-Za-z0-9.\-[\]:]+$/;

/** The CSP for a response to a request that named `host`. */
export function contentSecurityPolicy(host: string | undefined): string {
  // 'self' covers ws: of the same host in CSP 3, but not in every browser: name it explicitly.
  const ws = host && SAFE_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [...STATIC_POLICY, `connect-src 'self'${ws}`].join('; ');
}

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.headers({
      'content-security-policy': contentSecurityPolicy(req.headers.host),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
    });
  });
}
