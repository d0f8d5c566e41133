"""A missing tool skips its tests with a reason, or fails them when CI requires every tool."""

import pytest

from . import tools


@pytest.fixture
def without_the_flag(monkeypatch):
    monkeypatch.delenv(tools.REQUIRE_ALL_TOOLS, raising=False)


@pytest.fixture
def with_the_flag(monkeypatch):
    monkeypatch.setenv(tools.REQUIRE_ALL_TOOLS, "1")


def test_a_missing_tool_skips_saying_how_to_install_it(without_the_flag):
    with pytest.raises(pytest.skip.Exception, match=r"no-such-tool is not available: apt-get install it"):
        tools.executable("no-such-tool", "apt-get install it")


def test_a_missing_tool_fails_when_every_tool_is_required(with_the_flag):
    with pytest.raises(pytest.fail.Exception, match=r"BACCARAT_REQUIRE_ALL_TOOLS=1 requires it"):
        tools.executable("no-such-tool", "apt-get install it")


@pytest.mark.parametrize("value", ["0", "", "yes", "true"])
def test_only_1_requires_every_tool(monkeypatch, value):
    monkeypatch.setenv(tools.REQUIRE_ALL_TOOLS, value)
    assert tools.all_tools_required() is False


def test_a_tool_on_path_is_found(without_the_flag):
    assert tools.executable("sh", "apt-get install dash").endswith("/sh")


def test_a_tool_outside_path_is_found_at_its_usual_place(without_the_flag, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    program = tmp_path / "elsewhere"
    program.write_text("#!/bin/sh\n")
    assert tools.executable("elsewhere-tool", "install it", str(program)) == str(program)
