/**
 * The deploy examples never rot: every example config, and the config inside each Kubernetes
 * ConfigMap, loads with the real loader, the CronJob and the Indexed Job provide what their
 * config needs, and the workspace examples name workspaces the config holds.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { parseAllDocuments } from 'yaml';
import { selectWorkspaces } from '../../src/cli/workspace-selection.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { argumentsProblem } from '../examples/cli-arguments.ts';
import { dummyEnv, referencedVariables, withDummyKeyFile } from './config-files.ts';

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');
/** The documents of a Kubernetes manifest, each parsed without errors. */
async function manifest(name: string): Promise<Record<string, any>[]> {
  const docs = parseAllDocuments(await readFile(path.join(EXAMPLES, 'kubernetes', name), 'utf8'));
  return docs.map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Record<string, any>;
  });
}

const WORKSPACE_NAMES = ['acme', 'globex', 'initech'];

describe('examples/config', () => {
  it('has one valid config per destination type, and one of several workspaces', async () => {
    const files = (await readdir(path.join(EXAMPLES, 'config'))).filter((f) => f.endsWith('.yaml')).sort();
    expect(files).toEqual(['bigquery.yaml', 'duckdb.yaml', 'postgres.yaml', 'snowflake.yaml', 'workspaces.yaml']);
    for (const name of files.filter((f) => f !== 'workspaces.yaml')) {
      const text = await readFile(path.join(EXAMPLES, 'config', name), 'utf8');
      const loaded = await loadConfig(await withDummyKeyFile(text), dummyEnv(referencedVariables(text)));
      expect(loaded.config.destination.type).toBe(path.basename(name, '.yaml'));
      expect(loaded.workspaces[0]?.apiKey).toMatch(/^(sk_dummy_example_key|dummy-aivis-api-key)$/);
    }
  });

  it('workspaces.yaml names each workspace with its own key', async () => {
    const text = await readFile(path.join(EXAMPLES, 'config', 'workspaces.yaml'), 'utf8');
    const loaded = await loadConfig(await withDummyKeyFile(text), dummyEnv(referencedVariables(text)));
    expect(loaded.workspaces.map((w) => [w.name, w.apiKey])).toEqual([
      ['acme', 'dummy-aivis-api-key-acme'],
      ['globex', 'dummy-aivis-api-key-globex'],
      ['initech', 'sk_dummy_example_key'],
    ]);
  });
});

