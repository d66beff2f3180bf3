"""What each format of a rules cache entry costs a cold start (issue 28).

    python bench/cache_formats.py [ROUNDS]

The rules cache (`src/modetable/rules/cache.py`) keeps the loaded rules so a
command skips structuring them with cattrs. An entry must be data that runs no
code, even where the folder's permissions were wrong. Since format 3 an entry's
payload is `(rules, {later section: blob}, document blob, charges)`: the rules
with their later sections (`model.LATER_SECTIONS`: docs, findings,
suppression) None, each of those sections and the document encoded on its own
and kept as bytes, read only when first asked for (a cold select reads none of
them). Each format below replaces the cache's `_dumps` and `_loads`, so it
encodes every one of those parts, and the entry around them, its own way;
the formats measured, each as the payload of a real entry behind the same
header:

  pickle             `pickle.loads`: runs whatever a planted pickle names (the
                     format before issue 28, for comparison only)
  restricted pickle  the same pickle read by `cache._Unpickler`, which makes
                     only the rules model's classes, the words' enums and the
                     YAML containers (what modetable uses)
  marshal + cattrs   the YAML as marshal data of plain values (positions
                     kept), structured again with cattrs: the entry holds the
                     document without the later sections (structured into the
                     rules, those sections None), each later section's blob
                     its part of the document (structured when first read),
                     and the document blob the whole document
  JSON + cattrs      the same, as JSON (a blob inside the entry held as the
                     string of its JSON text)
  marshal, by hand   every part as marshal data of plain values, the rules'
                     attrs objects and words made again by a walk that knows
                     their classes by module and name, importing a model
                     module only when a part names it (no cattrs, nothing run)

For each: `modetable select --isvc examples/inference-service.yaml examples/`
as a fresh process on one core with a warm cache (best and median of ROUNDS,
default 20, interleaved), against `python -c pass`; the first read of one
entry's payload (its eager part: what a select unpickles) in a fresh process
that has imported what a command imports before it loads the rules (best of
ROUNDS); and what a select imports beyond the restricted pickle (`python -X
importtime`). Every format is first checked through the cache itself
(`cache.load_cached` writing an entry in that format, then serving it): the
rules equal to the loader's with every later section read back, the document
equal, positions included, the charges kept, and nothing refused.
"""

from __future__ import annotations

# Only what the formats need at the top: the children import this module.
import functools
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


# --- the rules' attrs objects and words as plain values, made again by a walk ------


_MODEL = "modetable.rules.model"
_WORDS = "modetable.rules.words"


def _holds_rules(module: str) -> bool:
    """Whether an entry may make classes of `module`: the rules model's package,
    any module of it (a section; `_section_modules` walks them), or the words.
    By name, not a listing: finding the package's modules would import pkgutil
    on every cold read."""
    return module in (_MODEL, _WORDS) or module.rpartition(".")[0] == _MODEL


def _section_modules() -> list[str]:
    """The rules model's modules, found by walking the package (not imported)."""
    import pkgutil

    from modetable.rules import model

    return [f"{model.__name__}.{found.name}" for found in pkgutil.iter_modules(model.__path__)]


@functools.cache
def _kind(module: str, name: str) -> type:
    """The class `name` of `module`: an attrs class of the rules model or an enum
    of the words; the module imported only now (a later section read)."""
    import enum
    import importlib

    import attrs

    found = vars(importlib.import_module(module)).get(name) if _holds_rules(module) else None
    if not (isinstance(found, type) and found.__module__ == module):
        raise TypeError(f"{module}.{name} is not a class of the rules")
    if not (attrs.has(found) or issubclass(found, enum.Enum)):
        raise TypeError(f"{module}.{name} is not a class of the rules")
    return found


@functools.cache
def _fields(kind: type) -> tuple[str, ...]:
    import attrs

    return tuple(field.name for field in attrs.fields(kind))


