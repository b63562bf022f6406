"""The files a release carries: the license pyproject names, a changelog, and the version."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

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


def locked_pins(lock: str) -> dict[str, tuple[str, str]]:
    """Each direct dependency the lock pins for pyproject: name -> (version, marker)."""
    pins: dict[str, tuple[str, str]] = {}
    for block in re.split(r"\n(?=[A-Za-z])", lock):
        head, *_ = block.splitlines()
        if "rlvr-lessonbot (pyproject.toml)" not in block or "==" not in head:
            continue
        requirement = Requirement(head.strip())
        (pin,) = requirement.specifier
        pins[canonicalize_name(requirement.name)] = (pin.version, str(requirement.marker or ""))
    return pins


def lock_drift(dependencies: list[str], lock: str) -> set[str]:
    """Dependencies the lock lacks or pins outside pyproject's range, and pins pyproject lacks."""
    pins = locked_pins(lock)
    wanted = {canonicalize_name(Requirement(d).name): Requirement(d) for d in dependencies}
    drift = {f"not wanted: {name}" for name in pins.keys() - wanted.keys()}
    for name, requirement in wanted.items():
        if name not in pins:
            drift.add(f"not locked: {name}")
        elif not requirement.specifier.contains(pins[name][0], prereleases=True):
            drift.add(f"out of range: {name}=={pins[name][0]}")
    return drift


def test_the_lock_file_pins_every_dependency_of_pyproject_in_its_range() -> None:
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert "uv pip compile pyproject.toml" in lock
    assert lock_drift(PROJECT["dependencies"], lock) == set()
    pinned = [line for line in lock.splitlines() if line and not line.startswith(("#", " "))]
    assert all("==" in line for line in pinned)


def test_the_lock_check_fails_when_pyproject_moves_on() -> None:
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    moved = [d for d in PROJECT["dependencies"] if not d.startswith("orjson")]
    moved = [d.replace("sympy>=1.12,<2", "sympy>=2") for d in moved] + ["rich>=13"]
    assert lock_drift(moved, lock) == {
        "not wanted: orjson", "not locked: rich", f"out of range: sympy=={sympy_pin(lock)}"
    }


def sympy_pin(lock: str) -> str:
    """The version of sympy the lock pins."""
    return locked_pins(lock)["sympy"][0]


def dry_run(target: str, venv: Path) -> str:
    """The commands `make TARGET` would run for a venv that does not exist yet."""
    done = subprocess.run(["make", "--dry-run", target, f"VENV={venv}"], capture_output=True,
                          text=True, check=True, cwd=ROOT)
    return done.stdout


def test_make_lock_regenerates_the_lock_from_pyproject(tmp_path: Path) -> None:
    commands = dry_run("lock", tmp_path / "venv")
    assert "uv pip compile pyproject.toml" in commands
    assert "--output-file requirements.lock" in commands


def test_make_play_installs_only_what_play_needs_and_says_so_once(tmp_path: Path) -> None:
    commands = dry_run("play", tmp_path / "venv")
    installs = [line for line in commands.splitlines() if "pip install" in line]
    assert any(line.split("pip install --quiet ")[1].startswith("-e . ") for line in installs)
    assert "[test" not in commands
    assert commands.count('echo "installing') == 1
    test_commands = dry_run("test", tmp_path / "venv")
    assert "-e '.[test]'" in test_commands
