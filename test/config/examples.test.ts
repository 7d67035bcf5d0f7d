/**
 * The deploy examples never rot: every example config, and the config inside the Kubernetes
 * ConfigMap, loads with the real loader, and the CronJob provides what that config needs.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/load-config.ts';
import { tempDir } from './config-files.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The `${VAR}` names a config text refers to. */
function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((m) => m[1]!))];
}

/** A dummy value for each referenced variable; a URL where the config needs one. */
function dummyEnv(names: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(
    // Lowercase with hyphens: valid wherever a value must be an id (a GCP project id has no underscores).
    names.map((name) => [
      name,
      name === 'DATABASE_URL'
        ? 'postgres://aivis@db.internal:5432/warehouse'
        : `dummy-${name.toLowerCase().replaceAll('_', '-')}`,
    ]),
  );
}

/** Writes `text` into a fresh folder with its api_key_file pointed at a dummy key there. */
async function withDummyKeyFile(text: string): Promise<string> {
  const dir = await tempDir();
  await writeFile(path.join(dir, 'api-key'), 'sk_dummy_example_key\n', { mode: 0o600 });
  const file = path.join(dir, 'config.yaml');
  await writeFile(file, text.replace(/^(\s*api_key_file:)\s*\S+/m, `$1 ${path.join(dir, 'api-key')}`));
  return file;
}

describe('examples/config', () => {
  it('has one valid config per destination type', async () => {
    const files = (await readdir(path.join(EXAMPLES, 'config'))).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toEqual(['bigquery.yaml', 'duckdb.yaml', 'postgres.yaml', 'snowflake.yaml']);
    for (const name of files) {
      const text = await readFile(path.join(EXAMPLES, 'config', name), 'utf8');
      const loaded = await loadConfig(await withDummyKeyFile(text), dummyEnv(referencedVariables(text)));
      expect(loaded.config.destination.type).toBe(path.basename(name, '.yaml'));
      expect(loaded.workspaces[0]?.apiKey).toMatch(/^(sk_dummy_example_key|dummy-aivis-api-key)$/);
    }
  });
});

describe('examples/kubernetes/cronjob.yaml', async () => {
  const docs = parseAllDocuments(await readFile(path.join(EXAMPLES, 'kubernetes', 'cronjob.yaml'), 'utf8'));
  const [configMap, cronJob] = docs.map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Record<string, any>;
  });
  const podSpec = cronJob!.spec.jobTemplate.spec.template.spec;
  const container = podSpec.containers[0];
  const configText: string = configMap!.data['config.yaml'];

  it('never overlaps runs and fails fast on bad config and partial runs', () => {
    expect(cronJob!.kind).toBe('CronJob');
    expect(cronJob!.spec.concurrencyPolicy).toBe('Forbid');
    expect(cronJob!.spec.startingDeadlineSeconds).toBeGreaterThan(0);
    expect(cronJob!.spec.jobTemplate.spec.podFailurePolicy.rules[0].onExitCodes).toEqual({
      containerName: container.name,
      operator: 'In',
      values: [2, 3],
    });
  });

  it('carries a config that loads, with every ${VAR} it refers to set on the container', async () => {
    const envNames: string[] = container.env.map((e: { name: string }) => e.name);
    const needed = referencedVariables(configText);
    expect(needed.filter((name) => !envNames.includes(name))).toEqual([]);
    const loaded = await loadConfig(await withDummyKeyFile(configText), dummyEnv(needed));
    expect(loaded.config.destination.type).toBe('postgres');
    expect(loaded.workspaces[0]?.apiKey).toBe('sk_dummy_example_key');
  });

  it('mounts the config where AIVIS_CONFIG points and the key Secret where api_key_file points', () => {
    const mountOf = (volume: Record<string, unknown>) =>
      container.volumeMounts.find((m: { name: string }) => m.name === volume.name).mountPath as string;
    const configVolume = podSpec.volumes.find((v: any) => v.configMap?.name === configMap!.metadata.name);
    const aivisConfig = container.env.find((e: { name: string }) => e.name === 'AIVIS_CONFIG').value;
    expect(aivisConfig).toBe(`${mountOf(configVolume)}/config.yaml`);

    const keyFile = /api_key_file:\s*(\S+)/.exec(configText)![1]!;
    const keyVolume = podSpec.volumes.find((v: any) => v.secret);
    const item = keyVolume.secret.items[0];
    expect(keyFile).toBe(`${mountOf(keyVolume)}/${item.path}`);
  });

  it('runs as the non-root user the image declares', async () => {
    const dockerfile = await readFile(path.resolve(EXAMPLES, '..', 'Dockerfile'), 'utf8');
    const [uid, gid] = /^USER (\d+):(\d+)$/m.exec(dockerfile)!.slice(1).map(Number);
    expect(podSpec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: uid, runAsGroup: gid });
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
  });
});
