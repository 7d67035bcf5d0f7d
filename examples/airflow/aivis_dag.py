"""
aivis from Airflow: an hourly incremental sync and a manual backfill, each one pod.

Works on Airflow 2.10+ and 3.x alike, with apache-airflow-providers-cncf-kubernetes (>= 8),
and aivis_pods.py beside this file in the DAGs folder; every call below has the same signature
in both (test/examples/airflow-dags.test.ts imports it against stubs of each). The pods use the same ConfigMap and Secrets as examples/kubernetes/cronjob.yaml:
  - ConfigMap ``aivis-config`` (key ``config.yaml``), mounted at /etc/aivis
  - Secret ``aivis-api-key`` (key ``api-key``), mounted as a file for ``api_key_file``
  - Secret ``aivis-database`` (key ``url``), passed as the DATABASE_URL env var

Exit codes (docs/operations.md#exit-codes): 0 success, 1 failure, 2 bad config or usage, 3 finished with
rejected records or failed websites, 143 stopped by SIGTERM (a killed task: what was read is
committed). Exit 3 marks the task *skipped* rather than failed:
the rows that loaded are durable and downstream models can still run, while the
``aivis_partial_run`` task (trigger rule ALL_SKIPPED) makes the partial run visible.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from aivis_pods import HOURLY_SYNC, aivis_pod

try:  # Airflow 3
    from airflow.sdk import DAG, Param, task
except ImportError:  # Airflow 2
    from airflow import DAG
    from airflow.decorators import task
    from airflow.models.param import Param

FEEDS = ["analytics", "analytics_history", "mentions", "citations"]


# Trigger rules by their value: both versions take the string, and airflow.utils.trigger_rule
# is deprecated in Airflow 3.1.
@task(trigger_rule="all_skipped", retries=0)
def aivis_partial_run() -> None:
    """Runs only when aivis exited 3; replace the body with your alerting."""
    raise RuntimeError(
        "aivis finished with rejected records or failed websites: "
        "see the sync task's log summary and the _aivis_rejected table"
    )


with DAG(dag_id="aivis_sync", **HOURLY_SYNC) as sync_dag:
    sync = aivis_pod("sync", ["sync"], execution_timeout=timedelta(minutes=55))
    sync >> aivis_partial_run()
    # Downstream models: give them trigger_rule="none_failed" so they run after a full or a
    # partial sync (success or skipped) and not after a failed one.


with DAG(
    dag_id="aivis_backfill",
    schedule=None,  # manual only: Trigger DAG w/ config
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    # Lets `arguments` render as a real list, so --websites is left out when empty.
    render_template_as_native_obj=True,
    params={
        "streams": Param(
            "mentions",
            type="string",
            description=f"Comma-separated feeds to re-read ({', '.join(FEEDS)})",
        ),
        "since": Param(
            "2026-01-01T00:00:00Z",
            type="string",
            format="date-time",
            description="Start of the window (ISO 8601, UTC). The saved frontier never moves back.",
        ),
        "websites": Param(
            "",
            type="string",
            description="Comma-separated website ids (web_123,web_456); empty for every website",
        ),
    },
    tags=["aivis", "elt", "backfill"],
) as backfill_dag:
    backfill = aivis_pod(
        "backfill",
        "{{ ['backfill', '--streams', params.streams, '--since', params.since]"
        " + (['--websites', params.websites] if params.websites else []) }}",
        retries=0,
    )
    backfill >> aivis_partial_run()
