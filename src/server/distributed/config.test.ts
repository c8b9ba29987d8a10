import { describe, expect, it } from 'vitest';
import {
  DATABASE_URL_ENV,
  distributedConfig,
  DistributedConfigError,
  redactUrl,
  REDIS_URL_ENV,
} from './config.ts';

const REDIS = 'redis://127.0.0.1:6379';
const PG = 'postgres://statewire:secret@db.example:5432/statewire';

describe('distributedConfig', () => {
  it('is embedded (undefined) when neither variable is set, or both are empty', () => {
    expect(distributedConfig({})).toBeUndefined();
    expect(distributedConfig({ [REDIS_URL_ENV]: '', [DATABASE_URL_ENV]: '  ' })).toBeUndefined();
  });

  it('is distributed when both are set', () => {
    expect(distributedConfig({ [REDIS_URL_ENV]: REDIS, [DATABASE_URL_ENV]: PG })).toEqual({
      redisUrl: REDIS,
      databaseUrl: PG,
    });
    expect(
      distributedConfig({ [REDIS_URL_ENV]: 'rediss://r:6380/2', [DATABASE_URL_ENV]: 'postgresql://u@h/db' }),
    ).toEqual({ redisUrl: 'rediss://r:6380/2', databaseUrl: 'postgresql://u@h/db' });
  });

  it('refuses only one of the two, naming the missing one', () => {
    expect(() => distributedConfig({ [REDIS_URL_ENV]: REDIS })).toThrow(DistributedConfigError);
    expect(() => distributedConfig({ [REDIS_URL_ENV]: REDIS })).toThrow(
      `${REDIS_URL_ENV} is set but ${DATABASE_URL_ENV} is not`,
    );
    expect(() => distributedConfig({ [DATABASE_URL_ENV]: PG })).toThrow(
      `${DATABASE_URL_ENV} is set but ${REDIS_URL_ENV} is not`,
    );
  });

  it('refuses a URL of the wrong kind without printing its password', () => {
    expect(() => distributedConfig({ [REDIS_URL_ENV]: PG, [DATABASE_URL_ENV]: PG })).toThrow(
      /STATEWIRE_REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => distributedConfig({ [REDIS_URL_ENV]: REDIS, [DATABASE_URL_ENV]: REDIS })).toThrow(
      /STATEWIRE_DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    let message = '';
    try {
      distributedConfig({ [REDIS_URL_ENV]: REDIS, [DATABASE_URL_ENV]: 'not a url :secret@' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/STATEWIRE_DATABASE_URL: not a URL/);
  });
});

describe('redactUrl', () => {
  it('hides the password only', () => {
    expect(redactUrl(PG)).toBe('postgres://statewire:***@db.example:5432/statewire');
    expect(redactUrl(REDIS)).toBe(REDIS);
    expect(redactUrl('redis://:pw@r:6379')).toBe('redis://:***@r:6379');
  });
});
