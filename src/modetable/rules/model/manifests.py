"""The `manifests:` section: which kinds of object the rules read, and where they live."""

from __future__ import annotations

from typing import Annotated

from modetable.rules.kinds import Defines, Templates
from modetable.rules.model.names import SCOPE_WORDS
from modetable.rules.words import Scope
from modetable.settled import frozen

__all__ = ["KindRef", "Manifests", "ModelAgent"]


@frozen
class KindRef:
    kind: Annotated[str, Defines("kind")]
    scope: Scope


@frozen
class Manifests:
    list_kind: str
    scope_labels: Annotated[dict[str, str], Templates(SCOPE_WORDS)]
    inference_service: str
    runtimes: tuple[KindRef, ...]
    models: tuple[KindRef, ...]
    # The API groups (`ome.io` of `ome.io/v1beta1`) whose objects are read; an
    # object of a kind above in another group is skipped. Empty: any group.
    api_groups: tuple[str, ...] = ()
    # What a live dump's copy of an object brings to the manifest of the same
    # object (`--live`): these paths (relative to the object) are the
    # cluster's, the rest is the manifest's, which is what will be applied.
    # A model's also takes `model_agent.fills`.
    live_fields: tuple[str, ...] = ()


@frozen
class ModelAgent:
    """OME's model agent: the fields of a BaseModel or ClusterBaseModel it
    fills in once it has read the model's files, each only where unset."""

    fills: tuple[str, ...]
