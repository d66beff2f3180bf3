"""`modetable completion bash|zsh|fish`: a shell completion script, generated
from the argparse parser itself (shtab), so it offers exactly the commands and
options modetable has."""

from __future__ import annotations

import argparse

from modetable.cli.streams import Io

__all__ = ["EXAMPLES", "SHELLS", "add_arguments", "run"]

SHELLS = ("bash", "zsh", "fish")
# Options and arguments that name files or folders: the shell completes paths.
_PATHS = {"manifests", "rules", "isvc", "docs_dir", "out", "file", "against", "within"}

EXAMPLES = """\
examples:
  modetable completion bash > /etc/bash_completion.d/modetable
  modetable completion zsh > "${fpath[1]}/_modetable"
  modetable completion fish > ~/.config/fish/completions/modetable.fish
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def run(args: argparse.Namespace, io: Io) -> int:
    import shtab

    from modetable.cli import build_parser

    parser = build_parser(None)
    _mark_paths(parser, shtab.FILE)
    script = shtab.complete(parser, shell=args.shell)
    io.stdout.write(script if script.endswith("\n") else script + "\n")
    return 0


def _mark_paths(parser: argparse.ArgumentParser, files: dict[str, str]) -> None:
    """Tell shtab which arguments take a path, in every command."""
    for action in parser._actions:
        if action.dest in _PATHS:
            action.complete = files  # type: ignore[attr-defined]
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_paths(sub, files)
