"""`modetable` command line: argparse, output formats and exit codes only.

Exit codes: 0 done, 1 a negative verdict, 2 bad usage or input, 3 a bug.
Commands live one per module; only the one named on the command line is
imported, so `modetable --version` and each command start fast.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from modetable.__about__ import __version__
from modetable.errors import ErrorList, ModetableError
from modetable.output import stops
from modetable.output.stops import Terminated

__all__ = [
    "COMMANDS",
    "DEBUG_VARIABLE",
    "ENDED_OPTIONS",
    "END_OF_OPTIONS",
    "EXAMPLES",
    "EXIT_BUG",
    "EXIT_ERROR",
    "EXIT_NEGATIVE",
    "EXIT_OK",
    "UsageError",
    "build_parser",
    "chosen_command",
    "main",
]

# command name → (module under modetable.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "effective": ("effective", "each component's running mode and the rule that set it"),
    "match": ("match", "every runtime against an InferenceService on the mode rule alone"),
    "admit": ("admit", "the webhook's admission verdict on an InferenceService"),
    "select": ("select", "the runtime OME uses for an InferenceService, or why none"),
    "explain": ("explain", "every runtime against a model or InferenceService, and why"),
    "audit": ("audit", "every InferenceService of a fleet, or what an upgrade changes for each"),
    "docs": ("docs", "rewrite the docs' generated regions from the rules, or --check them"),
    "rules": ("rules", "for policy authors: check the rules file, print its schema, diff versions"),
    "completion": ("completion", "a shell completion script (bash, zsh, fish)"),
}

EXAMPLES = """\
examples:
  modetable select --isvc llama-demo/llama-3-70b manifests/
  modetable explain --isvc llama-3-70b -n llama-demo manifests/ --why srt-llama
  modetable audit manifests/ -o github --fail-on warning
  kubectl get inferenceservices,servingruntimes,clusterservingruntimes,basemodels,\\
    clusterbasemodels -A -o yaml | modetable audit -
  modetable COMMAND --help    (each command's options and examples)
"""

RULES_HELP = (
    "rules file (default: $MODETABLE_RULES, else rules/modes.yaml here when it exists, "
    "else the bundled one)"
)

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_ERROR = 2
EXIT_BUG = 3  # an unexpected exception: a bug in modetable, not a verdict
DEBUG_VARIABLE = "MODETABLE_DEBUG"


class UsageError(ModetableError):
    pass


# The signals that unwind a command: Ctrl-C, SIGTERM, and SIGHUP (its terminal
# closed) where the platform has it.
_UNWINDING = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def _signals_unwind() -> Iterator[None]:
    """While a command runs, SIGINT, SIGTERM and SIGHUP unwind it (a write in
    progress removes its temporary files) instead of killing the process where
    it stands, and a stop swallowed on the way is still honoured (`stops`).
    A signal ignored when modetable started (`nohup`, a shell's `&`) stays
    ignored; SIGINT is taken over only from Python's own handler."""
    previous: dict[int, Any] = {}
    stops.forget()
    try:
        for signum in _UNWINDING:
            current = signal.getsignal(signum)
            if current is signal.SIG_IGN:
                continue
            if signum == signal.SIGINT and current is not signal.default_int_handler:
                continue
            previous[signum] = signal.signal(signum, stops.ask)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        stops.forget()


# The end of the options: every word after it is an operand (a path), whatever it
# looks like (`-nzz.yaml`, `--namespace=x.yaml`, another `--`; `-` is standard input).
END_OF_OPTIONS = "--"
# Set on the parsed arguments when the command line ended its options with `--`.
ENDED_OPTIONS = "ended_options"


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line, as every modetable error is,
    and whose list of operands (MANIFESTS) takes every word after `--`."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every option added (to check its
        # metavar), and the formatter imports shutil (with zlib, bz2, lzma) for
        # the terminal's width: given here, the width is the same without it.
        return self.formatter_class(prog=self.prog, width=_columns() - 2)

    def parse_known_args(  # type: ignore[override]
        self, args: list[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        operands = _operands_of(self)
        if args is None or operands is None or END_OF_OPTIONS not in args:
            return super().parse_known_args(args, namespace)
        # argparse is given only the words before `--`: it reads `--` itself right
        # only when no option stands between the operands before it and those after
        # (`a.yaml -n ns -- b.yaml` was "unrecognized arguments").
        at = args.index(END_OF_OPTIONS)
        parsed, extras = super().parse_known_args(args[:at], namespace)
        before = getattr(parsed, operands.dest, None) or []
        setattr(parsed, operands.dest, [*before, *args[at + 1 :]])
        setattr(parsed, ENDED_OPTIONS, True)
        return parsed, extras


def _columns() -> int:
    """What `shutil.get_terminal_size().columns` gives: $COLUMNS when a positive
    number, else the width of the terminal on standard output, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def _operands_of(parser: argparse.ArgumentParser) -> argparse.Action | None:
    """The command's list of operands (a positional taking any number of words),
    for a command that has one and no subcommands."""
    positionals = [action for action in parser._actions if not action.option_strings]
    if len(positionals) == 1 and positionals[0].nargs == argparse.ZERO_OR_MORE:
        return positionals[0]
    return None


def _global_options(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    default = argparse.SUPPRESS if suppress else None
    parser.add_argument(
        "--rules",
        metavar="FILE",
        default=default,
        help=RULES_HELP,
    )
    parser.add_argument(
        "--ome-version",
        metavar="V",
        default=default,
        help="the OME release whose rules apply, such as v1.3.1 (default: "
        "$MODETABLE_OME_VERSION, else the rules file's default_version)",
    )


def chosen_command(argv: list[str]) -> str | None:
    """The command `argv` names, skipping the global options and their values."""
    takes_value = {"--rules", "--ome-version"}
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in takes_value:
            skip = True
        elif token in COMMANDS:
            return token
        elif not token.startswith("-"):
            return None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen command's options are built (all when `argv` is None)."""
    wanted = chosen_command(argv) if argv is not None else None
    parser = _Parser(
        prog="modetable",
        description="OME's runtime deployment-mode rules, offline: decide, explain, document.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"modetable {__version__}")
    _global_options(parser, suppress=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for name, (module, help_text) in COMMANDS.items():
        command = commands.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(module=module)
        if argv is None or name == wanted:
            _global_options(command, suppress=True)
            loaded = importlib.import_module(f"modetable.cli.{module}")
            loaded.add_arguments(command)
            # Examples in --help, kept as written.
            command.epilog = getattr(loaded, "EXAMPLES", None)
            command.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


@functools.cache
def _parser_for(command: str | None) -> argparse.ArgumentParser:
    """The parser for a command line choosing `command` (None: none chosen),
    built once per process: a program or test calling `main` again and again
    pays argparse's building (and its gettext lookups, about 5 ms) once per
    command. Parsing leaves a parser as it was; its list defaults are never
    changed in place by the commands."""
    return build_parser([command] if command is not None else [])


def main(
    argv: list[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run one command; returns its exit code and never raises for bad input."""
    from modetable.cli.streams import Io, Output

    argv = list(sys.argv[1:] if argv is None else argv)
    real_stdout = stdout is None
    if real_stdout:
        _show_unencodable(sys.stdout)
    if stderr is None:
        _show_unencodable(sys.stderr)
    io = Io(
        # A stream closed before the start (`<&-`, `>&-`) is None in sys.
        stdin=stdin if stdin is not None else sys.stdin,
        stdout=Output(sys.stdout if real_stdout else stdout, "standard output"),
        stderr=Output(stderr if stderr is not None else sys.stderr, "standard error", quiet=True),
    )
    with _signals_unwind():
        code = _run(argv, io)
    if real_stdout and sys.stdout is not None:
        _flush_or_discard(sys.stdout)
    return code


def _run(argv: list[str], io: Any) -> int:
    from modetable.text.shown import escape

    def error(line: str) -> None:
        io.stderr.write(f"modetable: {escape(line)}\n")

    try:
        code = _command(argv, io)
        # The last of the output reaches the system here: a refusal is the run's error.
        io.stdout.flush()
        stops.honour()  # a signal whose stop a finalizer swallowed still stops the run
        return code
    except ModetableError as exc:
        report_error(exc, io)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader closed the pipe (`| head`): it took what it wanted.
        return EXIT_OK
    except KeyboardInterrupt:
        error("interrupted")
        return 130
    except Terminated as stopped:
        hung_up = stopped.signum == getattr(signal, "SIGHUP", None)
        error("hung up" if hung_up else "terminated")
        return 128 + stopped.signum
    except MemoryError:
        error("error: out of memory (docs/limits.md lists the limits)")
        return EXIT_ERROR
    except Exception as exc:
        # The last resort: a bug still ends in one line, never as a verdict.
        # MODETABLE_DEBUG=1 lets it through with its traceback (the fuzz tests do).
        if os.environ.get(DEBUG_VARIABLE):
            raise
        error(
            f"internal error: {type(exc).__name__}: {exc} "
            f"(a bug in modetable; {DEBUG_VARIABLE}=1 shows the traceback)"
        )
        return EXIT_BUG


def _command(argv: list[str], io: Any) -> int:
    """Parse `argv` and run its command; its exit code."""
    try:
        with contextlib.redirect_stdout(io.stdout):  # --help and --version
            args = _parser_for(chosen_command(argv)).parse_args(argv)
        module = importlib.import_module(f"modetable.cli.{args.module}")
        from modetable.parsing.yamlio import one_run

        try:
            with one_run():
                return int(module.run(args, io))
        finally:
            gc.unfreeze()  # what loading froze (cli.common) is the collector's again
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else EXIT_OK


def report_error(exc: ModetableError, io: Any) -> None:
    """Bad input as the user sees it: one line per problem, what the inputs hold escaped."""
    from modetable.text.shown import escape

    for error in exc.errors if isinstance(exc, ErrorList) else [exc]:
        io.stderr.write(f"modetable: error: {escape(str(error))}\n")


def _show_unencodable(stream: TextIO | None) -> None:
    """A character the stream's encoding lacks is written as an escape, never an error."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="backslashreplace")


def _flush_or_discard(stream: TextIO) -> None:
    """Flush what is left; when the system refuses it (a closed pipe, a full disk,
    already reported), send it to the null device, or Python's own flush at exit
    would print a traceback."""
    try:
        stream.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)
