"""Hostile and broken input beyond the corpus: unreadable files, the last-resort
handler, and inputs that must read exactly like their plain equivalent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, isvc_doc, run_cli, runtime_doc, write

ISVC = ROOT / "tests" / "broken" / "isvc.yaml"


def _dump(*documents: dict) -> str:
    return yaml.safe_dump_all(documents, sort_keys=False)


def test_an_unreadable_file_is_one_line_naming_it(tmp_path, monkeypatch):
    path = write(tmp_path, "locked.yaml", _dump(isvc_doc("svc")))
    real_open = Path.open

    def refuse(self, *args, **kwargs):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    run = run_cli("match", "--isvc", "svc", str(path))
    assert (run.code, run.out, run.err) == (
        2,
        "",
        f"modetable: error: {path}: cannot read: Permission denied\n",
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_a_file_without_read_permission_is_one_line_naming_it(tmp_path):
    path = write(tmp_path, "locked.yaml", _dump(isvc_doc("svc")))
    path.chmod(0)
    run = run_cli("match", "--isvc", "svc", str(path))
    assert (run.code, run.err) == (2, f"modetable: error: {path}: cannot read: Permission denied\n")


def test_a_broken_symbolic_link_says_so(tmp_path):
    link = tmp_path / "gone.yaml"
    link.symlink_to(tmp_path / "nowhere.yaml")
    run = run_cli("match", "--isvc", "svc", str(ISVC), str(link))
    assert (run.code, run.err) == (2, f"modetable: error: {link}: a broken symbolic link\n")


def test_a_folder_skips_empty_files_but_reads_the_rest(tmp_path):
    write(tmp_path, "a/empty.yaml", "")
    write(tmp_path, "a/isvc.yaml", _dump(isvc_doc("svc")))
    run = run_cli("match", "--isvc", "svc", str(tmp_path / "a"))
    assert (run.code, run.err) == (1, "")


def test_a_file_reached_twice_through_a_folder_and_by_name_is_read_once(tmp_path):
    write(tmp_path, "all/isvc.yaml", _dump(isvc_doc("svc")))
    write(tmp_path, "all/rt.yaml", _dump(runtime_doc("rt")))
    run = run_cli(
        "match", "--isvc", "svc", str(tmp_path / "all"), str(tmp_path / "all" / "rt.yaml")
    )
    assert (run.code, run.err) == (0, "")


def test_a_typed_list_is_unwrapped_like_kind_list(tmp_path):
    """`kubectl get` prints `kind: List`; the API itself answers `ServingRuntimeList`."""
    listed = {
        "apiVersion": "ome.io/v1beta1",
        "kind": "ClusterServingRuntimeList",
        "items": [runtime_doc("rt")],
    }
    typed = run_cli("match", "--isvc", "svc", str(ISVC), "-", stdin=_dump(listed))
    plain = run_cli("match", "--isvc", "svc", str(ISVC), "-", stdin=_dump(runtime_doc("rt")))
    assert (typed.code, typed.out, typed.err) == (plain.code, plain.out, plain.err)
    assert "rt " in typed.out


def test_an_unexpected_exception_is_one_line_exit_3(monkeypatch):
    from modetable.cli import match

    def broken(args, io):
        raise KeyError("surprise")

    monkeypatch.delenv("MODETABLE_DEBUG", raising=False)
    monkeypatch.setattr(match, "run", broken)
    run = run_cli("match", "--isvc", "svc", str(ISVC))
    assert (run.code, run.out, run.err) == (
        3,
        "",
        "modetable: internal error: KeyError: 'surprise' "
        "(a bug in modetable; MODETABLE_DEBUG=1 shows the traceback)\n",
    )


def test_modetable_debug_lets_the_exception_through(monkeypatch):
    from modetable.cli import match

    def broken(args, io):
        raise KeyError("surprise")

    monkeypatch.setenv("MODETABLE_DEBUG", "1")
    monkeypatch.setattr(match, "run", broken)
    with pytest.raises(KeyError, match="surprise"):
        run_cli("match", "--isvc", "svc", str(ISVC))


def test_running_out_of_memory_is_one_line(monkeypatch):
    from modetable.cli import match

    def exhausted(args, io):
        raise MemoryError

    monkeypatch.setattr(match, "run", exhausted)
    run = run_cli("match", "--isvc", "svc", str(ISVC))
    assert (run.code, run.err) == (
        2,
        "modetable: error: out of memory (docs/limits.md lists the limits)\n",
    )


def test_the_rules_file_is_never_evaluated(tmp_path):
    """A Python tag in a rules file is refused like any other tag, and never run."""
    marker = tmp_path / "ran"
    rules = write(
        tmp_path,
        "rules.yaml",
        f"format: !!python/object/apply:os.system ['touch {marker}']\n",
    )
    run = run_cli("--rules", str(rules), "match", "--isvc", "svc", str(ISVC))
    assert (run.code, run.err) == (
        2,
        f"modetable: error: {rules}:1:9: the YAML tag !!python/object/apply:os.system is not "
        "supported: modetable reads only mappings, lists, strings, numbers, booleans and null\n",
    )
    assert not marker.exists()