def _plain(value: Any) -> Any:
    """`value` (an entry, a section, the document, or anything inside them) as
    marshal data; a list is always a tagged node."""
    import enum

    from modetable.parsing.yamlio import YamlList, YamlMap

    kind = type(value)
    if kind in (str, int, float, bool, bytes, type(None)):
        return value
    if kind is tuple:
        return ["t", [_plain(item) for item in value]]
    if kind is dict:
        return ["d", [[_plain(k), _plain(v)] for k, v in value.items()]]
    if kind in (YamlMap, YamlList):
        return _plain_document(value)
    if _kind(kind.__module__, kind.__qualname__) is kind:  # raises for any other class
        if isinstance(value, enum.Enum):
            return ["e", kind.__module__, kind.__qualname__, value.name]
        fields = [_plain(getattr(value, name)) for name in _fields(kind)]
        return ["o", kind.__module__, kind.__qualname__, fields]
    raise TypeError(f"no plain form for {kind.__name__}")


def _made(plain: Any) -> Any:
    if not isinstance(plain, list):
        return plain
    tag = plain[0]
    if tag == "o":
        kind = _kind(plain[1], plain[2])
        value = object.__new__(kind)
        for name, field in zip(_fields(kind), plain[3], strict=True):
            object.__setattr__(value, name, _made(field))
        return value
    if tag == "e":
        return _kind(plain[1], plain[2])[plain[3]]  # the member itself
    if tag == "t":
        return tuple(_made(item) for item in plain[1])
    if tag == "d":
        return {_made(k): _made(v) for k, v in plain[1]}
    return _document(plain)


# --- the formats -----------------------------------------------------------------


def _pickle_loads(payload: bytes) -> Any:
    return pickle.loads(payload)


def _by_hand_dumps(value: Any) -> bytes:
    return marshal.dumps(_plain(value))


def _by_hand_loads(payload: bytes) -> Any:
    return _made(marshal.loads(payload))


@functools.cache
def _sections() -> dict[str, tuple[str, Any]]:
    """Each later section's key in the rules file and its type, by field name."""
    import attrs

    from modetable.rules.kinds import resolved, yaml_key
    from modetable.rules.model import LATER_SECTIONS, RuleFile

    fields = attrs.fields_dict(resolved(RuleFile))
    return {name: (yaml_key(fields[name]), fields[name].type) for name in LATER_SECTIONS}


def _structured(document: Any, kind: Any) -> Any:
    from modetable.rules.load import converter

    return converter().structure(document, kind)


def _cattrs_format(encode: Any, decode: Any, *, text: bool) -> tuple[Any, Any]:
    """The YAML kept, structured again with cattrs: `dumps` and `loads` of each
    part of an entry. A section's blob is made from the document when the entry
    is (the cache encodes the sections, by their objects, before the document);
    with `text`, a blob inside the entry is held as the string of its text."""

    def dumps(value: Any) -> bytes:
        from modetable.parsing.yamlio import YamlMap

        if isinstance(value, YamlMap):
            return encode(["document", _plain_document(value)])
        if not isinstance(value, tuple):
            return encode(["section"])  # replaced when the entry is made
        _rules, _later, blob, charges = value
        whole = decode(blob)[1]
        keys = {key: name for name, (key, _type) in _sections().items()}
        pairs = dict(whole[4])
        blobs = {name: encode(["section", name, pairs.get(key)]) for key, name in keys.items()}
        eager = [*whole[:4], [[k, v] for k, v in whole[4] if k not in keys]]
        eager.append([[k, packed] for k, packed in whole[5] if k not in keys])
        if text:
            blobs = {name: part.decode() for name, part in blobs.items()}
            blob = blob.decode()
        return encode(["entry", eager, blobs, blob, [list(c) for c in charges]])

    def loads(payload: bytes) -> Any:
        found = decode(payload)
        if found[0] == "document":
            return _document(found[1])
        if found[0] == "section":
            _, name, plain = found
            return _structured(_document(plain), _sections()[name][1])
        from modetable.rules.kinds import resolved
        from modetable.rules.model import RuleFile

        _, eager, blobs, blob, charges = found
        if text:
            blobs = {name: part.encode() for name, part in blobs.items()}
            blob = blob.encode()
        rules = _structured(_document(eager), resolved(RuleFile))
        return rules, blobs, blob, tuple(tuple(c) for c in charges)

    return dumps, loads


