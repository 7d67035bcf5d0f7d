"""
Prompts from the warehouse: build the dbt model that lists the prompts a website should track,
then import what is new in it with ``aivis import-prompts --from-table``, each in its own pod.

Works on Airflow 2.10+ and 3.x alike (test/examples/airflow-dags.test.ts imports it against
stubs of each), with aivis_pods.py beside it and the ConfigMap and Secrets of
examples/kubernetes/cronjob.yaml. The model is read through the configured destination, so it
must live in that warehouse, and the destination's user needs SELECT on it (it is named with
its schema: aivis reads the configured schema unless the table is qualified).

Only rows that are new for the website are sent: aivis remembers what was created or skipped
as a duplicate in the destination's receipt tables (prompt_imports, prompt_import_items), not
on a disk, so the pod keeps nothing and a retry sends only what the service has not taken yet.
Exit codes (docs/operations.md#exit-codes): 0 imported, 1 the service refused or an operation
failed (its report names the rows and what to fix), 2 bad rows or flags (nothing sent).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from aivis_pods import NAMESPACE, aivis_pod
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator

try:  # Airflow 3
    from airflow.sdk import DAG
except ImportError:  # Airflow 2
    from airflow import DAG

WEBSITE = "web_123"  # the website whose prompts the model lists
DBT_MODEL = "aivis_prompts"  # columns as in the CSV: prompt_text, client_id, tags, language, ...
DBT_RELATION = "marts.aivis_prompts"  # where dbt builds it: <schema>.<model>
DBT_IMAGE = "ghcr.io/example/analytics-dbt:latest"  # your dbt project's image, with its profiles.yml

with DAG(
    dag_id="aivis_import_prompts",
    schedule="40 5 * * *",  # daily, after the warehouse's nightly loads
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    default_args={"retries": 2, "retry_delay": timedelta(minutes=10)},
    tags=["aivis", "dbt", "prompts"],
) as prompts_dag:
    build = KubernetesPodOperator(
        task_id="dbt_build_prompts",
        name="dbt-build-aivis-prompts",
        namespace=NAMESPACE,
        image=DBT_IMAGE,
        cmds=["dbt"],
        # `build` runs the model's tests too: a model that fails them is never imported.
        arguments=["build", "--select", DBT_MODEL],
        get_logs=True,
        on_finish_action="delete_succeeded_pod",
    )
    imported = aivis_pod(
        "import_prompts",
        ["import-prompts", "--website", WEBSITE, "--from-table", DBT_RELATION],
        # Polling a receipt may take up to the service's 30-minute processing deadline.
        execution_timeout=timedelta(hours=1),
    )
    build >> imported
