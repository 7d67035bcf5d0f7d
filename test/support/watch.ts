/** A promise whose outcome a test can look at without awaiting it (for work that must still be waiting). */
export interface Watched<T> {
  readonly promise: Promise<T>;
  readonly state: 'pending' | 'resolved' | 'rejected';
}

export function watch<T>(promise: Promise<T>): Watched<T> {
  const watched: { promise: Promise<T>; state: Watched<T>['state'] } = { promise, state: 'pending' };
  promise.then(
    () => (watched.state = 'resolved'),
    () => (watched.state = 'rejected'),
  );
  return watched;
}
