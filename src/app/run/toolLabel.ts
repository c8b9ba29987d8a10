// A toolbar button's words, hidden when its toolbar (a CSS container, `@container`) is narrower
// than 52rem: the icon and the tooltip remain, so the Timeline's toolbar stays one line in a narrow
// window instead of wrapping or cutting its last buttons.
export const TOOL_LABEL = '@max-[52rem]:hidden';
