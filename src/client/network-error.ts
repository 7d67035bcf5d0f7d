/**
 * An attempt that got no usable answer: the connection failed or reset, the deadline passed,
 * a success body arrived truncated or not as JSON (all worth a retry), or the server's TLS
 * certificate is not trusted, or the server does not speak TLS at all to an `https://` base
 * URL (the same answer comes back on every try). The client turns the last one into an ApiError.
 */
export type NetworkFailure = 'connection' | 'timeout' | 'bad_body' | 'certificate' | 'not_tls';

export class NetworkError extends Error {
  readonly failure: NetworkFailure;
  /** Retries made before this failure was final; set by the retry layer. */
  retries = 0;
  /** Set by the retry layer when the request's retry budget (this many ms) ended its retries. */
  budgetSpentMs: number | undefined;
  constructor(failure: NetworkFailure, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NetworkError';
    this.failure = failure;
  }
}
