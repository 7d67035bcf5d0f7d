/**
 * How a connector words what its warehouse refused: every failure of a step that is not a
 * `DestinationError` already becomes one, `<engine> refused <what>: <driver's message>`,
 * redacted, so no driver error reaches the user unworded (docs/architecture.md#cli).
 */
import { DestinationError } from '../errors.ts';
import { redact } from '../log/redact.ts';

/** Runs a step, rewording its failure; `what` may be computed after the failure (the table a flush was writing). */
export type Refusing = <T>(what: string | (() => string), work: () => Promise<T>) => Promise<T>;

export function refusing(engine: string): Refusing {
  return async (what, work) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DestinationError) throw error;
      const step = typeof what === 'function' ? what() : what;
      throw new DestinationError(redact(`${engine} refused ${step}: ${(error as Error).message}`));
    }
  };
}
