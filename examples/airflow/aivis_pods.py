"""
The pod every aivis task runs in, and the settings of an hourly sync DAG, shared by aivis_dag.py and aivis_workspaces_dag.py (put
this file beside them in the DAGs folder): the image, the config from a ConfigMap, the API
keys from a Secret mounted as files, the database URL from a Secret env var, non-root.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from kubernetes.client import models as k8s

NAMESPACE = "data"
IMAGE = "ghcr.io/example/aivis:0.1.0"  # your build of the Dockerfile (none is published yet)
PARTIAL = 3  # aivis: finished, but with rejected records or failed websites

# The DAG settings of an hourly sync. aivis keeps its own frontier (per workspace): a missed
# hour is caught up by the next run, so there is nothing to catch up per interval, and two
# runs of one config must never overlap.
HOURLY_SYNC: dict[str, Any] = dict(
    schedule="17 * * * *",
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    default_args={"retries": 2, "retry_delay": timedelta(minutes=5)},
    tags=["aivis", "elt"],
)


def aivis_pod_settings(
    task_id: str,
    config_map: str = "aivis-config",
    api_key_secret: str = "aivis-api-key",
    **kwargs: Any,
) -> dict[str, Any]:
    """
    Everything but the arguments, so a DAG can build one pod (aivis_pod) or map the same pod
    over arguments (KubernetesPodOperator.partial(**settings).expand(arguments=...)).
    Every key of ``api_key_secret`` becomes a file under /var/run/secrets/aivis, where the
    config's api_key_file entries point.
    """
    return dict(
        task_id=task_id,
        name=f"aivis-{task_id.replace('_', '-')}",
        namespace=NAMESPACE,
        image=IMAGE,
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
            k8s.V1Volume(name="config", config_map=k8s.V1ConfigMapVolumeSource(name=config_map)),
            k8s.V1Volume(
                name="api-key",
                secret=k8s.V1SecretVolumeSource(secret_name=api_key_secret, default_mode=0o440),
            ),
            k8s.V1Volume(name="tmp", empty_dir=k8s.V1EmptyDirVolumeSource(size_limit="64Mi")),
            # The image's working directory, the one writable place for a DuckDB file or
            # state.path (read-only root filesystem); a persistent volume claim to keep them.
            k8s.V1Volume(name="data", empty_dir=k8s.V1EmptyDirVolumeSource(size_limit="1Gi")),
        ],
        volume_mounts=[
            k8s.V1VolumeMount(name="config", mount_path="/etc/aivis", read_only=True),
            k8s.V1VolumeMount(name="api-key", mount_path="/var/run/secrets/aivis", read_only=True),
            k8s.V1VolumeMount(name="tmp", mount_path="/tmp"),
            k8s.V1VolumeMount(name="data", mount_path="/var/lib/aivis"),
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
        # aivis never calls the Kubernetes API: no token in the pod (as in the CronJob).
        automount_service_account_token=False,
        get_logs=True,  # aivis writes JSON log lines and a summary on stderr
        on_finish_action="delete_succeeded_pod",
        **kwargs,
    )


def aivis_pod(task_id: str, arguments: list[str] | str, **kwargs: Any) -> KubernetesPodOperator:
    """One aivis run in its own pod; ``arguments`` follow the image's entrypoint, ``aivis``."""
    return KubernetesPodOperator(arguments=arguments, **aivis_pod_settings(task_id, **kwargs))
