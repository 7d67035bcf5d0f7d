"""
kubernetes.client.models: each class takes exactly the attributes the real generated model
declares (snake_case, all optional), so a misspelt attribute is a TypeError here as there.
"""

from __future__ import annotations

from typing import Any


def _model(name: str, fields: str) -> type:
    allowed = tuple(fields.split())

    def __init__(self: Any, **kwargs: Any) -> None:
        for key in kwargs:
            if key not in allowed:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument {key!r}")
        for key in allowed:
            setattr(self, key, kwargs.get(key))

    return type(name, (), {"__init__": __init__, "attribute_map": allowed})


V1EnvVar = _model("V1EnvVar", "name value value_from")
V1EnvVarSource = _model("V1EnvVarSource", "config_map_key_ref field_ref resource_field_ref secret_key_ref")
V1SecretKeySelector = _model("V1SecretKeySelector", "key name optional")
V1Volume = _model(
    "V1Volume",
    "name config_map secret empty_dir persistent_volume_claim projected host_path csi ephemeral nfs downward_api",
)
V1ConfigMapVolumeSource = _model("V1ConfigMapVolumeSource", "default_mode items name optional")
V1SecretVolumeSource = _model("V1SecretVolumeSource", "default_mode items optional secret_name")
V1EmptyDirVolumeSource = _model("V1EmptyDirVolumeSource", "medium size_limit")
V1KeyToPath = _model("V1KeyToPath", "key mode path")
V1VolumeMount = _model(
    "V1VolumeMount", "mount_path mount_propagation name read_only recursive_read_only sub_path sub_path_expr"
)
V1ResourceRequirements = _model("V1ResourceRequirements", "claims limits requests")
V1PodSecurityContext = _model(
    "V1PodSecurityContext",
    "app_armor_profile fs_group fs_group_change_policy run_as_group run_as_non_root run_as_user "
    "se_linux_options seccomp_profile supplemental_groups supplemental_groups_policy sysctls windows_options",
)
V1SecurityContext = _model(
    "V1SecurityContext",
    "allow_privilege_escalation app_armor_profile capabilities privileged proc_mount read_only_root_filesystem "
    "run_as_group run_as_non_root run_as_user se_linux_options seccomp_profile windows_options",
)
V1SeccompProfile = _model("V1SeccompProfile", "localhost_profile type")
V1Capabilities = _model("V1Capabilities", "add drop")
