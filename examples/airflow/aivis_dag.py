"""
aivis from Airflow: an hourly incremental sync and a manual backfill, each one pod.

Requires apache-airflow-providers-cncf-kubernetes (>= 8) on Airflow 2.9+ or 3.
The pods use the same ConfigMap and Secrets as examples/kubernetes/cronjob.yaml:
  - ConfigMap ``aivis-config`` (key ``config.yaml``), mounted at /etc/aivis
  - Secret ``aivis-api-key`` (key ``api-key``), mounted as a file for ``api_key_file``
  - Secret ``aivis-database`` (key ``url``), passed as the DATABASE_URL env var

Exit codes (README, "Use it"): 0 success, 1 failure, 2 bad config or usage, 3 finished with
rejected records or failed websites. Exit 3 marks the task *skipped* rather than failed:
the rows that loaded are durable and downstream models can still run, while the
``aivis_partial_run`` task (trigger rule ALL_SKIPPED) makes the partial run visible.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.utils.trigger_rule import TriggerRule
from kubernetes.client import models as k8s

try:  # Airflow 3
    from airflow.sdk import DAG, Param, task
except ImportError:  # Airflow 2
    from airflow import DAG
    from airflow.decorators import task
    from airflow.models.param import Param

NAMESPACE = "data"
IMAGE = "ghcr.io/example/aivis:0.1.0"
PARTIAL = 3  # aivis: finished, but with rejected records or failed websites
STREAMS = ["websites", "analytics", "analytics_history", "mentions", "citations"]


def aivis_pod(task_id: str, arguments: list[str] | str, **kwargs) -> KubernetesPodOperator:
    """One aivis run in its own pod: config from the ConfigMap, secrets from Secrets."""
    return KubernetesPodOperator(
        task_id=task_id,
        name=f"aivis-{task_id.replace('_', '-')}",
        namespace=NAMESPACE,
        image=IMAGE,
        arguments=arguments,  # the image's entrypoint is `aivis`
        env_vars=[
            k8s.V1EnvVar(name="AIVIS_CONFIG", value="/etc/aivis/config.yaml"),
            k8s.V1EnvVar(
                name="DATABASE_URL",
                value_from=k8s.V1EnvVarSource(
                    secret_key_ref=k8s.V1SecretKeySelector(name="aivis-database", key="url")
                ),
            ),
        ],
        volumes=[
            k8s.V1Volume(name="config", config_map=k8s.V1ConfigMapVolumeSource(name="aivis-config")),
            k8s.V1Volume(
                name="api-key",
                secret=k8s.V1SecretVolumeSource(
                    secret_name="aivis-api-key",
                    default_mode=0o440,
                    items=[k8s.V1KeyToPath(key="api-key", path="api-key")],
                ),
            ),
            k8s.V1Volume(name="tmp", empty_dir=k8s.V1EmptyDirVolumeSource(size_limit="64Mi")),
        ],
        volume_mounts=[
            k8s.V1VolumeMount(name="config", mount_path="/etc/aivis", read_only=True),
            k8s.V1VolumeMount(name="api-key", mount_path="/var/run/secrets/aivis", read_only=True),
            k8s.V1VolumeMount(name="tmp", mount_path="/tmp"),
        ],
        # Pages stream through, so memory stays flat whatever the history size.
        container_resources=k8s.V1ResourceRequirements(
            requests={"cpu": "100m", "memory": "256Mi"},
            limits={"cpu": "1", "memory": "512Mi"},
        ),
        security_context=k8s.V1PodSecurityContext(
            run_as_non_root=True,
            run_as_user=10001,
            run_as_group=10001,
            fs_group=10001,
            seccomp_profile=k8s.V1SeccompProfile(type="RuntimeDefault"),
        ),
        container_security_context=k8s.V1SecurityContext(
            allow_privilege_escalation=False,
            read_only_root_filesystem=True,
            capabilities=k8s.V1Capabilities(drop=["ALL"]),
        ),
        # Exit 3 -> task skipped (AirflowSkipException), not failed and not retried.
        skip_on_exit_code=PARTIAL,
        # A killed task (timeout, "mark failed") deletes the pod: aivis stops within 2 s of the
        # SIGTERM, committing what it read; 30 s leaves room for that last commit.
        termination_grace_period=30,
        get_logs=True,  # aivis writes JSON log lines and a summary on stderr
        on_finish_action="delete_succeeded_pod",
        **kwargs,
    )


@task(trigger_rule=TriggerRule.ALL_SKIPPED, retries=0)
def aivis_partial_run() -> None:
    """Runs only when aivis exited 3; replace the body with your alerting."""
    raise RuntimeError(
        "aivis finished with rejected records or failed websites: "
        "see the sync task's log summary and the _aivis_rejected table"
    )


with DAG(
    dag_id="aivis_sync",
    schedule="17 * * * *",
    start_date=datetime(2026, 1, 1),
    # aivis keeps its own frontier: a missed hour is caught up by the next run, so there is
    # nothing to catch up per interval, and two runs of one config must never overlap.
    catchup=False,
    max_active_runs=1,
    default_args={"retries": 2, "retry_delay": timedelta(minutes=5)},
    tags=["aivis", "elt"],
) as sync_dag:
    sync = aivis_pod("sync", ["sync"], execution_timeout=timedelta(minutes=55))
    sync >> aivis_partial_run()
    # Downstream models: give them trigger_rule=TriggerRule.NONE_FAILED so they run after a
    # full or a partial sync (success or skipped) and not after a failed one.


with DAG(
    dag_id="aivis_backfill",
    schedule=None,  # manual only: Trigger DAG w/ config
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    # Lets `arguments` render as a real list, so --websites is left out when empty.
    render_template_as_native_obj=True,
    params={
        "stream": Param("mentions", type="string", enum=STREAMS, description="Stream to re-read"),
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
        "{{ ['backfill', '--stream', params.stream, '--since', params.since]"
        " + (['--websites', params.websites] if params.websites else []) }}",
        retries=0,
    )
    backfill >> aivis_partial_run()
