// Run bundles from the browser: download a run as `<graph>-<runid>.swrun` and upload one to
// `POST /api/runs/import` (see src/server/README.md, "Run bundles"). Both carry the API token, so
// the download goes through fetch + an object URL rather than a plain link.
import {
  BUNDLE_EXTENSION,
  BUNDLE_IMPORT_ROUTE,
  BUNDLE_MEDIA_TYPE,
  BundleImportResultSchema,
  type BundleImportResult,
} from '../../domain/protocol/runBundle.schema.ts';
import { messageOf } from './client.ts';
import { authHeaders } from './token.ts';

async function failure(res: Response, what: string): Promise<Error> {
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text itself is the message
  }
  return new Error(`${what} (${res.status}): ${messageOf(parsed, text || res.statusText)}`);
}

/** Fetches the bundle of `runId` and hands it to the browser as a download; resolves with the file name. */
export async function downloadRunBundle(runId: string): Promise<string> {
  const res = await fetch(`/api/runs/${encodeURIComponent(runId)}/bundle`, { headers: authHeaders() });
  if (!res.ok) throw await failure(res, `could not export run ${runId}`);
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${runId}${BUNDLE_EXTENSION}`;
  const url = URL.createObjectURL(await res.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // The click has started the download; the URL may go once the event loop turns.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}

/** Uploads a bundle file; the server refuses a damaged one as a whole (nothing is imported). */
export async function importRunBundle(file: Blob): Promise<BundleImportResult> {
  let res: Response;
  try {
    res = await fetch(BUNDLE_IMPORT_ROUTE, {
      method: 'POST',
      headers: { 'content-type': BUNDLE_MEDIA_TYPE, ...authHeaders() },
      body: file,
    });
  } catch (e) {
    throw new Error(`server unreachable: ${(e as Error).message}`, { cause: e });
  }
  if (!res.ok) throw await failure(res, 'import refused');
  return BundleImportResultSchema.parse(await res.json());
}
