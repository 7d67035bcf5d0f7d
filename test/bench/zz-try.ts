import { openBenchPostgres } from '/work/wt/h30/test/bench/bench-postgres.ts';
import { importMemory } from '/work/wt/h30/test/bench/import-memory.ts';
const pg = await openBenchPostgres();
try {
  console.log(JSON.stringify(await importMemory(Number(process.argv[2] ?? 5000), await pg.database('import_try'))));
} finally { await pg.stop(); }
