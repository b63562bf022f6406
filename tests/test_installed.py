"""The bot installed as a package (`pip install .`, not editable) works from an empty folder."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["pyproject.toml", "README.md", "LICENSE", "bot", "lessons", "storage", "alembic"]


def fresh_venv_with_the_bot(tmp_path: Path) -> Path:
    """A new venv with the bot installed from a copy of its sources; its bin folder.

    The libraries come from this test run's environment (a path line, which loads no editable
    install), so only the bot's own files are installed here, from a built wheel.
    """
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name)
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    bin_folder = target / "bin"
    python = bin_folder / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    (Path(purelib) / "libraries.pth").write_text(sysconfig.get_path("purelib") + "\n")
    # pip, from this environment, installs into the new venv it runs in; --ignore-installed
    # leaves this environment's own (editable) install of the bot alone.
    installed = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed", str(source)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert installed.returncode == 0, installed.stderr
    shutil.rmtree(source)
    return bin_folder


@pytest.mark.slow
def test_pip_install_then_db_upgrade_and_play_work_in_an_empty_folder(tmp_path: Path) -> None:
    bin_folder = fresh_venv_with_the_bot(tmp_path)
    folder = tmp_path / "empty"
    folder.mkdir()
    environment = {"PATH": f"{bin_folder}:/usr/bin:/bin", "HOME": str(tmp_path)}

    def lessonbot(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([bin_folder / "lessonbot", *arguments], cwd=folder, input=stdin,
                              env=environment, capture_output=True, text=True, timeout=180)

    where = lessonbot("--version")
    assert where.returncode == 0 and "version" in where.stdout, where.stderr
    upgraded = lessonbot("db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    assert "Database is at revision head." in upgraded.stdout
    played = lessonbot("play", "--classmates", "2", stdin="q\n")
    assert played.returncode == 0, played.stderr
    assert f"Stored as run 1 in {folder / 'lessonbot.db'}." in played.stdout
    with sqlite3.connect(folder / "lessonbot.db") as connection:
        assert connection.execute("select state from runs").fetchall() == [("stopped",)]
    imported = subprocess.run(
        [bin_folder / "python", "-c",
         "import storage.migrate as m; print(m.__file__); print(m.migrations_folder())"],
        cwd=folder, env=environment, capture_output=True, text=True, check=True,
    )
    module, migrations = imported.stdout.splitlines()
    assert module.startswith(str(tmp_path / "venv"))
    assert Path(migrations) == tmp_path / "venv" / "share" / "lessonbot" / "alembic"
    installed = sorted(path.name for path in (Path(migrations) / "versions").glob("*.py"))
    assert installed == sorted(path.name for path in (ROOT / "alembic" / "versions").glob("*.py"))
