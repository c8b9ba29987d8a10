import type { ClientRequest, IncomingMessage } from 'node:http';
import { resolve } from 'node:path';
import type { ModuleInfo } from 'rolldown';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
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

// The editor's first paint needs everything appMain.tsx imports statically; left to the automatic
// splitting, the modules it shares with the lazy panels came as ~20 small chunks, and a browser
// fetches at most 6 at a time from one HTTP/1.1 origin, so on a busy machine the editor's code
// arrived several round trips after the entry's. One `editor` chunk holds that static closure (minus
// what the entry itself imports, which stays in the small entry so the boot requests leave first);
// the lazy chunks keep their own modules and import shared ones from it.
const staticClosure = (root: string, info: (id: string) => ModuleInfo | null): Set<string> => {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
};
let closures: { entry: Set<string>; editor: Set<string> } | null = null;
function startChunk(id: string, ctx: { getModuleInfo(id: string): ModuleInfo | null }): string | null {
  if (!closures) {
    const src = resolve(import.meta.dirname, 'src/app');
    const info = (m: string) => ctx.getModuleInfo(m);
    const entry = staticClosure(resolve(src, 'main.tsx'), info);
    const editor = new Set(
      [...staticClosure(resolve(src, 'appMain.tsx'), info)].filter((m) => !entry.has(m)),
    );
    closures = { entry, editor };
  }
  // The entry's own modules are named too: left to the automatic chunking they joined the editor
  // chunk (they are shared with it), which the entry then had to load before sending anything. Its
  // library imports (zod, for its config) stay automatic: named, they took along every part of zod
  // the editor uses (a 100 KB boot chunk instead of 17 KB).
  if (closures.entry.has(id)) return id.includes('node_modules') ? null : 'boot';
  return closures.editor.has(id) ? 'editor' : null;
}

/**
 * The editor chunk is fetched by the entry's dynamic import, that is only once the entry and its
 * boot chunk have been fetched and run. A modulepreload link in the page's head starts its download
 * (and the browser's off-thread compile) beside the entry's instead.
 */
const preloadEditorChunk: Plugin = {
  name: 'preload-editor-chunk',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const editor = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === 'editor');
      if (editor?.type !== 'chunk') return [];
      // Its own static imports too (the bundler's runtime chunk), unless the page links them already.
      const files = [editor.fileName, ...editor.imports].filter((f) => !html.includes(f));
      // And its stylesheet: the dynamic import waits for it to load (Vite's preload helper appends it
      // then). Requested only then, it queued behind the boot requests and held the editor's start
      // back by ~70 ms after its code was ready. A preload (not a stylesheet link, which would hold
      // back the entry script until it loaded) fetches it early, and the helper's link finds it cached.
      const styles = [...(editor.viteMetadata?.importedCss ?? [])].filter((f) => !html.includes(f));
      const link = (f: string, attrs: Record<string, string>) => ({
        tag: 'link',
        attrs: { ...attrs, crossorigin: true, href: `/${f}` },
        injectTo: 'head' as const,
      });
      return [
        ...files.map((f) => link(f, { rel: 'modulepreload' })),
        ...styles.map((f) => link(f, { rel: 'preload', as: 'style' })),
      ];
    },
  },
};

/** A new build (watch mode) computes the closures again. */
const resetStartChunks = { name: 'reset-start-chunks', buildStart: () => void (closures = null) };

export default defineConfig({
  plugins: [react(), tailwindcss(), resetStartChunks, preloadEditorChunk],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: startChunk, debugName: 'start' }] } },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': proxied(false),
      '/socket.io': proxied(true),
    },
  },
});