def _formats() -> dict[str, tuple[Any, Any]]:
    from modetable.rules import cache

    return {
        "pickle": (cache._dumps, _pickle_loads),
        "restricted pickle": (cache._dumps, cache._loads),
        "marshal + cattrs": _cattrs_format(marshal.dumps, marshal.loads, text=False),
        "JSON + cattrs": _cattrs_format(
            lambda value: json.dumps(value).encode(), json.loads, text=True
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
    """Each format, put in the cache's place, gives back through the cache what
    the loader gives, positions included; each entry's payload, by format."""
    import enum
    import importlib
    import tempfile

    import attrs

    from modetable.parsing.yamlio import YamlList, YamlMap, charges_recorded, decode
    from modetable.rules import cache
    from modetable.rules.find import bundled_rules_path
    from modetable.rules.load import parse_rules

    path = bundled_rules_path()
    file, data = str(path), path.read_bytes()

    def parse() -> Any:
        return parse_rules(decode(data, file), file)

    with charges_recorded() as recorded:
        rules, document = parse()
    charges = tuple((n, at.file, at.line, at.col, at.field) for n, at in recorded)

    def facts(node: Any) -> Any:
        if isinstance(node, YamlMap | YamlList):
            children = node.items() if isinstance(node, YamlMap) else enumerate(node)
            extra = {k: facts(v) for k, v in children}
            return (type(node), node.file, node.line, node.col, node._positions, extra)
        return type(node), node

    def same(back: Any, made: Any) -> bool:
        """Equal and of the same types all through: a word comes back as its
        member (a string equals it), a section read from its blob."""
        if type(back) is not type(made):
            return False
        if attrs.has(type(made)):
            names = [field.name for field in attrs.fields(type(made))]
            return all(same(getattr(back, n), getattr(made, n)) for n in names)
        if type(made) is tuple:
            return len(back) == len(made) and all(map(same, back, made))
        if type(made) is dict:
            return list(back) == list(made) and all(same(back[k], made[k]) for k in made)
        return back == made

    # Every class the walk may meet has a plain form and comes back as itself.
    modules = [_MODEL, _WORDS, *_section_modules()]
    assert all(map(_holds_rules, modules)) and not _holds_rules("modetable.rules.load")
    classes = [
        kind
        for module in modules
        for kind in vars(importlib.import_module(module)).values()
        if isinstance(kind, type)
        and kind.__module__ == module
        and (attrs.has(kind) or issubclass(kind, enum.Enum))
    ]
    for kind in classes:
        assert _kind(kind.__module__, kind.__qualname__) is kind, kind
        for member in kind if issubclass(kind, enum.Enum) else ():
            assert _made(_plain(member)) is member, member
    print(f"{len(modules)} model modules, {len(classes)} classes of the rules")

    payloads = {}
    kept = cache._dumps, cache._loads, os.environ.copy()
    try:
        os.environ.pop(cache.CACHE_VARIABLE, None)
        for name, (dumps, loads) in _formats().items():
            cache._dumps, cache._loads = dumps, loads
            cache._entry.cache_clear()  # an entry read (or document) in another format
            cache._document.cache_clear()
            said: list[str] = []
            with tempfile.TemporaryDirectory(prefix="modetable-format-") as folder:
                os.environ[cache.FOLDER_VARIABLE] = folder
                cache.load_cached(file, data, parse, said.append)  # written
                back, deferred = cache.load_cached(file, data, parse, said.append)  # served
                entry = (Path(folder) / cache.entry_name(file)).read_bytes()
            payload = payloads[name] = entry[sum(map(len, cache._header(file, data))) :]
            assert isinstance(deferred, cache.Deferred), name  # from the entry, not parsed
            found = loads(payload)
            assert tuple(tuple(c) for c in found[3]) == charges, name
            assert same(back, rules) and back == rules, name  # the later sections read, by `loads`
            assert facts(deferred.read()) == facts(document), name
            assert not said, (name, said)  # nothing refused, nothing parsed again
            print(f"{name}: payload {len(payload):,} bytes, round trip equal")
    finally:
        cache._dumps, cache._loads = kept[0], kept[1]
        os.environ.clear()
        os.environ.update(kept[2])
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
