"""Redocly CLI's recommended rules on the committed OpenAPI document (which
``test_openapi.py`` keeps equal to what the service serves): no error, and no warning but those
that say nothing wrong of the document.

The linter is pinned in ``openapi/lint`` (its ``package.json`` and lock file; ``npm ci`` there
when its ``node_modules`` is missing or older than the lock, then it runs offline). Without node
and npm the test is skipped locally, with the reason, and fails under CI=true.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests import npm

ROOT = Path(__file__).resolve().parents[2]
LINT = ROOT / "openapi" / "lint"

# Warnings of the recommended rules that are no fault of the document, each with the reason.
NOT_FAULTS = {
    ("operation-4xx-response", "#/paths/~1healthz/get/responses"):
        "no request of it is a client's error: 200 while the process runs",
    ("operation-4xx-response", "#/paths/~1readyz/get/responses"):
        "no request of it is a client's error: 200, or 503 when the store cannot be written",
    ("operation-4xx-response", "#/paths/~1metrics/get/responses"):
        "no request of it is a client's error: the metrics text, always",
    ("operation-4xx-response", "#/paths/~1v1~1keys/get/responses"):
        "no request of it is a client's error: the keys, always",
    ("no-unused-components", "#/components/schemas/GameEvent"):
        "the event stream's `x-sse-events` refers to it: a $ref in an extension, which the rule "
        "does not follow (OpenAPI 3.1 has no place for the schema of each event of a stream)",
}  # fmt: skip


def test_redocly_s_recommended_rules_find_no_fault_in_the_document() -> None:
    node = npm.installed(LINT)
    result = subprocess.run(
        [node, npm.tool(LINT, "redocly"), "lint", "--config", "redocly.yaml",
         "--format", "json", "../openapi.json"],
        cwd=LINT, capture_output=True, text=True, timeout=180, check=False,
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_NOTIFICATIONS": "true"},
    )  # fmt: skip
    assert result.stdout.strip(), result.stderr[-3000:]
    report = json.loads(result.stdout)
    found = [
        (problem["severity"], problem["ruleId"], problem["location"][0]["pointer"],
         problem["message"])
        for problem in report["problems"]
    ]  # fmt: skip
    errors = [problem for problem in found if problem[0] == "error"]
    assert errors == []
    faults = [problem for problem in found if (problem[1], problem[2]) not in NOT_FAULTS]
    assert faults == []
    assert result.returncode == 0, result.stderr[-3000:]
