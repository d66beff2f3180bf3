"""What a move from MultiNode to OMENative breaks, found in a spec."""

from __future__ import annotations

import io

import yaml

from modetable.audit.moves import find_move, hit_message, scan
from modetable.audit.progress import Progress
from modetable.errors import Location
from modetable.parsing.yamlio import load_documents

SPEC = """\
engineConfig:
  leader:
    runner:
      command: [python3, --nccl-init, "$(LWS_LEADER_ADDRESS):5000", --nnodes, "$(LWS_GROUP_SIZE)"]
      env:
        - name: RANK
          value: $(LWS_WORKER_INDEX)
        - name: MY_LWS_THING
          value: "$(XLWS_NOT_IT)"
    labels:
      leaderworkerset.sigs.k8s.io/worker-index: "0"
      leaderworkerset.sigs.k8s.io/exclusive-topology: rack
routerConfig:
  runner:
    command: [--selector, "component=engine leaderworkerset.sigs.k8s.io/worker-index=0"]
"""


def _spec():
    return load_documents(SPEC, "rt.yaml")[0][0]


def test_every_name_the_move_breaks_with_its_place_and_replacement(v13):
    move = find_move(v13, "MultiNode", "OMENative")
    hits = scan(move, _spec(), "spec", Location("rt.yaml"))
    assert [(h.what, h.name, h.replacement, h.path, str(h.location)) for h in hits] == [
        (
            "variable",
            "LWS_LEADER_ADDRESS",
            "OME_LEADER_ADDRESS",
            "spec.engineConfig.leader.runner.command[2]",
            "rt.yaml:4:39",
        ),
        (
            "variable",
            "LWS_GROUP_SIZE",
            "OME_INSTANCE_POD_COUNT",
            "spec.engineConfig.leader.runner.command[4]",
            "rt.yaml:4:79",
        ),
        (
            "variable",
            "LWS_WORKER_INDEX",
            "OME_INSTANCE_POD_RANK",
            "spec.engineConfig.leader.runner.env[0].value",
            "rt.yaml:7:18",
        ),
        (
            "label",
            "leaderworkerset.sigs.k8s.io/worker-index=0",
            "ome.io/runner=leader",
            "spec.engineConfig.leader.labels[leaderworkerset.sigs.k8s.io/worker-index]",
            "rt.yaml:11:49",
        ),
        (
            "label",
            "leaderworkerset.sigs.k8s.io/exclusive-topology",
            None,
            "spec.engineConfig.leader.labels[leaderworkerset.sigs.k8s.io/exclusive-topology]",
            "rt.yaml:12:55",
        ),
        (
            "label",
            "leaderworkerset.sigs.k8s.io/worker-index=0",
            "ome.io/runner=leader",
            "spec.routerConfig.runner.command[1]",
            "rt.yaml:15:27",
        ),
    ]


def test_messages_say_what_to_use_or_to_remove(v13):
    move = find_move(v13, "MultiNode", "OMENative")
    hits = scan(move, _spec(), "spec", Location("rt.yaml"))
    assert hit_message(v13, move, hits[1], "ClusterServingRuntime rt") == (
        "ClusterServingRuntime rt spec.engineConfig.leader.runner.command[4] uses the variable "
        "LWS_GROUP_SIZE, which OMENative does not set: use OME_INSTANCE_POD_COUNT"
    )
    assert hit_message(v13, move, hits[4], "ClusterServingRuntime rt") == (
        "ClusterServingRuntime rt "
        "spec.engineConfig.leader.labels[leaderworkerset.sigs.k8s.io/exclusive-topology] "
        "uses the label leaderworkerset.sigs.k8s.io/exclusive-topology, which OMENative does "
        "not set: remove it"
    )


def test_a_spec_with_no_such_names_needs_no_change(v13):
    move = find_move(v13, "MultiNode", "OMENative")
    spec = yaml.safe_load("engineConfig: {runner: {command: ['$(OME_LEADER_ADDRESS)']}}")
    assert scan(move, spec, "spec", Location("x")) == ()
    assert find_move(v13, "OMENative", "MultiNode") is None


# --- the progress bar --------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_no_bar_when_stderr_is_not_a_terminal():
    stream, clock = io.StringIO(), _Clock()
    progress = Progress(stream, 10, "auditing", clock=clock)
    clock.now += 5
    progress.advance(5)
    progress.close()
    assert stream.getvalue() == ""


def test_no_bar_for_short_work_on_a_terminal():
    stream, clock = _Terminal(), _Clock()
    progress = Progress(stream, 10, "auditing", clock=clock)
    progress.advance(10)
    progress.close()
    assert stream.getvalue() == ""


def test_long_work_on_a_terminal_draws_then_wipes_the_bar():
    stream, clock = _Terminal(), _Clock()
    progress = Progress(stream, 4, "auditing", clock=clock)
    clock.now += 1
    progress.advance()
    progress.advance()  # too soon to redraw
    clock.now += 1
    progress.advance()
    drawn = stream.getvalue()
    assert drawn == (
        "\rauditing [#######.......................] 1/4 (25%)"
        "\rauditing [######################........] 3/4 (75%)"
    )
    progress.close()
    width = len("auditing [######################........] 3/4 (75%)")
    assert stream.getvalue() == drawn + "\r" + " " * width + "\r"
