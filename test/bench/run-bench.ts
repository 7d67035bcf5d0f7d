/**
 * `npm run bench [-- --quick]`: how close aivis gets to the API's ceiling and to the
 * warehouse's own load speed (issue 7), all figures from one run as ratios, how W workspaces
 * in one process compare with one alone (issue 15), what a BigQuery flush costs as its table
 * grows and with concurrent workspaces, and how long a Snowflake warehouse runs for a
 * rate-limited sync. Prints a Markdown
 * table on stdout, progress on stderr, and writes test/bench/results.json.
 *
 * PostgreSQL: `AIVIS_BENCH_DATABASE_URL`, or an embedded server started here.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchFigure } from './bench-figure.ts';
import { describeMachine, machineLine } from './bench-machine.ts';
import { openBenchPostgres } from './bench-postgres.ts';
import { DEFAULT_SIZES, QUICK_SIZES } from './bench-sizes.ts';
import { descriptorOf } from '../../connectors/registry.ts';
import { bigqueryBackfillBytes } from './bigquery-backfill-bytes.ts';
import { bigqueryFlushBytes } from './bigquery-flush-bytes.ts';
import { changeDrivenDay } from './change-driven-day.ts';
import { budgetUse } from './budget-use.ts';
import { endToEnd } from './end-to-end.ts';
import { largestPage } from './largest-page.ts';
import { loadSpeed } from './load-speed.ts';
import { mentionBatches } from './mention-rows.ts';
import { importMemory } from './import-memory.ts';
import { peakMemory } from './peak-memory.ts';
import { protocolThroughput } from './protocol-throughput.ts';
import { requestEfficiency } from './request-efficiency.ts';
import { resultsTable } from './results-table.ts';
import { bigqueryWorkspaces } from './bigquery-workspaces.ts';
import { snowflakeWarehouseTime } from './snowflake-warehouse-time.ts';
import { workspaceScale } from './workspace-scale.ts';
import { round } from './bench-figure.ts';

const RESULTS = path.join(import.meta.dirname, 'results.json');
const FLUSH_ROWS = descriptorOf('postgres').flushSizing.maxRowsPerFlush; // DuckDB's too
/** The V8 flags the image runs aivis with (Dockerfile `NODE_OPTIONS`; docs/performance.md, row 9). */
const HEAP_CAP = ['--max-semi-space-size=1', '--max-old-space-size=256'];

const unknown = process.argv.slice(2).filter((arg) => arg !== '--quick');
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown argument ${unknown.join(' ')} (usage: npm run bench [-- --quick])\n`);
  process.exit(2);
}
const sizes = process.argv.includes('--quick') ? QUICK_SIZES : DEFAULT_SIZES;
const largest = Math.max(...sizes.memoryRows);
const started = performance.now();
const progress = (what: string) =>
  process.stderr.write(`bench [${Math.round((performance.now() - started) / 1000)} s] ${what}\n`);

progress(`size ${sizes.name}; starting PostgreSQL`);
const postgres = await openBenchPostgres();
try {
  const machine = await describeMachine(postgres.version);
  const figures: BenchFigure[] = [];
  progress('1/11 request efficiency');
  figures.push(
    ...(await requestEfficiency(await postgres.database('efficiency'), sizes.efficiency, sizes.advanceDays)),
  );
  progress('2/11 budget use');
  figures.push(
    await budgetUse(await postgres.database('budget'), sizes.budget, sizes.requestsPerMinute, sizes.clockFactor),
  );
  progress('3/11 load speed');
  figures.push(
    ...(await loadSpeed(
      await postgres.database('load'),
      await mentionBatches(sizes.loadRows, FLUSH_ROWS),
      sizes.loadRounds,
    )),
  );
  progress(`4/11 peak memory of aivis sync at ${sizes.memoryRows.join(', ')} mentions`);
  figures.push(...(await peakMemory(sizes.memoryRows, (rows) => postgres.database(`memory_${rows}`))));
  progress(`4/11 the same at ${largest} mentions, with the V8 heap capped`);
  figures.push(...(await peakMemory([largest], (rows) => postgres.database(`memory_capped_${rows}`), HEAP_CAP)));
  progress('4/11 the largest page aivis accepts, with the V8 heap capped, into Postgres and DuckDB');
  figures.push(...(await largestPage({ postgres: postgres.database, pages: sizes.largestPages }, HEAP_CAP)));
  progress('5/11 end-to-end throughput');
  figures.push(await endToEnd(await postgres.database('end_to_end'), sizes.endToEnd));
  progress(`6/11 BigQuery bytes per flush into ${sizes.bigqueryTableRows.join(' and ')} rows`);
  figures.push(await bigqueryFlushBytes(sizes.bigqueryTableRows));
  figures.push(await bigqueryBackfillBytes(sizes.bigqueryTableRows[0]));
  progress(`7/11 ${sizes.workspaces.count} workspaces in one process against one alone`);
  const { world, count, clockFactor } = sizes.workspaces;
  figures.push(await workspaceScale(postgres.database, world, count, sizes.requestsPerMinute, clockFactor));
  progress(`8/11 BigQuery jobs and bytes per flush, ${sizes.bigqueryWorkspaces.count} workspaces at once`);
  figures.push(await bigqueryWorkspaces(sizes.bigqueryWorkspaces.world, sizes.bigqueryWorkspaces.count));
  const warehouse = sizes.snowflakeWarehouse;
  if (!warehouse.worstCaseOnly) {
    progress('9/11 Snowflake warehouse-running seconds of a rate-limited incremental sync');
    figures.push(await snowflakeWarehouseTime(warehouse.world, warehouse.budget, warehouse.clockFactor));
  }
  progress('9/11 Snowflake warehouse-running seconds of a run just longer than one flush interval');
  const worstCase = { ...warehouse.world, websites: warehouse.worstCaseWebsites };
  figures.push(await snowflakeWarehouseTime(worstCase, warehouse.budget, warehouse.clockFactor, 'worst case'));
  progress(`10/11 peak memory of import-prompts --from-table, ${sizes.importRows} Postgres rows`);
  figures.push(await importMemory(sizes.importRows, await postgres.database('import_memory')));
  progress('11/11 aivis airbyte read to /dev/null against aivis sync into DuckDB');
  figures.push(await protocolThroughput(sizes.endToEnd));
  progress(
    `after 11/11: a day of hourly syncs of ${sizes.changeDriven.world.websites} websites, change-driven against full`,
  );
  figures.push(
    ...(await changeDrivenDay(
      postgres.database,
      sizes.changeDriven.world,
      sizes.changeDriven.hours,
      sizes.requestsPerMinute,
    )),
  );
  const seconds = round((performance.now() - started) / 1000, 1);
  const table = resultsTable(figures);
  process.stdout.write(
    `${table}\n\nMachine: ${machineLine(machine)}. Size: ${sizes.name}; bench wall time ${seconds} s.\n`,
  );
  await writeFile(
    RESULTS,
    `${JSON.stringify(
      { finishedAt: new Date().toISOString(), size: sizes.name, seconds, machine, sizes, figures },
      null,
      2,
    )}\n`,
  );
  progress(`wrote ${path.relative(process.cwd(), RESULTS)}`);
} finally {
  await postgres.stop();
}
