from kubernetes.client import models

__all__ = ["models"]
