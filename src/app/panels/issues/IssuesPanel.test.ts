import { describe, expect, it } from 'vitest';
import type { Issue } from '../../store/graphIo.ts';
import { countSeverity } from './issueCount.ts';

const issue = (severity: Issue['severity']): Issue => ({ code: 'x', severity, path: '$', message: 'm' });

describe('issue counts', () => {
  it('counts load issues by their own severity, not all as warnings', () => {
    const live = [issue('error'), issue('warning')];
    const load = [issue('info'), issue('info'), issue('warning'), issue('error')];
    expect(countSeverity('error', live, load)).toBe(2);
    expect(countSeverity('warning', live, load)).toBe(2);
    expect(countSeverity('info', live, load)).toBe(2);
  });
});
