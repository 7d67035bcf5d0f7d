"""Airflow 2.10's Variable: the default is `default_var` (Airflow 3's airflow.sdk calls it `default`)."""

from __future__ import annotations

import json
from typing import Any

from stub_airflow import NOTSET, VARIABLES


class Variable:
    @classmethod
    def get(cls, key: str, default_var: Any = NOTSET, deserialize_json: bool = False) -> Any:
        if key not in VARIABLES:
            if default_var is NOTSET:
                raise KeyError(f"Variable {key} does not exist")
            return default_var
        return json.loads(VARIABLES[key]) if deserialize_json else VARIABLES[key]
