/** The V2 API client and what its callers handle. */
export { ApiClient, type ApiClientOptions, type ApiResponse, type RequestOptions } from './api-client.ts';
export { ApiError, type ApiErrorDetail } from './api-error.ts';
export type { ClientStats } from './client-stats.ts';
export { systemClock, type Clock } from './clock.ts';
export type { Page, PaginateOptions } from './paginator.ts';
export { DEFAULT_REQUESTS_PER_MINUTE, RateLimiter, type RateLimiterOptions } from './rate-limiter.ts';
export type { RecordResult } from './record-result.ts';
