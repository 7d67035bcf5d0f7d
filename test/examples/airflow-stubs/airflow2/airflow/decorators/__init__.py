from stub_airflow import task

__all__ = ["task"]
