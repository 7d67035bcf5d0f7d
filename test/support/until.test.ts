import { describe, expect, it, vi } from 'vitest';
import { until } from './until.ts';

describe('until', () => {
  it('resolves once the condition holds, checking it again only after a pause', async () => {
    let calls = 0;
    await until(() => ++calls === 3, 'the third look');
    expect(calls).toBe(3);
  });

  it('fails past its deadline naming what never happened, even on a fake clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'Date'] });
    try {
      await expect(until(() => false, 'the row to be committed', 50)).rejects.toThrow(
        'gave up after 50 ms waiting for the row to be committed',
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
