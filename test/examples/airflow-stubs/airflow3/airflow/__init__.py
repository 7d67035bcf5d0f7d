"""Airflow 3.1: DAG authoring comes from airflow.sdk."""

from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)  # the provider package lives in ../../common
__version__ = "3.1.3"
