/**
 * Where the wall time of an in-process sync goes, from a V8 CPU profile of the syncing
 * thread. Node runs the engine on one thread, so every sample is either JS/native work of
 * one kind or idle time spent waiting on a socket. Work is attributed by the code on the
 * sample's stack; idle time by what was outstanding: a `Destination.commit` in flight means
 * the pipeline waits on the warehouse, otherwise on the API.
 */
import type { Profiler } from 'node:inspector';

export type Share = 'api_wait' | 'http' | 'parse' | 'validate' | 'load' | 'gc' | 'other';

/** Code of each kind, by the file a stack frame belongs to. */
const CODE: readonly [Share, RegExp][] = [
  ['load', /\/connectors\/|\/node_modules\/(pg|pg-copy-streams|pg-protocol|pg-types)\//],
  // src/contract/: the served contract read once per run and, when it differs, the second validator.
  [
    'validate',
    /\/node_modules\/(zod|ajv|@apidevtools)\/|\/schemas\/|\/src\/streams\/|\/src\/contract\/|\/record-result\.ts$/,
  ],
  ['parse', /\/json-body\.ts$/],
  ['http', /\/node_modules\/undici\/|\/src\/client\//],
];

const WAITING = new Set(['(idle)', '(program)']);

/** Intervals in profile time (microseconds) during which the destination was committing. */
export type Intervals = readonly (readonly [number, number])[];

export function timeShares(profile: Profiler.Profile, commits: Intervals): Record<Share, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const kindOf = new Map<number, Share | 'waiting'>();
  const classify = (id: number): Share | 'waiting' => {
    const known = kindOf.get(id);
    if (known) return known;
    const frame = nodes.get(id)!.callFrame;
    let kind: Share | 'waiting' | undefined;
    if (frame.functionName === '(garbage collector)') kind = 'gc';
    else if (WAITING.has(frame.functionName)) kind = 'waiting';
    else {
      for (let at: number | undefined = id; at !== undefined && kind === undefined; at = parent.get(at)) {
        const url = nodes.get(at)!.callFrame.url;
        kind = CODE.find(([, pattern]) => pattern.test(url))?.[0];
      }
    }
    kindOf.set(id, kind ?? 'other');
    return kind ?? 'other';
  };
  const totals: Record<Share, number> = { api_wait: 0, http: 0, parse: 0, validate: 0, load: 0, gc: 0, other: 0 };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  let commit = 0;
  for (let i = 0; i < samples.length; i++) {
    const delta = deltas[i + 1] ?? 0; // time until the next sample is what this sample stands for
    at += deltas[i] ?? 0;
    while (commit < commits.length && commits[commit]![1] < at) commit++;
    const kind = classify(samples[i]!);
    const committing = commit < commits.length && commits[commit]![0] <= at;
    totals[kind === 'waiting' ? (committing ? 'load' : 'api_wait') : kind] += delta;
  }
  const sum = Object.values(totals).reduce((a, b) => a + b, 0) || 1;
  return Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v / sum])) as Record<Share, number>;
}
