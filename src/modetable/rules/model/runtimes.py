"""The `run_failures:`, `runtime_ref:`, `inheritance:` and `runtime_admission:`
sections: how a runtime is named, inherited, admitted on apply, and fails to run.
"""

from __future__ import annotations

from typing import Annotated

from modetable.rules.kinds import Defines, Ref
from modetable.rules.model.names import ComponentName, KindName, ModeName
from modetable.rules.words import RuntimeCheckKind
from modetable.settled import frozen

__all__ = [
    "Inheritance",
    "InheritanceMessages",
    "RefLookup",
    "RunFailure",
    "RuntimeAdmission",
    "RuntimeCheck",
    "RuntimeRef",
    "RuntimeWebhook",
]


@frozen
class RunFailure:
    id: Annotated[str, Defines("run failure")]
    components: tuple[ComponentName, ...]
    modes: tuple[ModeName, ...]
    log: Annotated[str, Ref("message", params=())]
    error: Annotated[str, Ref("message", params=("component",))]
    stops_later: bool = False


@frozen
class InheritanceMessages:
    parent_missing: Annotated[str, Ref("message", params=("parent", "chain"))]
    cycle: Annotated[str, Ref("message", params=("chain",))]
    too_deep: Annotated[str, Ref("message", params=("max", "chain"))]


@frozen
class RefLookup:
    order: tuple[KindName, ...]
    kind: KindName | None = None
    since: str | None = None
    until: str | None = None


@frozen
class RuntimeRef:
    name: str
    kind: str
    auto_sync: str
    default_kind: KindName
    lookups: tuple[RefLookup, ...]


@frozen
class RuntimeWebhook:
    """The validating webhook of one runtime kind: its name in kubectl's denial
    and the word its messages name the kind by."""

    kind: KindName
    name: str
    kind_word: str


@frozen
class RuntimeCheck:
    """One check of the ServingRuntime webhook on apply."""

    id: Annotated[str, Defines("runtime admission check")]
    check: RuntimeCheckKind
    message: Annotated[str, Ref("message", params=("runtime", "kind_word", "name"))]
    # profile_disabled: where a profile says so, and the value that makes one.
    field: str | None = None
    value: str | None = None
    # priorities_agree: an entry's name, whose autoSelect entries share a priority.
    entry_name: str | None = None
    since: str | None = None
    until: str | None = None


@frozen
class RuntimeAdmission:
    """The ServingRuntime webhook on apply: a runtime it denies never exists,
    so no InferenceService gets it. A disabled runtime is admitted before the
    checks run. `not_modelled`: what the webhook checks that modetable does not."""

    webhooks: tuple[RuntimeWebhook, ...]
    denial: Annotated[str, Ref("message", params=("webhook", "message"))]
    checks: tuple[RuntimeCheck, ...]
    not_modelled: Annotated[str, Ref("message", params=())]


@frozen
class Inheritance:
    annotation: str
    max_chain: int
    list_key: str
    replace: tuple[str, ...]
    messages: InheritanceMessages
    since: str | None = None
    until: str | None = None
