"""A description of the machine a benchmark ran on, for reading its figures later."""

from __future__ import annotations

import os
import platform
import sqlite3
from pathlib import Path

import sqlalchemy

from benchmarks.databases import SERVER_URL_VARIABLE, server_url, server_version


def _proc_field(path: str, name: str) -> str:
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return ""
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip() == name:
            return value.strip()
    return ""


def cpu_model() -> str:
    """The CPU's model name, or the platform's processor string."""
    return _proc_field("/proc/cpuinfo", "model name") or platform.processor() or "unknown"


def memory_total() -> str:
    """The machine's memory in GiB, from /proc/meminfo."""
    kilobytes = _proc_field("/proc/meminfo", "MemTotal").removesuffix(" kB")
    return f"{int(kilobytes) / 1024**2:.1f} GiB" if kilobytes.isdigit() else "unknown"


def usable_cores() -> int:
    """CPU cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def postgres_version() -> str:
    """The PostgreSQL server benchmarked, or why none was."""
    url = server_url()
    if url is None:
        return f"not measured ({SERVER_URL_VARIABLE} is not set)"
    try:
        return server_version(url).split(" on ")[0]
    except Exception as error:
        return f"unknown ({type(error).__name__})"


def describe() -> dict[str, object]:
    """CPU, cores, memory, OS and the versions that shape the figures."""
    return {
        "cpu": cpu_model(),
        "cores": usable_cores(),
        "memory": memory_total(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "sqlalchemy": sqlalchemy.__version__,
        "postgresql": postgres_version(),
    }
