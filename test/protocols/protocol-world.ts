/**
 * What the protocol tests share: a sandbox over loopback, the JSON files a platform hands a
 * connector, the real `aivis airbyte` / `tap-aivis` processes, and the sandbox's truth per
 * stream to compare their records with.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { PROTOCOL_STREAMS, protocolStream } from '../../src/protocols/protocol-streams.ts';
import { runCli, type CliResult } from '../support/cli-process.ts';
import { comparable, expectedTables } from '../e2e/expected-rows.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-protocols-'));
let files = 0;

/** A JSON file as a platform writes one; returns its path. */
export function jsonFile(name: string, value: unknown): string {
  const file = path.join(dir, `${files++}-${name}`);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

export function configFile(sandbox: Sandbox, extra: Record<string, unknown> = {}): string {
  return jsonFile('config.json', {
    base_url: sandbox.baseUrl,
    api_key: sandbox.apiKey,
    requests_per_minute: 6000,
    ...extra,
  });
}

const FEEDS = new Set(PROTOCOL_STREAMS.filter((s) => s.incremental).map((s) => s.name));

/** A configured catalog of these streams (default all), each feed `incremental` unless `mode` says. */
export function catalogFile(
  names: readonly string[] = PROTOCOL_STREAMS.map((s) => s.name),
  mode?: 'full_refresh' | 'incremental',
): string {
  return jsonFile('catalog.json', {
    streams: names.map((name) => ({
      stream: { name, json_schema: {}, supported_sync_modes: ['full_refresh'] },
      sync_mode: mode ?? (FEEDS.has(name) ? 'incremental' : 'full_refresh'),
      destination_sync_mode: 'append_dedup',
    })),
  });
}

/** `aivis airbyte <args>` to its end; the sandbox's key never appears in what it printed. */
export async function airbyte(sandbox: Sandbox, args: readonly string[]): Promise<CliResult> {
  return finished(sandbox, runCli(['airbyte', ...args], {}).done);
}

export async function tap(sandbox: Sandbox, args: readonly string[]): Promise<CliResult> {
  return finished(sandbox, runCli(args, {}, { entry: 'src/cli/tap-main.ts' }).done);
}

export async function finished(sandbox: Sandbox, done: Promise<CliResult>): Promise<CliResult> {
  const result = await done;
  expect(result.stdout + result.stderr).not.toContain(sandbox.apiKey);
  return result;
}

/** The rows of each stream, the last one per primary key (the platform's dedup), compared as the e2e tests compare tables. */
export function latestRows(records: readonly { stream: string; data: Record<string, unknown> }[]) {
  const byStream = new Map<string, Map<string, Record<string, unknown>>>();
  for (const { stream, data } of records) {
    const table = protocolStream(stream)!.table;
    const key = table.primaryKey.map((k) => String(data[k])).join('\u0001');
    if (!byStream.has(stream)) byStream.set(stream, new Map());
    byStream.get(stream)!.set(key, data);
  }
  return new Map(
    PROTOCOL_STREAMS.map((s) => [s.name, comparable(s.table, [...(byStream.get(s.name)?.values() ?? [])])]),
  );
}

/** The sandbox's truth in the same form. */
export function truthRows(sandbox: Sandbox) {
  const expected = expectedTables(sandbox);
  return new Map(PROTOCOL_STREAMS.map((s) => [s.name, comparable(s.table, expected.get(s.name)!)]));
}
