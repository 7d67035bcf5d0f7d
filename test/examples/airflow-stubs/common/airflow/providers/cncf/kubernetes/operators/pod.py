"""
KubernetesPodOperator of apache-airflow-providers-cncf-kubernetes (8.x-10.x): its own keywords
as the real __init__ declares them (keyword-only), the rest going to BaseOperator.
"""

from __future__ import annotations

from typing import Any

from stub_airflow import BaseOperator

ON_FINISH_ACTIONS = {"delete_pod", "delete_succeeded_pod", "keep_pod"}


class KubernetesPodOperator(BaseOperator):
    def __init__(
        self,
        *,
        kubernetes_conn_id: str | None = "kubernetes_default",
        namespace: str | None = None,
        image: str | None = None,
        name: str | None = None,
        random_name_suffix: bool = True,
        cmds: list[str] | None = None,
        arguments: list[str] | None = None,
        ports: list | None = None,
        volume_mounts: list | None = None,
        volumes: list | None = None,
        env_vars: list | dict | None = None,
        env_from: list | None = None,
        secrets: list | None = None,
        in_cluster: bool | None = None,
        cluster_context: str | None = None,
        labels: dict | None = None,
        reattach_on_restart: bool = True,
        startup_timeout_seconds: int = 120,
        startup_check_interval_seconds: int = 5,
        get_logs: bool = True,
        base_container_name: str | None = None,
        init_container_logs: Any = None,
        container_logs: Any = None,
        image_pull_policy: str | None = None,
        annotations: dict | None = None,
        container_resources: Any = None,
        affinity: Any = None,
        config_file: str | None = None,
        node_selector: dict | None = None,
        image_pull_secrets: list | None = None,
        service_account_name: str | None = None,
        automount_service_account_token: bool | None = None,
        hostnetwork: bool = False,
        host_aliases: list | None = None,
        tolerations: list | None = None,
        security_context: Any = None,
        container_security_context: Any = None,
        dnspolicy: str | None = None,
        dns_config: Any = None,
        hostname: str | None = None,
        subdomain: str | None = None,
        schedulername: str | None = None,
        full_pod_spec: Any = None,
        init_containers: list | None = None,
        log_events_on_failure: bool = False,
        do_xcom_push: bool = False,
        pod_template_file: str | None = None,
        pod_template_dict: dict | None = None,
        priority_class_name: str | None = None,
        pod_runtime_info_envs: list | None = None,
        termination_grace_period: int | None = None,
        configmaps: list[str] | None = None,
        skip_on_exit_code: Any = None,
        deferrable: bool = False,
        poll_interval: float = 2,
        log_pod_spec_on_failure: bool = True,
        on_finish_action: str = "delete_pod",
        termination_message_policy: str = "File",
        active_deadline_seconds: int | None = None,
        callbacks: Any = None,
        progress_callback: Any = None,
        logging_interval: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if on_finish_action not in ON_FINISH_ACTIONS:
            raise ValueError(f"on_finish_action {on_finish_action!r} is not one of {sorted(ON_FINISH_ACTIONS)}")
        self.namespace = namespace
        self.image = image
        self.cmds = cmds or []
        self.name = name
        self.arguments = arguments or []
        self.env_vars = env_vars or []
        self.volumes = volumes or []
        self.volume_mounts = volume_mounts or []
        self.automount_service_account_token = automount_service_account_token
        self.security_context = security_context
        self.container_security_context = container_security_context
        self.skip_on_exit_code = [skip_on_exit_code] if isinstance(skip_on_exit_code, int) else list(skip_on_exit_code or [])
        self.termination_grace_period = termination_grace_period
        self.on_finish_action = on_finish_action
