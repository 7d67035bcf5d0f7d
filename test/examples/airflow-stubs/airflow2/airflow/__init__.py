"""Airflow 2.10: `from airflow import DAG`; no airflow.sdk."""

from pkgutil import extend_path

from stub_airflow import DAG

__path__ = extend_path(__path__, __name__)  # the provider package lives in ../../common
__version__ = "2.10.5"
__all__ = ["DAG"]
