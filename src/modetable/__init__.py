"""modetable: OME's runtime deployment-mode rules as versioned data.

The Python API (docs/api.md) is the names in `__all__`, and only those: they
follow semantic versioning, with the JSON contracts of docs/json.md. Every
module under `modetable` is internal and may change in any release.

    import modetable

    policy = modetable.load_rules().at("v1.3")
    cluster = modetable.Cluster.from_paths("manifests/", rules=policy)
    print(modetable.select(policy, cluster, "team-a/llama").runtime)

`import modetable` imports nothing else: each name is imported when first
used (PEP 562), so a program pays for the engine only when it decides.
"""

# Public name → the module that defines it (the version is kept in __about__.py,
# which the build reads and modules import).
_HOMES = {
    "__version__": "modetable.__about__",
    "load_rules": "modetable.api.rules",
    "Rules": "modetable.api.rules",
    "Policy": "modetable.api.rules",
    "Cluster": "modetable.api.cluster",
    "select": "modetable.api.decide",
    "effective": "modetable.api.decide",
    "admit": "modetable.api.decide",
    "match": "modetable.api.decide",
    "audit_cluster": "modetable.api.decide",
    "SelectResult": "modetable.api.results",
    "EffectiveResult": "modetable.api.results",
    "AdmitResult": "modetable.api.results",
    "MatchResult": "modetable.api.results",
    "AuditResult": "modetable.api.results",
    "AuditItem": "modetable.api.results",
    "ModetableError": "modetable.errors",
    "ErrorList": "modetable.errors",
    "ErrorCode": "modetable.errors",
    "Location": "modetable.errors",
    "ModetableWarning": "modetable.errors",
}

__all__ = [
    "AdmitResult",
    "AuditItem",
    "AuditResult",
    "Cluster",
    "EffectiveResult",
    "ErrorCode",
    "ErrorList",
    "Location",
    "MatchResult",
    "ModetableError",
    "ModetableWarning",
    "Policy",
    "Rules",
    "SelectResult",
    "admit",
    "audit_cluster",
    "effective",
    "load_rules",
    "match",
    "select",
]

TYPE_CHECKING = False  # typing itself costs an import; type checkers know this name
if TYPE_CHECKING:
    from modetable.__about__ import __version__ as __version__
    from modetable.api.cluster import Cluster
    from modetable.api.decide import admit, audit_cluster, effective, match, select
    from modetable.api.results import (
        AdmitResult,
        AuditItem,
        AuditResult,
        EffectiveResult,
        MatchResult,
        SelectResult,
    )
    from modetable.api.rules import Policy, Rules, load_rules
    from modetable.errors import ErrorCode, ErrorList, Location, ModetableError, ModetableWarning


def __getattr__(name: str) -> object:
    """A public name, imported on first use; the import system's lock makes two
    threads asking at once get the same object."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'modetable' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "__version__"})
