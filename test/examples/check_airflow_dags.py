"""
Imports the example DAGs against the stubs of one Airflow version (argv[1]: airflow2 or
airflow3, beside this file under airflow-stubs/), runs what Airflow would run at parse time and
in the small Python tasks, and prints what a reviewer checks as one JSON object. Any keyword
the real API does not take raises here; a DeprecationWarning is an error (run with -W error).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [
    str(HERE / "airflow-stubs" / sys.argv[1]),
    str(HERE / "airflow-stubs" / "common"),
    str(HERE.parent.parent / "examples" / "airflow"),
]

import aivis_dag  # noqa: E402
import aivis_prompts_dag  # noqa: E402
import aivis_workspaces_dag  # noqa: E402
from aivis_pods import IMAGE  # noqa: E402
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator  # noqa: E402
from stub_airflow import MappedOperator  # noqa: E402


def pod(operator: KubernetesPodOperator) -> dict:
    if operator.image != IMAGE:  # another tool's pod (dbt): what it runs
        return {"task_id": operator.task_id, "cmds": operator.cmds, "arguments": operator.arguments}
    return {
        "task_id": operator.task_id,
        "arguments": operator.arguments,
        "automount_service_account_token": operator.automount_service_account_token,
        "read_only_root_filesystem": operator.container_security_context.read_only_root_filesystem,
        "mounts": sorted(m.mount_path for m in operator.volume_mounts),
        "skip_on_exit_code": operator.skip_on_exit_code,
    }


report: dict = {"dags": {}}
for module in (aivis_dag, aivis_prompts_dag, aivis_workspaces_dag):
    for value in vars(module).values():
        if type(value).__name__ != "DAG":
            continue
        tasks = []
        for task in value.tasks:
            if isinstance(task, MappedOperator):
                # What the scheduler does for each mapped index: run the upstream task, build the pod.
                arguments = aivis_workspaces_dag.sync_arguments.function()
                tasks.append({"mapped": [pod(task.instance(arguments=a)) for a in arguments]})
            elif isinstance(task, KubernetesPodOperator):
                tasks.append(pod(task))
            else:
                tasks.append({"python_task": task.task_id, "trigger_rule": task.trigger_rule})
        # Which task runs after which: `a >> b` for each edge the DAG declares.
        edges = sorted(
            f"{task.task_id} >> {getattr(after, 'task_id', None) or after.operator.task_id}"
            for task in value.tasks
            if hasattr(task, "task_id")
            for after in task.downstream
        )
        report["dags"][value.dag_id] = {"params": sorted(value.params), "tasks": tasks, "edges": edges}

# The callback a skipped (exit 3) mapped task calls, with the context Airflow hands it.
mapped = next(t for t in aivis_workspaces_dag.workspaces_dag.tasks if isinstance(t, MappedOperator))
callback = mapped.partial_kwargs["on_skipped_callback"]
callback({"task": mapped.instance(arguments=["sync", "--workspace", "acme"])})
report["skipped_callback"] = "called"
print(json.dumps(report))
