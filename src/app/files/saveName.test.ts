import { describe, expect, it } from 'vitest';
import { folderOf, splitSaveName } from './documents.ts';

describe('save names', () => {
  it('"folder/name" saves into that folder; a plain name into the fallback folder', () => {
    expect(splitSaveName('team/nav')).toEqual({ folder: 'team', name: 'nav' });
    expect(splitSaveName(' a / b / nav ')).toEqual({ folder: 'a/b', name: 'nav' });
    expect(splitSaveName('nav', 'team')).toEqual({ folder: 'team', name: 'nav' });
    expect(splitSaveName('nav')).toEqual({ folder: '', name: 'nav' });
    expect(splitSaveName('team/')).toEqual({ folder: '', name: 'team' });
    expect(splitSaveName('  ').name).toBe('');
  });

  it('folderOf gives the folder part of a saved id', () => {
    expect(folderOf('team/sub/nav')).toBe('team/sub');
    expect(folderOf('nav')).toBe('');
  });
});
