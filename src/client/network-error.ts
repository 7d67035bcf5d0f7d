/**
 * An attempt that got no usable answer: the connection failed or reset, the deadline passed,
 * or a success body arrived truncated or not as JSON. All of them are worth a retry; the
 * client turns the last one into an ApiError.
 */
export type NetworkFailure = 'connection' | 'timeout' | 'bad_body';

export class NetworkError extends Error {
  readonly failure: NetworkFailure;
  /** Retries made before this failure was final; set by the retry layer. */
  retries = 0;
  constructor(failure: NetworkFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NetworkError';
    this.failure = failure;
  }
}
