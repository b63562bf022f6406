"""The files a release carries: the license pyproject names, a changelog, and the version."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_license_file_is_the_license_pyproject_declares() -> None:
    assert PROJECT["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_the_changelog_keeps_a_changelog_with_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert headings[0] == "Unreleased"
    assert PROJECT["version"] in headings
    assert "keepachangelog.com" in text


def test_python_dash_m_bot_prints_the_version() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "--version"], capture_output=True,
                          text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == f"lessonbot, version {PROJECT['version']}"


def test_the_lessonbot_command_prints_the_version() -> None:
    script = Path(sys.executable).parent / "lessonbot"
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"lessonbot, version {PROJECT['version']}"
