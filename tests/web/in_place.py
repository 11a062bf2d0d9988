"""A move in place on the web board, in a real browser: python3 in_place.py URL

On a 4x4 board (tests/web/in_place.var) White's pawn on b2 may step to b3 or turn into
a General where it stands (`b2b2f`). A click on the pawn selects it; a second click on
it offers the moves in place; picking the General plays `b2b2f`, and a General stands
on b2. Run by tests/web.rs against `varsand serve`."""

import sys
import time

from browser import click, css, piece, start, stop, text, wait_for


def main(url):
    began = time.monotonic()
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "b2") is not None)
        click(driver, piece(driver, "b2"))
        click(driver, piece(driver, "b2"))
        wait_for(driver, "the move in place offered", lambda d: len(css(d, "#choices button")) >= 1)
        labels = [b.text for b in css(driver, "#choices button")]
        general = [b for b in css(driver, "#choices button") if "General" in b.text]
        assert len(general) == 1, labels
        print(f"a second click on b2 offers: {labels}")
        general[0].click()
        wait_for(
            driver,
            "b2b2f played, a General on b2",
            lambda d: "b2b2f" in text(d, "history")
            and piece(d, "b2") is not None
            and piece(d, "b2").get_attribute("data-piece") == "F",
        )
        print("b2b2f is played: a General stands on b2")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
