"""Plain data every layer shares: stored records, render models and the errors members see.

It imports nothing from the engine, storage or any platform, so all of them can depend on it.
"""
