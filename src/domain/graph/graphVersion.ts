// A graph version is the SHA-256 (hex) of the graph's canonical save form (graph.format.ts): two runs
// carry the same version exactly when they ran byte-identical graphs — any edit, even a moved node,
// makes a new version (the structural diff, graph.diff.ts, says whether it mattered). The server
// computes it (src/server/runs/graphVersion.ts); everything else only shows it, shortened.

/** Hex digits shown for a version (as git shows a commit): enough to tell a batch's versions apart. */
export const SHORT_VERSION_LENGTH = 8;

/** The short form of a version; "—" for a run stored before versions were kept. */
export function shortVersion(version: string | null | undefined): string {
  return version ? version.slice(0, SHORT_VERSION_LENGTH) : '—';
}
