import type { ClientRequest, IncomingMessage } from 'node:http';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The dev server proxies the API and socket.io to a `statewire serve` on the default port,
// so `npm run dev` and `npm start` talk to the same backend.
const backend = process.env.STATEWIRE_BACKEND ?? 'http://127.0.0.1:5177';

// The backend refuses a foreign Host, and a foreign Origin on state changes and socket.io handshakes
// (src/server/http/originGuard.ts). Through this proxy the page's origin is the dev server's, so the
// Host becomes the backend's (changeOrigin) and an Origin that is the dev server's OWN loopback
// origin is rewritten to the backend's. Any other Origin (another site's page, or a DNS-rebinding
// name: Vite checks Host on HTTP but not on proxied WebSocket upgrades) passes unchanged and the
// backend refuses it.
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/;
function rewriteOwnOrigin(proxyReq: ClientRequest, req: IncomingMessage) {
  const host = req.headers.host ?? '';
  const m = LOOPBACK_HOST.exec(host);
  if (m && Number(m[2]) === req.socket.localPort && req.headers.origin === `http://${host}`)
    proxyReq.setHeader('origin', backend);
}
const proxied = (ws: boolean): ProxyOptions => ({
  target: backend,
  ws,
  changeOrigin: true,
  configure: (proxy) => {
    proxy.on('proxyReq', rewriteOwnOrigin);
    proxy.on('proxyReqWs', rewriteOwnOrigin);
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': proxied(false),
      '/socket.io': proxied(true),
    },
  },
});
