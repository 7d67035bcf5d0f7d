"""Deprecated in Airflow 3.1 (use airflow.sdk.TriggerRule): importing it warns, as there."""

import warnings

from airflow.sdk import TriggerRule

warnings.warn(
    "airflow.utils.trigger_rule is deprecated; import TriggerRule from airflow.sdk",
    DeprecationWarning,
    stacklevel=2,
)
__all__ = ["TriggerRule"]
