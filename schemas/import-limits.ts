/** Size limits of one import request (spec 4.7, part 8): the API contract, so the CLI and the sandbox (its oracle) both read it here. */
export const IMPORT_LIMITS = {
  /** Items per request. */
  maxItems: 1000,
  /** 5 MiB, measured in bytes of the encoded request body. */
  maxBodyBytes: 5 * 1024 * 1024,
} as const;
