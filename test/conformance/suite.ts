/**
 * The destination conformance suite (docs/architecture.md#destinations): every destination runs
 * the same tests. A destination's test file is a few lines of setup plus
 * `runConformanceSuite(target)`. Topics live in `topics/*.ts`; each test names itself
 * `<topic>: <behaviour>`, which is also the key a target uses in `skip`.
 */
import { describe } from 'vitest';
import { coverageTopic } from './topics/coverage.ts';
import { evolutionTopic } from './topics/evolution.ts';
import { faultsTopic } from './topics/faults.ts';
import { literalsTopic } from './topics/literals.ts';
import { locksTopic } from './topics/locks.ts';
import { removalsTopic } from './topics/removals.ts';
import { runsTopic } from './topics/runs.ts';
import { schemaTopic } from './topics/schema.ts';
import { stateTopic } from './topics/state.ts';
import { typesTopic } from './topics/types.ts';
import { upsertTopic } from './topics/upsert.ts';
import { windowIdsTopic } from './topics/window-ids.ts';
import type { ConformanceTarget } from './target.ts';

export type { LogicalRow } from './normalize.ts';
export type { ConformanceTarget } from './target.ts';

export function runConformanceSuite(target: ConformanceTarget): void {
  describe(`${target.name} destination conformance`, () => {
    typesTopic(target);
    upsertTopic(target);
    stateTopic(target);
    schemaTopic(target);
    removalsTopic(target);
    runsTopic(target);
    locksTopic(target);
    windowIdsTopic(target);
    evolutionTopic(target);
    literalsTopic(target);
    coverageTopic(target);
    faultsTopic(target);
  });
}
