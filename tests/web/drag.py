"""Drag and drop on the web board, in a real browser: python3 drag.py URL

On a chess board: the knight on g1 is dragged to f3 and the move is made; then a pawn
(e7) is dragged to a square it may not reach (e4) and the server's reason is shown,
the board unchanged. Run by tests/web.rs against `varsand serve`."""

import sys
import time

from selenium.webdriver.common.action_chains import ActionChains

from browser import css, piece, square, start, stop, text, wait_for


def drag(driver, from_el, to_el):
    # A real press, move and release, as a mouse does it (pointer events).
    ActionChains(driver).move_to_element(from_el).click_and_hold().pause(0.1).move_to_element(
        to_el
    ).pause(0.1).release().perform()


def main(url):
    began = time.monotonic()
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "g1") is not None)

        drag(driver, piece(driver, "g1"), square(driver, "f3"))
        wait_for(
            driver,
            "the knight on f3 after a drag",
            lambda d: piece(d, "g1") is None
            and piece(d, "f3") is not None
            and "g1f3" in text(d, "history"),
        )
        print("dragged g1 to f3: the knight stands on f3, and the list shows g1f3")

        drag(driver, piece(driver, "e7"), square(driver, "e4"))
        wait_for(
            driver,
            "the reason e7e4 is illegal",
            lambda d: "illegal" in text(d, "message") and "e7 to e4" in text(d, "message"),
        )
        assert piece(driver, "e7") is not None and piece(driver, "e4") is None
        assert "e7e4" not in text(driver, "history")
        print(f"dragged e7 to e4: refused ({text(driver, 'message')})")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
