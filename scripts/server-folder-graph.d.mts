// Types of server-folder-graph.mjs for its test.
/** from folder → to folder → the imports behind that edge (`file → specifier`). */
export type FolderEdges = Map<string, Map<string, string[]>>;
export function folderGraph(): FolderEdges;
export function cycles(edges: FolderEdges): string[][];
