"""The process around the lesson: what keeps a long-running bot up, apart from any platform.

`runtime.py` wires the database, migrations, checker and lessons into one ready engine, and
freezes the objects alive after startup out of garbage collection; `upkeep.py` runs its
background chores (the lesson timers, pruning old delivery claims, the health heartbeat);
`database_watch.py` stops the bot when its SQLite file vanishes or is replaced;
`event_loop.py` runs it on uvloop where installed; `log_redaction.py` keeps secrets out of
its logs.
"""
