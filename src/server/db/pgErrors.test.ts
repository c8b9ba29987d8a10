// Which PostgreSQL failures count as "unreachable now" (wait, retry, 503) and which are real errors,
// and retryWhileUnavailable's three ways out: success after an outage, a real error at once, and
// giving up after its limit. The fault tests (distributed/pgRestart.faults.test.ts) meet these
// errors from a real server; here each kind is named once.
import { describe, expect, it } from 'vitest';
import { storageApiError } from '../errors/storageErrors.ts';
import { isPgUnavailable, retryWhileUnavailable } from './pgErrors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isPgUnavailable', () => {
  it('is true for a lost or refused connection and a server shutting down or starting', () => {
    for (const err of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('terminating connection because of crash of another server process', '57P02'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      withCode('sorry, too many clients already', '53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], ''),
      new Error('wrapped', { cause: withCode('x', '57P01') }),
    ])
      expect({ message: err.message, unavailable: isPgUnavailable(err) }).toEqual({
        message: err.message,
        unavailable: true,
      });
  });

  it('is false for a statement that is wrong and for things that are not errors', () => {
    for (const err of [
      withCode('syntax error at or near "SELEC"', '42601'),
      withCode('duplicate key value violates unique constraint', '23505'),
      new Error('something else'),
      new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', '42601')], ''),
      'ECONNREFUSED',
      undefined,
    ])
      expect(isPgUnavailable(err)).toBe(false);
  });

  it('makes a storage error 503 database-unavailable', () => {
    const api = storageApiError(
      withCode('terminating connection due to administrator command', '57P01'),
      'x',
    );
    expect({ status: api?.status, code: api?.code }).toEqual({ status: 503, code: 'database-unavailable' });
  });
});

describe('retryWhileUnavailable', () => {
  it('tries again while the database is unreachable, then answers', async () => {
    let calls = 0;
    const waits: string[] = [];
    const out = await retryWhileUnavailable(
      async () => {
        if (++calls < 3) throw withCode('connect ECONNREFUSED', 'ECONNREFUSED');
        return 'ok';
      },
      { limitMs: 60_000, onWait: (e) => waits.push(e.message) },
    );
    expect({ out, calls, waits }).toEqual({
      out: 'ok',
      calls: 3,
      waits: ['connect ECONNREFUSED', 'connect ECONNREFUSED'],
    });
  });

  it('throws a real error at once', async () => {
    let calls = 0;
    await expect(
      retryWhileUnavailable(
        async () => {
          calls++;
          throw withCode('syntax error', '42601');
        },
        { limitMs: 60_000 },
      ),
    ).rejects.toThrow('syntax error');
    expect(calls).toBe(1);
  });

  it('gives up with the last error once its limit has passed', async () => {
    let calls = 0;
    await expect(
      retryWhileUnavailable(
        async () => {
          calls++;
          throw withCode('the database system is starting up', '57P03');
        },
        { limitMs: 600 },
      ),
    ).rejects.toThrow('starting up');
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
