from enum import Enum


class TriggerRule(str, Enum):
    ALL_SUCCESS = "all_success"
    ALL_SKIPPED = "all_skipped"
    NONE_FAILED = "none_failed"
