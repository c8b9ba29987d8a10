// The server's access token (required when `statewire serve` is bound beyond loopback or started with
// --token). It arrives once in the URL the server printed (`/?token=…`); the page keeps it in
// localStorage (per origin, so another site's page never sees it), removes it from the address bar
// (no token in history, bookmarks or screenshots) and sends it as `Authorization: Bearer …` on REST
// calls and in the socket.io `auth` payload.
const KEY = 'statewire.token';

let memory: string | undefined; // when storage is unavailable (private mode, disabled)

/** Takes `?token=` out of the current URL and keeps it. Call once, before anything reads the URL. */
export function captureToken(): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return;
  memory = token;
  try {
    window.localStorage.setItem(KEY, token);
  } catch {
    // storage unavailable: the in-memory copy serves this page load
  }
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.toString());
}

export function apiToken(): string | undefined {
  if (memory !== undefined) return memory;
  try {
    return window.localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** `{authorization: 'Bearer …'}` when a token is kept, else nothing. */
export function authHeaders(): Record<string, string> {
  const token = apiToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}
