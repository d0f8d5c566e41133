"""openapi.yaml passes two linters that integrators run on a contract:
Redocly's recommended ruleset and Spectral's OpenAPI ruleset, with no
finding at all. A rule switched off is in redocly.yaml or .spectral.yaml
with its reason. Both tools are npm packages pinned in package.json
(tests/tools.py: skipped without Node.js unless every tool is required)."""

from __future__ import annotations

import json
import os
import subprocess

from . import tools

#: No telemetry, no update check, no banner: the tools run offline and quiet.
QUIET = {
    "REDOCLY_TELEMETRY": "off",
    "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
    "REDOCLY_SUPPRESS_NOTIFICATIONS": "true",
    "SCARF_ANALYTICS": "false",
}


def run(command: list[str | os.PathLike[str]]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=tools.ROOT, env={**os.environ, **QUIET}, capture_output=True, text=True, timeout=300
    )


def test_redocly_recommended_ruleset_finds_nothing():
    node, cli = tools.npm_package("@redocly/cli", "bin/cli.js")
    result = run([node, cli, "lint", "openapi.yaml", "--config=redocly.yaml", "--format=json"])
    report = json.loads(result.stdout)
    assert report["problems"] == [], json.dumps(report["problems"], indent=1)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}
    assert result.returncode == 0, result.stderr


def test_spectral_oas_ruleset_finds_nothing():
    node, cli = tools.npm_package("@stoplight/spectral-cli", "dist/index.js")
    result = run(
        [
            node,
            cli,
            "lint",
            "openapi.yaml",
            "--ruleset=.spectral.yaml",
            "--format=json",
            "--quiet",
            "--fail-severity=hint",
        ]
    )
    assert json.loads(result.stdout) == [], result.stdout
    assert result.returncode == 0, result.stderr
