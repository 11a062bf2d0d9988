#!/usr/bin/env python3
"""A UCI engine that misbehaves in one way, for tests/match_cli.rs.

    bad_engine.py MODE

illegal: plays a1h8 (illegal in any chess position reachable early); none: answers
`bestmove (none)`; silent: never answers `go`; crash: exits on `go`, saying "boom" on
standard error; mute: never answers `uci`; log FILE: offers the variants chess and
capablanca, writes every line it is sent to FILE, and plays a1h8.
"""
import sys

mode = sys.argv[1]
log = open(sys.argv[2], "w") if mode == "log" else None


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if log:
        log.write(line)
        log.flush()
    if not words:
        continue
    if words[0] == "uci" and mode != "mute":
        say("id name bad " + mode)
        if log:
            say("option name UCI_Variant type combo default chess var chess var capablanca")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go":
        if mode in ("illegal", "log"):
            say("info depth 1 score cp 0")
            say("bestmove a1h8")
        elif mode == "none":
            say("bestmove (none)")
        elif mode == "crash":
            sys.stderr.write("boom\n")
            sys.stderr.flush()
            sys.exit(3)
    elif words[0] == "quit":
        break
