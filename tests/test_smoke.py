"""The bundled example end to end, as the README runs it."""

from conftest import EXAMPLES, run_cli


def test_match_on_the_page_example_rejects_the_multinode_runtime():
    run = run_cli(
        "match", "--isvc", str(EXAMPLES / "inference-service.yaml"), str(EXAMPLES), "-o", "json"
    )
    assert run.code == 0, run.err
    by_name = {r["name"]: r for r in run.json()["runtimes"]}
    assert by_name["srt-llama-3-3-70b-instruct-multinode"]["reason"] == (
        "runtime engine deployment mode MultiNode does not match "
        "requested engine deployment mode OMENative"
    )
    assert by_name["srt-llama-3-3-70b-instruct"]["result"] == "pass"
