"""Benchmarks of the lesson bot: run them all with ``python -m benchmarks`` (``make bench``)."""
