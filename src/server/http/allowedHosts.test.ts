// The pure Host/Origin rules: parsing what browsers send and which names a bound server answers to.
import { describe, expect, it } from 'vitest';
import { allowedHosts, isLoopback, parseHostHeader, parseHostPort, parseOrigin } from './allowedHosts.ts';
import { parseAllowedHostEntries, tokenProblem } from './originGuard.ts';

describe('parsing Host and Origin', () => {
  it('reads names, IPv4, bracketed IPv6 and ports; a missing port in Host means 80', () => {
    expect(parseHostHeader('LocalHost:5177')).toEqual({ host: 'localhost', port: 5177 });
    expect(parseHostHeader('[0:0:0:0:0:0:0:1]:9')).toEqual({ host: '[::1]', port: 9 });
    expect(parseHostHeader('127.0.0.1')).toEqual({ host: '127.0.0.1', port: 80 });
    expect(parseHostPort('mybox.lan')).toEqual({ host: 'mybox.lan', port: undefined });
  });

  it('refuses what no browser sends as a Host', () => {
    for (const bad of ['', 'a@127.0.0.1:1', '127.0.0.1:1/x', 'http://x', 'a b', 'x:99999', 'x:'])
      expect(parseHostHeader(bad), bad).toBeUndefined();
    expect(parseHostHeader(undefined)).toBeUndefined();
  });

  it('reads an Origin with its default port; refuses null, other schemes and paths', () => {
    expect(parseOrigin('http://localhost:5177')).toEqual({ host: 'localhost', port: 5177 });
    expect(parseOrigin('https://proxy.example')).toEqual({ host: 'proxy.example', port: 443 });
    for (const bad of ['null', 'file://', 'ws://localhost:1', 'http://a/b', 'http://u:p@a', 'junk'])
      expect(parseOrigin(bad), bad).toBeUndefined();
  });

  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopback(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '192.168.1.2', 'evil.test', '128.0.0.1'])
      expect(isLoopback(a), a).toBe(false);
  });
});

describe('allowed hosts of a bound server', () => {
  it('loopback bind: the loopback names on the bound port only, plus --allowed-host entries', () => {
    const list = allowedHosts({
      address: '127.0.0.1',
      port: 5177,
      extra: parseAllowedHostEntries(['proxy.example', 'lan.box:8080']),
    });
    for (const ok of ['127.0.0.1:5177', 'localhost:5177', '[::1]:5177', 'proxy.example', 'lan.box:8080'])
      expect(list.allows(parseHostHeader(ok)), ok).toBe(true);
    for (const bad of ['127.0.0.1:5178', 'evil.test:5177', 'lan.box:8081', '192.168.1.2:5177', 'localhost'])
      expect(list.allows(parseHostHeader(bad)), bad).toBe(false);
  });

  it('wildcard bind: also every interface address and the machine name', () => {
    const list = allowedHosts({
      address: '::',
      port: 80,
      interfaceAddresses: ['192.168.1.2', 'fe80::1'],
      hostname: 'mybox',
    });
    for (const ok of ['192.168.1.2', '[fe80::1]:80', 'mybox', '[::]', 'localhost:80'])
      expect(list.allows(parseHostHeader(ok)), ok).toBe(true);
    expect(list.allows(parseHostHeader('evil.test'))).toBe(false);
  });

  it('bad --allowed-host entries and weak tokens are refused with the reason', () => {
    expect(() => parseAllowedHostEntries(['ok.test', 'http://x'])).toThrow(
      /invalid --allowed-host "http:\/\/x"/,
    );
    expect(tokenProblem('short')).toMatch(/at least 16 characters \(got 5\)/);
    expect(tokenProblem('has a space in it, long enough')).toMatch(/printable ASCII/);
    expect(tokenProblem('0123456789abcdef')).toBeUndefined();
  });
});
