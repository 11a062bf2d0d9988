"""A two-part move by clicks on the web board, in a real browser: python3 two_part.py URL

On an amazons board: a click on the amazon on d1 and one on d4 choose the first part;
the page then asks for the second part's square and marks the squares the arrow may
reach; a click on g7 plays `d1d4,d4g7`, and the arrow is drawn on g7. A click on a
square the arrow may not reach is refused with the server's reason. Run by
tests/web.rs against `varsand serve`."""

import sys
import time

from browser import click, css, piece, square, start, stop, text, wait_for


def main(url):
    began = time.monotonic()
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "d1") is not None)

        click(driver, piece(driver, "d1"))
        click(driver, square(driver, "d4"))
        wait_for(
            driver,
            "the question for the second part",
            lambda d: "second part" in text(d, "message"),
        )
        marks = css(driver, "#board .vs-marks *")
        assert marks, "no squares marked for the arrow"
        print(f"d1 then d4: the page asks for the arrow's square ({len(marks)} marks)")

        click(driver, square(driver, "g7"))
        wait_for(
            driver,
            "d1d4,d4g7 played, the arrow on g7",
            lambda d: "d1d4,d4g7" in text(d, "history")
            and piece(d, "d4") is not None
            and css(d, '#board [data-square="g7"][data-terrain="arrow"]'),
        )
        print("g7: the move d1d4,d4g7 is played and the arrow drawn on g7")

        # Black: a7 to a5, then an arrow on a square it cannot reach.
        click(driver, piece(driver, "a7"))
        click(driver, square(driver, "a5"))
        wait_for(driver, "the second question", lambda d: "second part" in text(d, "message"))
        click(driver, square(driver, "j1"))
        wait_for(
            driver,
            "the reason the arrow may not go to j1",
            lambda d: "may not be put on j1" in text(d, "message"),
        )
        assert piece(driver, "a7") is not None
        print(f"a7a5 with an arrow on j1: refused ({text(driver, 'message')})")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
