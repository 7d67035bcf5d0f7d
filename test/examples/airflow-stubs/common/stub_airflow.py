"""
The parts of Airflow the example DAGs touch, with the real signatures (keyword names and
which are keyword-only) of Airflow 2.10 and 3.x, and nothing else: a keyword the real API does
not take is a TypeError here too. Shared by the airflow2/ and airflow3/ stub trees; what
differs between the versions (Variable.get's default, where things are imported from) lives
there.
"""

from __future__ import annotations

import inspect
from typing import Any

NOTSET: Any = object()

TRIGGER_RULES = {
    "all_success", "all_failed", "all_done", "all_done_setup_success", "one_success", "one_failed",
    "one_done", "none_failed", "none_failed_min_one_success", "none_skipped", "always",
    "all_skipped", "all_done_min_one_success",
}

_dag_stack: list[DAG] = []


class DependencyMixin:
    def __rshift__(self, other):
        for item in other if isinstance(other, list) else [other]:
            self.downstream.append(item)
        return other

    def __lshift__(self, other):
        for item in other if isinstance(other, list) else [other]:
            item.downstream.append(self)
        return other


class DAG:
    """airflow.models.dag.DAG (2.10) / airflow.sdk.DAG (3.x): the keywords both accept."""

    def __init__(
        self,
        dag_id: str,
        description: str | None = None,
        schedule: Any = None,
        start_date: Any = None,
        end_date: Any = None,
        template_searchpath: Any = None,
        user_defined_macros: dict | None = None,
        user_defined_filters: dict | None = None,
        default_args: dict | None = None,
        max_active_tasks: int = 16,
        max_active_runs: int = 16,
        max_consecutive_failed_dag_runs: int = 0,
        dagrun_timeout: Any = None,
        catchup: bool = False,
        on_success_callback: Any = None,
        on_failure_callback: Any = None,
        doc_md: str | None = None,
        params: dict | None = None,
        access_control: dict | None = None,
        is_paused_upon_creation: bool | None = None,
        jinja_environment_kwargs: dict | None = None,
        render_template_as_native_obj: bool = False,
        tags: list[str] | None = None,
        owner_links: dict | None = None,
        auto_register: bool = True,
        fail_fast: bool = False,
        dag_display_name: str | None = None,
    ) -> None:
        self.dag_id = dag_id
        self.schedule = schedule
        self.default_args = default_args or {}
        self.params = params or {}
        self.render_template_as_native_obj = render_template_as_native_obj
        self.tasks: list[Any] = []

    def __enter__(self) -> DAG:
        _dag_stack.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _dag_stack.pop()

    def add(self, task: Any) -> None:
        self.tasks.append(task)


class BaseOperator(DependencyMixin):
    """The BaseOperator keywords the examples may pass (both versions take them)."""

    def __init__(
        self,
        *,
        task_id: str,
        owner: str = "airflow",
        email: Any = None,
        retries: int | None = None,
        retry_delay: Any = None,
        retry_exponential_backoff: bool = False,
        max_retry_delay: Any = None,
        start_date: Any = None,
        end_date: Any = None,
        depends_on_past: bool = False,
        wait_for_downstream: bool = False,
        dag: DAG | None = None,
        params: dict | None = None,
        default_args: dict | None = None,
        priority_weight: int = 1,
        queue: str | None = None,
        pool: str | None = None,
        pool_slots: int = 1,
        execution_timeout: Any = None,
        on_execute_callback: Any = None,
        on_failure_callback: Any = None,
        on_success_callback: Any = None,
        on_retry_callback: Any = None,
        on_skipped_callback: Any = None,
        trigger_rule: str = "all_success",
        max_active_tis_per_dag: int | None = None,
        max_active_tis_per_dagrun: int | None = None,
        executor_config: dict | None = None,
        do_xcom_push: bool = True,
        doc_md: str | None = None,
    ) -> None:
        if str(trigger_rule) not in TRIGGER_RULES:
            raise ValueError(f"unknown trigger_rule {trigger_rule!r}")
        self.task_id = task_id
        self.retries = retries
        self.execution_timeout = execution_timeout
        self.on_skipped_callback = on_skipped_callback
        self.trigger_rule = str(trigger_rule)
        self.max_active_tis_per_dag = max_active_tis_per_dag
        self.downstream: list[Any] = []
        self.dag = dag or (_dag_stack[-1] if _dag_stack else None)
        if self.dag is not None:
            self.dag.add(self)

    @classmethod
    def partial(cls, **kwargs: Any) -> _PartialOperator:
        """Checks the keywords as the constructors would, the mapped ones left for expand()."""
        own = _own_keywords(cls)
        rest = {name: value for name, value in kwargs.items() if name not in own}
        inspect.signature(BaseOperator.__init__).bind_partial(None, **rest)
        return _PartialOperator(cls, kwargs)


