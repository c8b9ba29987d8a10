// Page-side probes the canvas benchmark runs identically on the app and on the bare React Flow page
// (as source text through addInitScript / evaluate: tsx's helpers do not exist inside the page).
// Both pages are React Flow underneath, so the probes read React Flow's own DOM: the viewport
// transform, the node wrappers (`data-id`, visibility:hidden until measured) and the pane. The one
// exception is the app's far view (src/app/canvas/far/), which draws a big zoomed-out level into a
// canvas instead of node wrappers: there the canvas says how many graph nodes its last frame drew.
export const PROBES = String.raw`
window.__swb = {
  transform() {
    const el = document.querySelector('.react-flow__viewport');
    const m = el && /translate\(([-\d.e]+)px, ?([-\d.e]+)px\) scale\(([-\d.e]+)\)/.exec(el.style.transform);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
  },
  frames(n) {
    return new Promise((res) => {
      const step = (k) => (k === 0 ? res(performance.now()) : requestAnimationFrame(() => step(k - 1)));
      step(n);
    });
  },
  // Resolves (performance.now(), ms since navigation start) once the view is fitted (zoom below
  // 0.5 and unchanged since the previous frame) and every node whose position lies in the visible
  // flow rectangle is in the DOM and measured (or, in the app's far view, drawn: its canvas's last
  // frame drew at least as many graph nodes), then two more animation frames.
  fitted(positions) {
    return new Promise((res) => {
      let last = '';
      const tick = () => {
        const t = window.__swb.transform();
        const pane = document.querySelector('.react-flow');
        if (t && pane && t[2] < 0.5) {
          const r = pane.getBoundingClientRect();
          const x0 = -t[0] / t[2], y0 = -t[1] / t[2];
          const x1 = (r.width - t[0]) / t[2], y1 = (r.height - t[1]) / t[2];
          const els = new Map();
          for (const el of document.querySelectorAll('.react-flow__node')) els.set(el.getAttribute('data-id'), el);
          const far = document.querySelector('.sw-far-layer');
          let ok = true;
          let inView = 0;
          for (const [id, x, y] of positions) {
            if (x < x0 || x > x1 || y < y0 || y > y1) continue;
            inView++;
            if (far) continue;
            const el = els.get(id);
            if (!el || el.style.visibility === 'hidden') { ok = false; break; }
          }
          if (far && Number(far.dataset.drawnNodes || 0) < inView) ok = false;
          const key = t.join(',');
          if (ok && key === last) return void window.__swb.frames(2).then(res);
          last = key;
        }
        requestAnimationFrame(tick);
      };
      tick();
    });
  },
  // A point of empty pane (a drag there pans) near the middle of the pane, in page coordinates. In
  // the app's far view the pane is under every node, so there a point must also be one the far
  // canvas drew nothing at (nor within 3 px: a press that close to a box picks the box).
  panePoint() {
    const pane = document.querySelector('.react-flow__pane');
    const r = pane.getBoundingClientRect();
    const far = document.querySelector('.sw-far-layer');
    const farEmpty = (x, y) => {
      if (!far) return true;
      const f = far.getBoundingClientRect();
      const sx = far.width / f.width, sy = far.height / f.height;
      const d = far.getContext('2d').getImageData(
        Math.round((x - 3 - f.left) * sx), Math.round((y - 3 - f.top) * sy), Math.ceil(7 * sx), Math.ceil(7 * sy)).data;
      for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return false;
      return true;
    };
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    for (let d = 0; d < Math.max(r.width, r.height) / 2; d += 4)
      for (const [x, y] of [[cx + d, cy], [cx - d, cy], [cx, cy + d], [cx, cy - d], [cx + d, cy + d], [cx - d, cy - d]]) {
        const el = document.elementFromPoint(x, y);
        if (el && el.classList.contains('react-flow__pane') && farEmpty(x, y)) return [x, y];
      }
    return null;
  },
  paneCentre() {
    const r = document.querySelector('.react-flow__pane').getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  },
};
`;
