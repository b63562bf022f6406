"""Fakes of Discord and Slack on 127.0.0.1, and the helpers that run the real bot against them.

Shared by the tests and the benchmarks; not part of the installed bot.
"""
