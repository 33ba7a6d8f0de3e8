"""The layers of docs/DESIGN.md, as import-linter's contracts in pyproject.toml:
`account | bench > conversations > memories > memoryhub` (an app imports only the layers below
it, directly or through any chain of imports, function-local ones included), and only
`memoryhub.llm` imports the Anthropic SDK."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from importlinter import cli

ROOT = Path(__file__).resolve().parent.parent


def test_every_import_contract_of_pyproject_is_kept(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    exit_code = cli.lint_imports(
        config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True
    )
    report = capsys.readouterr().out

    assert exit_code == cli.EXIT_STATUS_SUCCESS, report
    assert "2 kept, 0 broken" in report


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("memoryhub/health.py", "memories.models"),  # core reaching up into an app
        ("memories/selectors/browse.py", "conversations.selectors"),  # memories -> chat
        ("conversations/selectors.py", "account.links"),  # an app -> the account app
        ("bench/benchgen.py", "account.selectors"),  # the harness -> account: siblings
        ("conversations/search.py", "anthropic"),  # the SDK outside memoryhub.llm
    ],
)
def test_the_contracts_catch_an_import_against_the_layers(tmp_path, importer, imported):
    """Each contract breaks when one such import is added (a copy of the tree is linted, in
    a process of its own, so the tree already imported here is not the one analysed)."""
    for package in ("account", "bench", "conversations", "memories", "memoryhub"):
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "migrations"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with (tmp_path / importer).open("a") as module:
        module.write(f"\n\nimport {imported}  # noqa\n")

    lint = subprocess.run(
        [sys.executable, "-c", LINT],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "1 kept, 1 broken" in lint.stdout


LINT = "import sys; from importlinter import cli; sys.exit(cli.lint_imports(no_cache=True))"