describe('examples/kubernetes/cronjob.yaml', async () => {
  const [configMap, cronJob] = await manifest('cronjob.yaml');
  const podSpec = cronJob!.spec.jobTemplate.spec.template.spec;
  const container = podSpec.containers[0];
  const configText: string = configMap!.data['config.yaml'];

  it('never overlaps runs and fails fast on bad config and partial runs', () => {
    expect(cronJob!.kind).toBe('CronJob');
    expect(cronJob!.spec.concurrencyPolicy).toBe('Forbid');
    expect(cronJob!.spec.startingDeadlineSeconds).toBeGreaterThan(0);
    expect(cronJob!.spec.jobTemplate.spec.podFailurePolicy.rules[1]).toEqual({
      action: 'FailJob',
      onExitCodes: { containerName: container.name, operator: 'In', values: [2, 3] },
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

describe('examples/kubernetes/indexed-job.yaml', async () => {
  const [configMap, cronJob] = await manifest('indexed-job.yaml');
  const job = cronJob!.spec.jobTemplate.spec;
  const podSpec = job.template.spec;
  const container = podSpec.containers[0];
  const configText: string = configMap!.data['config.yaml'];

  it('runs one pod per shard, each with aivis sync --shard $(JOB_COMPLETION_INDEX)/N, N the completions', () => {
    expect(cronJob!.kind).toBe('CronJob');
    expect(cronJob!.spec.concurrencyPolicy).toBe('Forbid');
    expect(job.completionMode).toBe('Indexed');
    const [, count] = /^\$\(JOB_COMPLETION_INDEX\)\/(\d+)$/.exec(container.args[2])!;
    expect(container.args.slice(0, 2)).toEqual(['sync', '--shard']);
    expect(job.completions).toBe(Number(count));
    expect(job.parallelism).toBe(Number(count));
    const index = container.env.find((e: { name: string }) => e.name === 'JOB_COMPLETION_INDEX');
    expect(index.valueFrom.fieldRef.fieldPath).toBe("metadata.annotations['batch.kubernetes.io/job-completion-index']");
  });

  it('fails a shard at once on bad config and partial runs, and retries it alone otherwise', () => {
    expect(job.backoffLimitPerIndex).toBeGreaterThan(0);
    expect(job.podFailurePolicy.rules[1]).toEqual({
      action: 'FailIndex',
      onExitCodes: { containerName: container.name, operator: 'In', values: [2, 3] },
    });
  });

  it('carries a config whose workspaces every shard shares out, each key a file of the mounted Secret', async () => {
    const envNames: string[] = container.env.map((e: { name: string }) => e.name);
    const needed = referencedVariables(configText);
    expect(needed.filter((name) => !envNames.includes(name))).toEqual([]);
    const loaded = await loadConfig(await withDummyKeyFile(configText), dummyEnv(needed));
    expect(loaded.workspaces.map((w) => w.name)).toEqual(WORKSPACE_NAMES);
    const shards = Array.from({ length: job.completions }, (_, index) =>
      selectWorkspaces(loaded.workspaces, { shard: { index, count: job.completions } }).map((w) => w.name),
    );
    expect(shards.flat().sort()).toEqual(WORKSPACE_NAMES);
    expect(shards.every((shard) => shard.length > 0)).toBe(true);

    const keyVolume = podSpec.volumes.find((v: any) => v.secret);
    const keyMount = container.volumeMounts.find((m: { name: string }) => m.name === keyVolume.name).mountPath;
    const keyFiles = [...configText.matchAll(/api_key_file:\s*(\S+)/g)].map((m) => m[1]);
    expect(keyFiles).toEqual(WORKSPACE_NAMES.map((name) => `${keyMount}/${name}`));
  });
});

/** The kubernetes-models class of each kind the examples use: its validate() checks Kubernetes' published schema, offline. */
const MODELS: Record<string, { new (data: any): { validate(): void } }> = {
  'v1/ConfigMap': ConfigMap,
  'batch/v1/CronJob': CronJob,
};

describe.each(['cronjob.yaml', 'indexed-job.yaml'])('examples/kubernetes/%s, as Kubernetes reads it', async (name) => {
  const docs = await manifest(name);
  const cronJob = docs.find((doc) => doc.kind === 'CronJob')!;
  const job = cronJob.spec.jobTemplate.spec;
  const podSpec = job.template.spec;
  const container = podSpec.containers[0];

  it("validates against Kubernetes' schemas (kubernetes-models, offline)", () => {
    expect(docs.map((doc) => `${doc.apiVersion}/${doc.kind}`)).toEqual(['v1/ConfigMap', 'batch/v1/CronJob']);
    for (const doc of docs) expect(() => new MODELS[`${doc.apiVersion}/${doc.kind}`]!(doc).validate()).not.toThrow();
  });

  it('does not count a disruption (drain, preemption) against the backoff limit', () => {
    expect(job.podFailurePolicy.rules[0]).toEqual({
      action: 'Ignore',
      onPodConditions: [{ type: 'DisruptionTarget' }],
    });
    expect(podSpec.restartPolicy).toBe('Never');
  });

  it('mounts a writable volume at /var/lib/aivis, the working directory the Dockerfile and README point DuckDB and state.path at', async () => {
    const dockerfile = await readFile(path.resolve(EXAMPLES, '..', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^WORKDIR \/var\/lib\/aivis$/m);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const mount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/var/lib/aivis');
    expect(mount?.readOnly).not.toBe(true);
    const volume = podSpec.volumes.find((v: { name: string }) => v.name === mount.name);
    expect(volume.emptyDir ?? volume.persistentVolumeClaim).toBeDefined();
  });

  it('mounts no service account token: aivis never calls the Kubernetes API', () => {
    expect(podSpec.automountServiceAccountToken).toBe(false);
  });
});

describe('examples/kubernetes/import-prompts-cronjob.yaml', async () => {
  const docs = await manifest('import-prompts-cronjob.yaml');
  const [cronJob] = docs;
  const [configMap, syncJob] = await manifest('cronjob.yaml');
  const job = cronJob!.spec.jobTemplate.spec;
  const podSpec = job.template.spec;
  const [dbt] = podSpec.initContainers;
  const [container] = podSpec.containers;

  it("is one CronJob that validates against Kubernetes' schemas (kubernetes-models, offline)", () => {
    expect(docs.map((doc) => `${doc.apiVersion}/${doc.kind}`)).toEqual(['batch/v1/CronJob']);
    expect(() => new CronJob(cronJob as any).validate()).not.toThrow();
    expect(cronJob!.spec.concurrencyPolicy).toBe('Forbid');
  });

  it('builds the dbt model in an init container, then imports that model with import-prompts --from-table', () => {
    expect([dbt.command, dbt.args]).toEqual([['dbt'], ['build', '--select', 'aivis_prompts']]);
    expect(container.args).toEqual(['import-prompts', '--website', 'web_123', '--from-table', 'marts.aivis_prompts']);
    expect(container.args.at(-1).split('.').at(-1)).toBe(dbt.args.at(-1));
  });

  it('fails the Job at once on bad rows (exit 2) and not on a disruption', () => {
    expect(job.podFailurePolicy.rules).toEqual([
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
      { action: 'FailJob', onExitCodes: { containerName: container.name, operator: 'In', values: [2] } },
    ]);
  });

  it("uses cronjob.yaml's config and key, with every ${VAR} of that config set on the container", () => {
    const syncPod = syncJob!.spec.jobTemplate.spec.template.spec;
    const volumeOf = (spec: any, name: string) => spec.volumes.find((v: any) => v.name === name);
    expect(volumeOf(podSpec, 'config')).toEqual(volumeOf(syncPod, 'config'));
    expect(volumeOf(podSpec, 'config').configMap.name).toBe(configMap!.metadata.name);
    expect(volumeOf(podSpec, 'api-key')).toEqual(volumeOf(syncPod, 'api-key'));
    expect(container.volumeMounts).toEqual(
      syncPod.containers[0].volumeMounts.map(({ name, mountPath, readOnly }: any) => ({
        name,
        mountPath,
        ...(readOnly ? { readOnly } : {}),
      })),
    );
    const envNames: string[] = container.env.map((e: { name: string }) => e.name);
    expect(referencedVariables(configMap!.data['config.yaml']).filter((name) => !envNames.includes(name))).toEqual([]);
  });

  it('runs both containers non-root on a read-only root filesystem, dbt writing only under its /tmp mount', () => {
    expect(podSpec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 });
    expect(podSpec.automountServiceAccountToken).toBe(false);
    for (const c of [dbt, container])
      expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    const tmp = dbt.volumeMounts.find((m: { name: string }) => m.name === 'tmp').mountPath;
    const paths = dbt.env
      .filter((e: { name: string }) => /^DBT_(TARGET|LOG)_PATH$/.test(e.name))
      .map((e: any) => e.value);
    expect(paths).toHaveLength(2);
    for (const p of paths) expect(p.startsWith(`${tmp}/`)).toBe(true);
  });

  it('its arguments parse with the real CLI grammar', async () => {
    expect(await argumentsProblem(container.args)).toBeUndefined();
  });
});

describe('Dockerfile and examples/README.md', async () => {
  const dockerfile = await readFile(path.resolve(EXAMPLES, '..', 'Dockerfile'), 'utf8');
  const readme = await readFile(path.join(EXAMPLES, 'README.md'), 'utf8');

  it('builds air-gapped: no # syntax= frontend to pull, and no instruction that would need one', () => {
    expect(dockerfile).not.toMatch(/^#\s*syntax\s*=/im);
    expect(dockerfile).not.toMatch(/^RUN\s+--(mount|network|security)|<<-?\s*["']?[A-Z]+/m);
  });

  it('says why tini is PID 1 without claiming a SIGTERM would be ignored', () => {
    expect(dockerfile).toMatch(/^ENTRYPOINT \["aivis"\]$/m);
    expect(dockerfile).toContain('aivis handles SIGTERM and SIGINT itself');
    expect(dockerfile).not.toMatch(/SIGTERM\s+would be ignored/);
  });

  it('tells the user to build the image (none is published) and shows the command', () => {
    expect(readme).toContain('No image is published yet');
    expect(readme).toContain('```sh\ndocker build -t aivis:0.1.0 .\n```');
  });
});

describe('examples/airflow/aivis_workspaces_dag.py', async () => {
  const dag = await readFile(path.join(EXAMPLES, 'airflow', 'aivis_workspaces_dag.py'), 'utf8');

  it('maps aivis sync --workspace NAME over the workspaces of examples/config/workspaces.yaml', () => {
    const defaults = /^DEFAULT_WORKSPACES = (\[.*\])$/m.exec(dag)![1]!;
    expect(JSON.parse(defaults)).toEqual(WORKSPACE_NAMES);
    expect(dag).toContain('return [["sync", "--workspace", name] for name in names]');
    expect(dag).toContain('.expand(arguments=sync_arguments())');
  });
});
