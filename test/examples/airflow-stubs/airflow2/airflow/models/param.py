from stub_airflow import Param

__all__ = ["Param"]
