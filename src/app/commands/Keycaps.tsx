// A shortcut as keycaps, the way IDEs print them: "Ctrl+Shift+S" is three caps joined by "+",
// alternatives ("← / → / Esc") are separated by "/", and words that are not keys (click, drag,
// "on empty selection") are plain text beside the caps. Each cap is as tall as one line of text and
// as wide as its label: a long description never stretches it.

export type ShortcutPart = { key: string } | { text: string };

/** Mouse actions written lower-case in the command list: text, not caps. */
const ACTION = /^[a-z][a-z-]+$/;

/** `Ctrl+Shift+S` → caps and separators; a space starts the description after a key. */
export function parseShortcut(shortcut: string): ShortcutPart[][] {
  return shortcut.split(' / ').map((alternative) => {
    const space = alternative.indexOf(' ');
    const keys = space < 0 ? alternative : alternative.slice(0, space);
    const rest = space < 0 ? '' : alternative.slice(space);
    // A lone "+" is a key of its own; elsewhere "+" joins keys.
    const tokens = keys === '+' ? ['+'] : keys.split('+');
    const parts: ShortcutPart[] = [];
    tokens.forEach((t, i) => {
      if (i > 0) parts.push({ text: '+' });
      parts.push(ACTION.test(t) ? { text: t } : { key: t });
    });
    if (rest) parts.push({ text: rest });
    return parts;
  });
}

export function Keycaps({ shortcut }: { shortcut: string }) {
  return (
    <span className="flex shrink-0 flex-wrap items-center justify-end gap-x-0.5 gap-y-1 text-[10px] text-zinc-500">
      {parseShortcut(shortcut).map((parts, a) => (
        <span key={a} className="flex items-center gap-0.5 whitespace-nowrap">
          {a > 0 && <span className="px-0.5">/</span>}
          {parts.map((p, i) =>
            'key' in p ? (
              <kbd
                key={i}
                data-testid="keycap"
                className="inline-block h-4 min-w-4 rounded border border-b-2 border-zinc-700 bg-zinc-800 px-1 text-center font-mono text-[10px] leading-[12px] text-zinc-200"
              >
                {p.key}
              </kbd>
            ) : (
              <span key={i}>{p.text}</span>
            ),
          )}
        </span>
      ))}
    </span>
  );
}
