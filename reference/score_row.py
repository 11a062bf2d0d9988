#!/usr/bin/env python3
"""One Markdown table row from a `varsand match --json` report, for the reference
scripts (match_table.sh, strength_table.sh, tuned_table.sh):

    reference/score_row.py REPORT.json CELL...

prints `| CELL... | games | wins / draws / losses | points/games | Elo [95%] |`, the
score that of the match's first engine. A cell written `{game}` is the report's game.
"""

import json
import sys


def signed(x):
    return "+inf" if x is None else f"{x + 0.0:+.0f}"


def elo_text(score, elo):
    """The Elo difference with its interval, or ±inf where one side took every point."""
    if elo["diff"] is None:
        return "-inf" if score["wins"] == 0 else "+inf"
    low = "-inf" if elo["low"] is None else signed(elo["low"])
    high = "+inf" if elo["high"] is None else signed(elo["high"])
    return f"{signed(elo['diff'])} [{low}, {high}]"


def main(path, cells):
    report = json.load(open(path))
    s, n = report["score"], report["games"]
    points = s["wins"] + s["draws"] / 2
    cells = [report.get("game", "") if c == "{game}" else c for c in cells]
    row = cells + [
        str(n),
        f"{s['wins']} / {s['draws']} / {s['losses']}",
        f"{points:g}/{n}",
        elo_text(s, report["elo"]),
    ]
    print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
