"""airflow.sdk (Airflow 3): DAG, Param, Variable, task, TriggerRule."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

from stub_airflow import DAG, NOTSET, VARIABLES, Param, task

__all__ = ["DAG", "Param", "TriggerRule", "Variable", "task"]


class Variable:
    """airflow.sdk.Variable: `get(key, default=NOTSET, deserialize_json=False)`; no `default_var`."""

    @classmethod
    def get(cls, key: str, default: Any = NOTSET, deserialize_json: bool = False) -> Any:
        if key not in VARIABLES:
            if default is NOTSET:
                raise KeyError(f"Variable {key} does not exist")
            return default
        return json.loads(VARIABLES[key]) if deserialize_json else VARIABLES[key]


class TriggerRule(str, Enum):
    ALL_SUCCESS = "all_success"
    ALL_SKIPPED = "all_skipped"
    NONE_FAILED = "none_failed"
