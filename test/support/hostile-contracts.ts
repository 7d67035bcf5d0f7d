/**
 * The hostile served contracts of the sandbox (valid JSON, hostile to a reader) and what aivis
 * says of each: every command that reads the served contract warns once with this reason and
 * goes on under another contract (docs/served-contract.md).
 */
import { type Sandbox, type SandboxVariant, startSandbox } from '../../src/sandbox/index.ts';

export const UNUSABLE = 'the served contract (GET /public/v2/openapi.json) is unusable';

/** Each hostile variant with the reason the warning gives. */
export const HOSTILE_CONTRACTS: readonly [SandboxVariant, string][] = [
  ['contract_bad_pointer', 'its $ref "#/components/%E0%A4%A" is not a valid JSON pointer'],
  ['contract_ref_chain', 'its $ref "#/components/schemas/Chain0" starts a chain of more than 64 references'],
  ['contract_deep_nesting', 'it nests 3,006 levels deep, deeper than the 500 aivis reads'],
  ['contract_repeated_description', 'it dereferences to more than 16,777,216 characters'],
];

/** The image's settings (Dockerfile): a hostile document must be read within its heap. */
export const IMAGE_ENV = { NODE_ENV: 'production', NODE_OPTIONS: '--max-semi-space-size=1 --max-old-space-size=256' };

/**
 * A sandbox of two websites serving `^(a+)+$` as a mention field's pattern, and a mention text
 * (on the first website, or on every one) that would drive a backtracking engine through 2^5,000 steps.
 */
export async function backtrackingSandbox({ firstWebsiteOnly = false } = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({
    seed: 11,
    websites: 2,
    requestsPerMinute: 0,
    variants: ['contract_backtracking_pattern'],
  });
  const [first] = sandbox.truth.websites().map((w) => w.id as string);
  sandbox.faults.set({
    kind: 'malformed_record',
    routes: ['mentions'],
    ...(firstWebsiteOnly ? { websites: [first!] } : {}),
    field: 'sentence_text_truncated',
    value: `${'a'.repeat(5000)}!`,
  });
  return sandbox;
}
