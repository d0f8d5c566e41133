"""report.html: one page, its three plots inline, every check named."""

from __future__ import annotations

from service.baccarat.tables.rules import TABLES
from service.certification.page import page
from service.certification.report import Inputs, certify
from service.certification.workers import InProcess


def test_the_page_holds_its_plots_and_every_check():
    report = certify(Inputs(TABLES["standard"].rules, "standard", {}, "p", 2_000, 60), InProcess())
    html = page(report)
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<svg") == 3
    for check in report["checks"]:
        assert check["check"] in html
    assert f"<code>{report['engine']['digest']}</code>" in html  # the build the lab certifies
    assert page(report) == html  # no date or random id in the plots
