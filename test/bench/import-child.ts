/**
 * One `aivis import-prompts` run in a process of its own, on a clock `clockFactor` times fast
 * (receipt polls of 2 s pass in milliseconds, as the sandbox's clock does), so the memory
 * figure measures the import alone: prints one JSON line `{ code, maxRssKb, report }`, where
 * `maxRssKb` is the kernel's high-water mark of this process (as `/usr/bin/time` reports it).
 *
 * Run as `node import-child.ts '<{ clockFactor, argv } as JSON>'`.
 */
import { importPrompts, type ImportPromptsArgs } from '../../src/cli/commands/import-prompts.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { scaledClock } from './scaled-clock.ts';

const { clockFactor, argv } = JSON.parse(process.argv[2] ?? '{}') as { clockFactor: number; argv: ImportPromptsArgs };
let out = '';
const code = await importPrompts(
  { ...argv, json: true },
  { clock: scaledClock(clockFactor), write: (text) => (out += text), logger: silentLogger },
);
process.stdout.write(
  `${JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS, report: JSON.parse(out) })}\n`,
);
