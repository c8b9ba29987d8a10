// A graph version as a short id (`v 3fa9c2d1`; the full hash in the tooltip), "—" for rows stored
// before versions were kept. Shown in the Batches list and header, and in the Runs list.
import { shortVersion } from '../../domain/graph/graphVersion.ts';

export function VersionTag({
  version,
  className = '',
  testId,
}: {
  version: string | null | undefined;
  className?: string;
  testId?: string;
}) {
  return (
    <span
      className={`shrink-0 font-mono text-[10px] ${version ? 'text-sky-300/80' : 'text-zinc-600'} ${className}`}
      data-testid={testId}
      data-version={version ?? ''}
      title={
        version
          ? `graph version ${version} (SHA-256 of the canonical save form)`
          : 'stored before graph versions were kept'
      }
    >
      v {shortVersion(version)}
    </span>
  );
}
