"""OME's ServingRuntime webhook on apply (the rules' `runtime_admission`): a
runtime it denies never exists in the cluster, so no InferenceService is
given it. What each kind of check does is here; which checks run, in what
order, and their texts are the rules'."""

from __future__ import annotations

from collections.abc import Callable

from modetable.inputs.fields import read
from modetable.inputs.formats import entries_of
from modetable.inputs.manifests import Manifest
from modetable.parsing.paths import lookup, split
from modetable.rules.model.runtimes import RuntimeCheck
from modetable.rules.policy import Policy
from modetable.rules.words import RuntimeCheckKind
from modetable.versions import in_force

__all__ = ["runtime_denial"]


def runtime_denial(policy: Policy, runtime: Manifest) -> str | None:
    """What kubectl prints when the webhook denies `runtime` on apply, or None
    when it admits it (a disabled runtime is admitted before any check)."""
    rules, selection = policy.rules.runtime_admission, policy.rules.selection
    if rules is None or selection is None:
        return None
    if read(runtime.body, selection.runtime.disabled, bool, runtime.location):
        return None
    webhook = next((w for w in rules.webhooks if w.kind == runtime.kind), None)
    if webhook is None:
        return None
    for check in rules.checks:
        if not in_force(check.since, check.until, policy.version):
            continue
        name = _CHECKS[check.check](policy, check, runtime)
        if name is not None:
            message = policy.message(
                check.message, runtime=runtime.name, kind_word=webhook.kind_word, name=name
            )
            return policy.message(rules.denial, webhook=webhook.name, message=message)
    return None


# Each kind of check: the name its message gives when it denies, else None.


def _profile_disabled(policy: Policy, check: RuntimeCheck, runtime: Manifest) -> str | None:
    """A profile (`field` holds `value`) must be disabled; the caller has
    admitted the disabled ones."""
    assert check.field is not None
    return "" if lookup(runtime.body, split(check.field)) == check.value else None


def _priorities_agree(policy: Policy, check: RuntimeCheck, runtime: Manifest) -> str | None:
    """The entry name whose autoSelect entries set different priorities: each
    set priority is held against the first entry of its name, as OME keeps it
    (unset when that one set none, and then nothing is held against it)."""
    assert policy.rules.selection is not None and check.entry_name is not None
    path = policy.rules.selection.runtime.entries
    items = read(runtime.body, path, list, runtime.location)
    entries = entries_of(policy.rules.selection, runtime.body, runtime.location)
    first: dict[str, int | None] = {}
    for item, entry in zip(items or (), entries, strict=True):
        # Every entry's name is a string, as the API server types it.
        key = read(item, check.entry_name, str, runtime.location, f"{path}[{entry.index}].") or ""
        if entry.auto_select is not True:
            continue
        if key not in first:
            first[key] = entry.priority
        elif first[key] is not None and entry.priority not in (None, first[key]):
            return key
    return None


_CHECKS: dict[RuntimeCheckKind, Callable[[Policy, RuntimeCheck, Manifest], str | None]] = {
    RuntimeCheckKind.PROFILE_DISABLED: _profile_disabled,
    RuntimeCheckKind.PRIORITIES_AGREE: _priorities_agree,
}
