// The canvas mark of a validation issue: an outline (not a border), so it stays visible while the
// element is selected, highlighted or showing its run status.
export function issueOutlineClass(mark: 'error' | 'warning' | null | undefined): string {
  if (mark === 'error') return 'outline-2 outline-offset-2 outline-red-500';
  if (mark === 'warning') return 'outline-1 outline-offset-2 outline-amber-500/80';
  return '';
}
