"""What each format of a rules cache entry costs a cold start (issue 28).

    python bench/cache_formats.py [ROUNDS]

The rules cache (`src/modetable/rules/cache.py`) keeps the loaded rules so a
command skips structuring them with cattrs. An entry must be data that runs no
code, even where the folder's permissions were wrong. The formats measured,
each as the payload of a real entry, behind the same header:

  pickle             `pickle.loads`: runs whatever a planted pickle names (the
                     format before issue 28, for comparison only)
  restricted pickle  the same pickle read by `cache._Unpickler`, which makes
                     only the rules model's classes and the YAML containers
                     (what modetable uses)
  marshal + cattrs   the document only (positions kept), as marshal data;
                     the rules structured from it again with cattrs
  JSON + cattrs      the same, as JSON
  marshal, by hand   the rules and the document as marshal data of plain
                     values, the rules' attrs objects made again by a walk
                     that knows their classes (no cattrs, nothing run)

For each: `modetable select --isvc examples/inference-service.yaml examples/`
as a fresh process on one core with a warm cache (best and median of ROUNDS,
default 20, interleaved), against `python -c pass`; the first read of one
payload in a fresh process that has imported what a command imports before it
loads the rules (best of ROUNDS); and what a select imports beyond the
restricted pickle (`python -X importtime`). Every format is checked to give
back rules and a document equal to the loader's, positions included.
"""

from __future__ import annotations

# Only what the formats need at the top: the children import this module.
import json
import marshal
import os
import pickle
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"
COMMAND = ["select", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES)]


# --- the document (YamlMap / YamlList with their positions) as plain values --------


def _plain_document(node: Any) -> Any:
    from modetable.parsing.yamlio import YamlList, YamlMap

    if isinstance(node, YamlMap):
        pairs = [[key, _plain_document(value)] for key, value in node.items()]
        return ["m", node.file, node.line, node.col, pairs, list(node._positions.items())]
    if isinstance(node, YamlList):
        items = [_plain_document(item) for item in node]
        return ["l", node.file, node.line, node.col, items, list(node._positions)]
    return node


def _document(plain: Any) -> Any:
    from modetable.parsing.yamlio import YamlList, YamlMap

    if not isinstance(plain, list):
        return plain
    kind, file, line, col, children, positions = plain
    if kind == "m":
        node: Any = YamlMap((key, _document(value)) for key, value in children)
        node._positions = {key: packed for key, packed in positions}
    else:
        node = YamlList(_document(item) for item in children)
        node._positions = list(positions)
    node.file, node.line, node.col = file, line, col
    return node


def _structured(document: Any) -> Any:
    from modetable.rules.load import converter
    from modetable.rules.model import RuleFile

    return converter().structure(document, RuleFile)


# --- the rules' attrs objects as plain values, made again by a walk --------------------


def _classes() -> list[type]:
    import attrs

    from modetable.rules import model

    kinds = [
        value
        for value in vars(model).values()
        if isinstance(value, type) and value.__module__ == model.__name__ and attrs.has(value)
    ]
    return sorted(kinds, key=lambda kind: kind.__name__)


def _plain_rules(value: Any, index: dict[type, int]) -> Any:
    import attrs

    kind = type(value)
    if kind in index:
        fields = [_plain_rules(getattr(value, f.name), index) for f in attrs.fields(kind)]
        return ["o", index[kind], fields]
    if kind is tuple:
        return ["t", [_plain_rules(item, index) for item in value]]
    if kind is dict:
        return ["d", [[_plain_rules(k, index), _plain_rules(v, index)] for k, v in value.items()]]
    if kind in (str, int, float, bool, type(None)):
        return value
    raise TypeError(f"no plain form for {kind.__name__}")


def _rules(plain: Any, made: list[tuple[type, tuple[str, ...]]]) -> Any:
    if not isinstance(plain, list):
        return plain
    tag = plain[0]
    if tag == "o":
        kind, names = made[plain[1]]
        value = object.__new__(kind)
        for name, field in zip(names, plain[2], strict=True):
            object.__setattr__(value, name, _rules(field, made))
        return value
    if tag == "t":
        return tuple(_rules(item, made) for item in plain[1])
    return {_rules(k, made): _rules(v, made) for k, v in plain[1]}


# --- the formats -----------------------------------------------------------------


def _pickle_loads(payload: bytes) -> Any:
    return pickle.loads(payload)


def _document_dumps(encode: Any) -> Any:
    def dumps(entry: tuple[Any, ...]) -> bytes:
        _, document, charges = entry
        return encode([_plain_document(document), [list(c) for c in charges]])

    return dumps


def _document_loads(decode: Any) -> Any:
    def loads(payload: bytes) -> Any:
        plain, charges = decode(payload)
        document = _document(plain)
        return _structured(document), document, tuple(tuple(c) for c in charges)

    return loads


def _by_hand_dumps(entry: tuple[Any, ...]) -> bytes:
    rules, document, charges = entry
    index = {kind: number for number, kind in enumerate(_classes())}
    return marshal.dumps(
        [_plain_rules(rules, index), _plain_document(document), [list(c) for c in charges]]
    )


def _by_hand_loads(payload: bytes) -> Any:
    import attrs

    made = [(kind, tuple(f.name for f in attrs.fields(kind))) for kind in _classes()]
    rules, document, charges = marshal.loads(payload)
    return _rules(rules, made), _document(document), tuple(tuple(c) for c in charges)


