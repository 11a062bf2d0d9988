"""The web board in a real browser: python3 play_and_follow.py URL RULE_FILE

Clicks e2 then e4 on a chess board and sees the move made and the board redrawn; an
illegal click gets its reason; then rewrites the rule file on disk and sees the page
follow: a new name, the diagnostics while the file does not check (the game kept),
the game back once it is fixed. Run by tests/web.rs against `varsand serve`."""

import sys
import time

from browser import click, css, piece, shown, square, start, stop, text, wait_for


def main(url, rule_file):
    began = time.monotonic()
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "e2") is not None)
        assert "white to move" in text(driver, "status"), text(driver, "status")

        # e2, then e4.
        click(driver, piece(driver, "e2"))
        wait_for(driver, "the targets of e2", lambda d: len(css(d, "#board .vs-target")) == 2)
        click(driver, square(driver, "e4"))
        wait_for(
            driver,
            "the move e2e4 on the board and in the list",
            lambda d: piece(d, "e2") is None
            and piece(d, "e4") is not None
            and piece(d, "e4").get_attribute("data-piece") == "P"
            and "e2e4" in text(d, "history"),
        )
        assert "black to move" in text(driver, "status"), text(driver, "status")
        print("clicked e2 then e4: the pawn stands on e4, and the list shows e2e4")

        # An illegal click: the server's reason is shown, the board unchanged.
        click(driver, piece(driver, "g8"))
        click(driver, square(driver, "g5"))
        wait_for(driver, "the reason g8g5 is illegal", lambda d: "illegal" in text(d, "message"))
        print("g8 then g5 is refused:", text(driver, "message"))
        assert piece(driver, "g8") is not None and piece(driver, "e4") is not None

        original = open(rule_file, encoding="utf-8").read()
        renamed = original.replace('game "Chess"', 'game "Chess, edited"', 1)
        assert renamed != original, "the rule file has no game line to edit"
        write(rule_file, renamed)
        wait_for(driver, "the new name", lambda d: text(d, "title") == "Chess, edited")
        assert "e2e4" in text(driver, "history") and piece(driver, "e4") is not None
        print("renamed in the file: the page shows the new name, the game kept")

        write(rule_file, renamed + "\npiece Broken X { moves \"Zz\" }\n")
        wait_for(
            driver,
            "the diagnostics",
            lambda d: shown(d, "problems") and "problem" in text(d, "problems"),
        )
        assert piece(driver, "e4") is not None and "e2e4" in text(driver, "history")
        print("broken in the file: the page shows the diagnostics, the game kept")

        write(rule_file, original)
        wait_for(
            driver,
            "the fixed rules",
            lambda d: not shown(d, "problems") and text(d, "title") == "Chess",
        )
        assert piece(driver, "e4") is not None and "e2e4" in text(driver, "history")
        print("fixed in the file: the diagnostics are gone, the game is back")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


def write(path, content):
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
