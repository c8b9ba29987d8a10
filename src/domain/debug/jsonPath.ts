// JSON paths of the debugger (`$.a.b[3]`, `$["odd key"]`), shared by the state diff and the value
// viewer's tree. A module of its own so the viewer does not load the diff engine (jsondiffpatch).

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$` + `.name`, `["odd key"]` or `[3]` per segment. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENT.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
