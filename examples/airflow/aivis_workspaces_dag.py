"""
aivis for many workspaces from Airflow: one config names every workspace under ``sources:``,
and dynamic task mapping runs ``aivis sync --workspace NAME`` once per workspace, each in its
own pod with its own rate budget, retried and shown on its own (docs/operations.md#many-workspaces).

Works on Airflow 2.10+ and 3.x alike (on_skipped_callback needs 2.10), with
apache-airflow-providers-cncf-kubernetes (>= 8), and aivis_pods.py beside this file; every
call below has the same signature in both (test/examples/airflow-dags.test.ts imports it
against stubs of each). The pods use:
  - ConfigMap ``aivis-workspaces-config`` (key ``config.yaml``, like
    examples/config/workspaces.yaml), mounted at /etc/aivis
  - Secret ``aivis-api-keys``, one key per workspace (``acme``, ``globex``, ...), mounted as
    files under /var/run/secrets/aivis for each workspace's ``api_key_file``
  - Secret ``aivis-database`` (key ``url``), passed as the DATABASE_URL env var
The Airflow Variable ``aivis_workspaces`` (a JSON list, e.g. ["acme", "globex", "initech"])
names the workspaces to map over; it is read when the DAG runs, not each time the file is
parsed. A name the config does not hold fails its task with exit 2, naming the known ones.

The workspaces of one config share one destination schema: aivis keeps their rows, state and
locks apart by workspace, so the mapped tasks may run at once.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from aivis_pods import HOURLY_SYNC, aivis_pod_settings
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator

try:  # Airflow 3
    from airflow.sdk import DAG, Variable, task
except ImportError:  # Airflow 2
    from airflow import DAG
    from airflow.decorators import task
    from airflow.models import Variable

DEFAULT_WORKSPACES = ["acme", "globex", "initech"]


@task(retries=0)
def sync_arguments() -> list[list[str]]:
    """One argument list per workspace: the map the sync task expands over."""
    # The default is positional: Airflow 2 names it default_var, Airflow 3 (airflow.sdk) default.
    names = Variable.get("aivis_workspaces", DEFAULT_WORKSPACES, deserialize_json=True)
    return [["sync", "--workspace", name] for name in names]


def partial_workspace(context) -> None:
    """Exit 3 skipped a mapped task: say which workspace; replace the body with your alerting."""
    arguments = context["task"].arguments
    logging.getLogger(__name__).error(
        "aivis finished %s with rejected records or failed websites: see its log summary and "
        "the _aivis_rejected table",
        " ".join(arguments),
    )


with DAG(dag_id="aivis_sync_workspaces", **HOURLY_SYNC) as workspaces_dag:
    KubernetesPodOperator.partial(
        **aivis_pod_settings(
            "sync_workspace",
            config_map="aivis-workspaces-config",
            api_key_secret="aivis-api-keys",
            execution_timeout=timedelta(minutes=55),
            on_skipped_callback=partial_workspace,
        ),
        # At most this many pods at once; each workspace has its own API budget, the
        # destination is what they share.
        max_active_tis_per_dag=8,
    ).expand(arguments=sync_arguments())
    # Downstream models: give them trigger_rule="none_failed" so they run after every
    # workspace synced fully or partially (success or skipped), not after a failure.
