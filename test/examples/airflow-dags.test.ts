/**
 * The Airflow DAGs of examples/airflow, imported the way Airflow's DAG processor would, against
 * small stubs of Airflow 2.10 and 3.1 (test/examples/airflow-stubs) that keep the real
 * signatures: a keyword one version does not take (Variable.get's default_var on Airflow 3, a
 * misspelt KubernetesPodOperator argument) fails here, and so does a deprecated import. Needs
 * python3 (CI installs it: .ci/run).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { argumentsProblem } from './cli-arguments.ts';

const HERE = import.meta.dirname;

function python(args: string[], input?: string) {
  const result = spawnSync('python3', ['-B', '-W', 'error', ...args], { cwd: HERE, encoding: 'utf8', input });
  if (result.error) throw new Error(`python3 is needed for this test (CI installs it): ${result.error.message}`);
  return result;
}

const POD = {
  automount_service_account_token: false,
  read_only_root_filesystem: true,
  mounts: ['/etc/aivis', '/tmp', '/var/lib/aivis', '/var/run/secrets/aivis'],
  skip_on_exit_code: [3],
};
const PARTIAL_RUN = { python_task: 'aivis_partial_run', trigger_rule: 'all_skipped' };
/** After the dbt model builds: its rows that are new for the website (design: import-prompts --from-table). */
const IMPORT_PROMPTS = ['import-prompts', '--website', 'web_123', '--from-table', 'marts.aivis_prompts'];

describe.each(['airflow2', 'airflow3'])('examples/airflow against %s', (version) => {
  it('imports without error or deprecation, and builds the pods aivis needs', () => {
    const result = python(['check_airflow_dags.py', version]);
    expect(result.stderr.split('\n').filter((line) => !line.startsWith('aivis finished '))).toEqual(['']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      dags: {
        aivis_sync: {
          params: [],
          tasks: [{ task_id: 'sync', arguments: ['sync'], ...POD }, PARTIAL_RUN],
          edges: ['sync >> aivis_partial_run'],
        },
        aivis_backfill: {
          params: ['since', 'streams', 'websites'],
          tasks: [
            {
              task_id: 'backfill',
              arguments:
                "{{ ['backfill', '--streams', params.streams, '--since', params.since] + (['--websites', params.websites] if params.websites else []) }}",
              ...POD,
            },
            PARTIAL_RUN,
          ],
          edges: ['backfill >> aivis_partial_run'],
        },
        aivis_import_prompts: {
          params: [],
          tasks: [
            { task_id: 'dbt_build_prompts', cmds: ['dbt'], arguments: ['build', '--select', 'aivis_prompts'] },
            { task_id: 'import_prompts', arguments: IMPORT_PROMPTS, ...POD },
          ],
          edges: ['dbt_build_prompts >> import_prompts'],
        },
        aivis_sync_workspaces: {
          params: [],
          tasks: [
            { python_task: 'sync_arguments', trigger_rule: 'all_success' },
            {
              mapped: ['acme', 'globex', 'initech'].map((name) => ({
                task_id: 'sync_workspace',
                arguments: ['sync', '--workspace', name],
                ...POD,
              })),
            },
          ],
          edges: [],
        },
      },
      skipped_callback: 'called',
    });
  });
});

describe('the arguments of the example pods', () => {
  it.each([[['sync']], [['sync', '--workspace', 'acme']]])('%j parses with the real CLI grammar', async (args) => {
    expect(await argumentsProblem(args)).toBeUndefined();
  });

  it('the prompt import parses with the real CLI grammar', async () => {
    expect(await argumentsProblem(IMPORT_PROMPTS)).toBeUndefined();
  });
});

describe('the stubs keep the real signatures', () => {
  const stubs = (version: string) =>
    `import sys; sys.path[:0] = ['${path.join(HERE, 'airflow-stubs', version)}', '${path.join(HERE, 'airflow-stubs', 'common')}']\n`;

  it.each([
    [
      'airflow3',
      'from airflow.sdk import Variable\nVariable.get("k", default_var=[])',
      "unexpected keyword argument 'default_var'",
    ],
    [
      'airflow2',
      'from airflow.models import Variable\nVariable.get("k", default=[])',
      "unexpected keyword argument 'default'",
    ],
    ['airflow3', 'import airflow.utils.trigger_rule', 'DeprecationWarning: airflow.utils.trigger_rule is deprecated'],
    [
      'airflow2',
      'from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator\nKubernetesPodOperator(task_id="t", automount_service_account=False)',
      "unexpected keyword argument 'automount_service_account'",
    ],
    [
      'airflow3',
      'from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator\nKubernetesPodOperator.partial(task_id="t", execution_timout=1)',
      "unexpected keyword argument 'execution_timout'",
    ],
  ])('%s: %s fails', (version, code, error) => {
    const result = python(['-'], stubs(version) + code);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(error);
  });
});