def _own_keywords(cls: type) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is BaseOperator:
            break
        if "__init__" in vars(klass):
            names |= set(inspect.signature(klass.__init__).parameters)
    return names - {"self", "kwargs"}


class _PartialOperator:
    def __init__(self, cls: type, kwargs: dict[str, Any]) -> None:
        self.cls = cls
        self.kwargs = kwargs

    def expand(self, **mapped: Any) -> MappedOperator:
        if not mapped:
            raise TypeError("expand() needs at least one mapped argument")
        for name in mapped:
            if name not in _own_keywords(self.cls):
                raise TypeError(f"{self.cls.__name__}.expand() got an unexpected keyword argument {name!r}")
            if name in self.kwargs:
                raise TypeError(f"{name!r} is given to both partial() and expand()")
        return MappedOperator(self.cls, self.kwargs, mapped)


class MappedOperator(DependencyMixin):
    def __init__(self, cls: type, partial: dict[str, Any], mapped: dict[str, Any]) -> None:
        self.operator_class = cls
        self.partial_kwargs = partial
        self.mapped_kwargs = mapped
        self.downstream: list[Any] = []
        self.dag = _dag_stack[-1] if _dag_stack else None
        if self.dag is not None:
            self.dag.add(self)

    def instance(self, **values: Any) -> Any:
        """One mapped task instance's operator, built with the real constructor's keywords."""
        return self.operator_class(**self.partial_kwargs, **values)


class XComArg(DependencyMixin):
    def __init__(self, operator: Any) -> None:
        self.operator = operator
        self.downstream = operator.downstream


class _PythonOperator(BaseOperator):
    def __init__(self, *, python_callable: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.python_callable = python_callable


class _TaskFunction:
    def __init__(self, function: Any, kwargs: dict[str, Any]) -> None:
        self.function = function
        self.kwargs = kwargs

    def __call__(self, *args: Any, **kwargs: Any) -> XComArg:
        inspect.signature(self.function).bind(*args, **kwargs)
        operator = _PythonOperator(python_callable=self.function, task_id=self.function.__name__, **self.kwargs)
        return XComArg(operator)


def task(python_callable: Any = None, **kwargs: Any) -> Any:
    """@task and @task(**operator keywords), checked against the operator's keywords."""
    inspect.signature(BaseOperator.__init__).bind_partial(None, **{"task_id": "t", **kwargs})

    def wrap(function: Any) -> _TaskFunction:
        return _TaskFunction(function, kwargs)

    return wrap(python_callable) if python_callable is not None else wrap


class Param:
    """airflow.models.param.Param / airflow.sdk.Param: a default, a description, JSON Schema keywords."""

    def __init__(self, default: Any = NOTSET, description: str | None = None, **kwargs: Any) -> None:
        self.value = default
        self.description = description
        self.schema = kwargs


VARIABLES: dict[str, str] = {}
"""What `airflow variables set` would hold; empty unless a check puts something in."""
