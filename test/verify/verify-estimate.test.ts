import { describe, expect, it } from 'vitest';
import { describeEstimate, estimateRequests } from '../../src/verify/verify-estimate.ts';

describe('estimateRequests', () => {
  it('is the listing pages plus, per website, its rows since --since at 500 a page and at least a page per scan', () => {
    const estimate = estimateRequests({
      listedWebsites: 501,
      websites: [
        { rowsSince: 0 },
        { rowsSince: 500 },
        { rowsSince: 501 },
        { rowsSince: 1200, scans: 4 },
        { rowsSince: 10, scans: 3 },
      ],
    });
    // 2 listing pages; feed pages 1 + 1 + 2 + (3 + 3) + 3.
    expect(estimate).toEqual({ websites: 5, listing_pages: 2, feed_pages: 13, requests: 15 });
  });

  it('reads one listing page when the destination lists no website', () => {
    expect(estimateRequests({ listedWebsites: 0, websites: [] })).toEqual({
      websites: 0,
      listing_pages: 1,
      feed_pages: 0,
      requests: 1,
    });
  });
});

describe('describeEstimate', () => {
  it('says the requests and the minutes they take at the configured rate', () => {
    expect(describeEstimate('mentions', { websites: 5, listing_pages: 1, feed_pages: 40, requests: 41 }, 90)).toBe(
      'verify mentions: about 41 requests (1 listing page, 40 feed pages for 5 websites), 1 minute at 90 requests per minute',
    );
    expect(describeEstimate('citations', { websites: 1, listing_pages: 2, feed_pages: 1, requests: 181 }, 90)).toBe(
      'verify citations: about 181 requests (2 listing pages, 1 feed page for 1 website), 3 minutes at 90 requests per minute',
    );
  });
});
