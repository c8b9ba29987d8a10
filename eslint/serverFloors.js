// ESLint rule `local/server-floors`: the folders of src/server stand on floors (eslint.config.js
// lists them, docs/architecture.md shows them); a file may import its own folder and folders on
// lower floors only. So the folder graph has no loops and nothing imports cli/ or http/ from below.
// Relative imports are resolved to the folder they reach; tests are not checked (they build servers).
import { dirname, relative, resolve, sep } from 'node:path';

/** The top folder of `file` inside `serverRoot` ('.' for files directly in it), or null outside. */
function folderOf(serverRoot, file) {
  const rel = relative(serverRoot, file);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return null;
  const parts = rel.split(sep);
  return parts.length === 1 ? '.' : parts[0];
}

export const serverFloors = {
  meta: {
    type: 'problem',
    docs: { description: 'src/server folders import only their own folder and lower floors' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          floors: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root', 'floors'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { root, floors } = context.options[0];
    const serverRoot = resolve(context.cwd, root);
    const floorOf = new Map(floors.flatMap((names, i) => names.map((n) => [n, i])));
    const from = folderOf(serverRoot, context.filename);
    if (from === null) return {};
    const check = (node) => {
      const spec = node?.type === 'Literal' ? node.value : undefined;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = folderOf(serverRoot, resolve(dirname(context.filename), spec));
      if (to === null || to === from) return;
      const a = floorOf.get(from);
      const b = floorOf.get(to);
      if (a === undefined || b === undefined)
        context.report({
          node,
          message: `src/server/${a === undefined ? from : to} is on no floor: add it to the floors in eslint.config.js`,
        });
      else if (b >= a)
        context.report({
          node,
          message: `src/server/${from} (floor ${a}) may not import src/server/${to} (floor ${b}): only lower floors (docs/architecture.md)`,
        });
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
    };
  },
};
