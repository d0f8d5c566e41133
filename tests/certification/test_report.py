"""report.json: what a run names, and what it leaves out of its counts."""

from __future__ import annotations

import json

from service import __version__
from service.baccarat.tables.rules import TABLES
from service.certification.report import Inputs, certify, deterministic_part, report_bytes
from service.certification.workers import InProcess


def test_a_run_names_its_engine_rules_seed_and_shoes_and_is_json():
    inputs = Inputs(TABLES["ez"].rules, "ez", {}, "r", 1_000, 100)
    report = certify(inputs, InProcess())
    assert report["engine"] == {"name": "baccarat-service", "version": __version__}
    assert report["inputs"]["rules_id"] == TABLES["ez"].rules.id
    assert report["inputs"]["seed"]["nonces"] == [0, inputs.shoes - 1]
    assert report["simulation"]["shoes"] == inputs.shoes
    assert set(report) - set(deterministic_part(report)) == {"run"}
    assert json.loads(report_bytes(report)) == json.loads(json.dumps(report))
