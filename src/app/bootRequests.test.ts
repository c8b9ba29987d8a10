// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { startBootRequests, takeBootRequest } from './bootRequests.ts';

describe('boot requests', () => {
  it('sends the deep link graph, the catalog, the services report and the graph list, each answer taken once', async () => {
    startBootRequests('?graph=flows/big%20one');
    const graph = takeBootRequest('graph', 'flows/big one');
    const catalog = takeBootRequest('catalog');
    const services = takeBootRequest('services');
    const journal = takeBootRequest('journal');
    const graphs = takeBootRequest('graphs');
    expect(graphs).toBeInstanceOf(Promise);
    expect(graph).toBeInstanceOf(Promise);
    expect(journal).toBeInstanceOf(Promise);
    expect(catalog).toBeInstanceOf(Promise);
    expect(services).toBeInstanceOf(Promise);
    // Taken: a later caller asks the server itself instead of reading an old answer.
    expect(takeBootRequest('graph', 'flows/big one')).toBeUndefined();
    expect(takeBootRequest('catalog')).toBeUndefined();
    expect(takeBootRequest('services')).toBeUndefined();
    expect(takeBootRequest('journal')).toBeUndefined();
    expect(takeBootRequest('graphs')).toBeUndefined();
    // No server behind happy-dom's page: the answers are the client's own errors, kept for the taker.
    await expect(graph).rejects.toThrow(/server unreachable|GET \/api\/graphs\/flows\/big%20one/);
    await expect(catalog).rejects.toThrow();
    await expect(services).rejects.toThrow();
    await expect(graphs).rejects.toThrow();
    // happy-dom has no IndexedDB: the journal reads as empty (readJournal never throws).
    await expect(journal).resolves.toEqual([]);
  });

  it('sends no graph request without a deep link, and none for another graph id', () => {
    startBootRequests('');
    expect(takeBootRequest('graph', '')).toBeUndefined();
    expect(takeBootRequest('graph', 'other')).toBeUndefined();
    takeBootRequest('catalog')?.catch(() => {});
    takeBootRequest('services')?.catch(() => {});
    takeBootRequest('graphs')?.catch(() => {});
    void takeBootRequest('journal');
  });
});