def _formats() -> dict[str, tuple[Any, Any]]:
    from modetable.rules import cache

    return {
        "pickle": (cache._dumps, _pickle_loads),
        "restricted pickle": (cache._dumps, cache._loads),
        "marshal + cattrs": (_document_dumps(marshal.dumps), _document_loads(marshal.loads)),
        "JSON + cattrs": (
            _document_dumps(lambda value: json.dumps(value).encode()),
            _document_loads(json.loads),
        ),
        "marshal, by hand": (_by_hand_dumps, _by_hand_loads),
    }


def _child(name: str) -> list[str]:
    """The command line of a child running the CLI with format `name` (this module
    imported, not run as a script, so its bytecode is cached as modetable's is)."""
    script = (
        f"import sys; sys.path.insert(0, {str(HERE)!r}); import cache_formats; "
        "sys.exit(cache_formats.child(sys.argv[1], sys.argv[2:]))"
    )
    return [sys.executable, "-c", script, name, *COMMAND]


def child(name: str, argv: list[str]) -> int:
    """modetable's command line with the cache's payload in format `name`."""
    from modetable.rules import cache

    cache._dumps, cache._loads = _formats()[name]
    from modetable.cli import main

    return main(argv)


_DECODE = """
import sys, time
sys.path.insert(0, {here!r})
import cache_formats
import modetable.cli.common  # what a command has imported when it loads the rules
loads = cache_formats._formats()[sys.argv[1]][1]
with open(sys.argv[2], "rb") as stream:
    payload = stream.read()
started = time.perf_counter()
loads(payload)
print(time.perf_counter() - started)
"""


def decode_seconds(name: str, payload: Path) -> float:
    """Reading one payload in format `name` in a fresh process: the first read,
    with whatever it imports."""
    import subprocess

    script = _DECODE.format(here=str(HERE))
    done = subprocess.run(
        [sys.executable, "-c", script, name, str(payload)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def check_round_trips() -> dict[str, bytes]:
    """Each format gives back what the loader gives, positions included; the
    payloads, by format."""
    from modetable.parsing.yamlio import YamlList, YamlMap
    from modetable.rules.find import bundled_rules_path
    from modetable.rules.load import parse_rules, read_rules_text

    path = bundled_rules_path()
    rules, document = parse_rules(read_rules_text(path), str(path))
    entry = (rules, document, ((334, str(path), 1, 1, None),))

    def facts(node: Any) -> Any:
        if isinstance(node, YamlMap | YamlList):
            children = node.items() if isinstance(node, YamlMap) else enumerate(node)
            extra = {k: facts(v) for k, v in children}
            return (type(node), node.file, node.line, node.col, node._positions, extra)
        return node

    payloads = {}
    for name, (dumps, loads) in _formats().items():
        payload = payloads[name] = dumps(entry)
        back = loads(payload)
        assert back[0] == rules and back[2] == entry[2], name
        assert facts(back[1]) == facts(document), name
        print(f"{name}: payload {len(payload):,} bytes, round trip equal")
    return payloads


def imports(name: str, folder: Path) -> dict[str, int]:
    """Each module a warm-cache select imports, with its own import time (µs)."""
    import re
    import subprocess

    from run import _child_environment

    pattern = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *_child(name)[1:]],
        capture_output=True,
        text=True,
        env=_child_environment({"MODETABLE_CACHE_DIR": str(folder)}),
        check=False,
    )
    found = {}
    for line in done.stderr.splitlines():
        matched = pattern.match(line)
        if matched:
            found[matched.group(4)] = int(matched.group(1))
    return found


def main(rounds: int) -> None:
    import shutil
    import statistics
    import tempfile

    sys.path.insert(0, str(HERE))
    from run import _child_environment, _modetable, run_measured

    payloads = check_round_trips()
    names = list(_formats())
    folders = {name: Path(tempfile.mkdtemp(prefix="modetable-format-")) for name in names}
    runs = {"python -c pass": ([sys.executable, "-c", "pass"], _child_environment())}
    installed = Path(tempfile.mkdtemp(prefix="modetable-format-"))
    runs["modetable (as is)"] = (
        [*_modetable(), *COMMAND],
        _child_environment({"MODETABLE_CACHE_DIR": str(installed)}),
    )
    for name in names:
        runs[name] = (_child(name), _child_environment({"MODETABLE_CACHE_DIR": str(folders[name])}))
    for argv, env in runs.values():  # bytecode written, the cache warm
        for _ in range(2):
            assert run_measured(argv, env)[2] in (0, 1), argv
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(rounds):  # interleaved: a busy moment hits every format alike
        for label, (argv, env) in runs.items():
            times[label].append(run_measured(argv, env)[0])
    decoded: dict[str, list[float]] = {name: [] for name in names}
    scratch = Path(tempfile.mkdtemp(prefix="modetable-format-"))
    for name in names:
        (scratch / name).write_bytes(payloads[name])
    for _ in range(rounds):
        for name in names:
            decoded[name].append(decode_seconds(name, scratch / name))
    shutil.rmtree(scratch)
    base = imports("restricted pickle", folders["restricted pickle"])
    print(
        f"\n{'format':20} {'best':>9} {'median':>9} {'read':>7}  "
        "imported beyond the restricted pickle"
    )
    for label, measured in times.items():
        extra, read = "", ""
        if label in folders:
            read = f"{min(decoded[label]) * 1000:5.1f}ms"
            more = {m: t for m, t in imports(label, folders[label]).items() if m not in base}
            extra = f"{len(more)} modules, {sum(more.values()) / 1000:.1f} ms" if more else "-"
            if more:
                top = sorted(more, key=more.get, reverse=True)[:4]
                extra += " (" + ", ".join(top) + ")"
        best, middle = min(measured) * 1000, statistics.median(measured) * 1000
        print(f"{label:20} {best:7.1f}ms {middle:7.1f}ms {read:>7}  {extra}")
    for folder in [installed, *folders.values()]:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
