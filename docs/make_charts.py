"""Write each kind of chart the channel sees, for an example tally, as PNGs in docs/charts/.

Run from the repository root: `PYTHONPATH=. python docs/make_charts.py`.
"""

from __future__ import annotations

from pathlib import Path

from bot.charts import chart_png
from tests.charts.examples import example_charts

OUT = Path(__file__).parent / "charts"


def main() -> None:
    """Draw every example chart and write it as docs/charts/<kind>.png."""
    OUT.mkdir(exist_ok=True)
    for name, chart in example_charts().items():
        path = OUT / f"{name}.png"
        path.write_bytes(chart_png(chart))
        print(f"{path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
