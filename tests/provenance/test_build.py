"""The running build: its engine names the digest of the installed files,
and a claim that differs from them stops the start in one line."""

from __future__ import annotations

import logging
from importlib.resources import files

import pytest

from service import __version__
from service.app import create_app
from service.provenance import build
from service.provenance.build import NotTheBuild, check, engine, installed
from service.provenance.manifest import manifest


@pytest.fixture
def claiming(monkeypatch):
    """Make the build claim a digest (a source tree claims none), and check afresh."""

    def claim(digest: str | None) -> None:
        monkeypatch.setattr(build, "claimed", lambda: digest)
        check.cache_clear()

    yield claim
    check.cache_clear()


def test_the_engine_is_named_with_the_digest_of_the_installed_files():
    assert engine() == {
        "name": "baccarat-service",
        "version": __version__,
        "digest": manifest(files("service")).digest,
    }
    assert engine()["digest"] == installed().digest
    assert engine() is engine()  # computed once


def test_a_source_tree_claims_none_and_says_so_once(claiming, caplog):
    claiming(None)
    with caplog.at_level(logging.WARNING, logger=build.__name__):
        check()
        check()
    [record] = caplog.records
    assert "records no digest" in record.getMessage()
    assert engine()["digest"] in record.getMessage()


def test_a_build_whose_files_are_the_claimed_ones_starts(claiming, caplog):
    claiming(engine()["digest"])
    with caplog.at_level(logging.WARNING, logger=build.__name__):
        check()
        assert create_app({"TESTING": True}).test_client().get("/").get_json()["digest"] == engine()["digest"]
    assert [record for record in caplog.records if record.name == build.__name__] == []


def test_a_build_whose_files_differ_from_its_claim_never_serves(claiming):
    claiming("0" * 64)
    with pytest.raises(NotTheBuild) as refused:
        check()
    message = str(refused.value)
    assert "\n" not in message
    assert engine()["digest"] in message
    assert "0" * 64 in message
    with pytest.raises(NotTheBuild):
        create_app({"TESTING": True})
