"""Gating on the web board, in a real browser: python3 gating.py URL

On an S-Chess board: the knight on b1 is clicked, then c3; the page asks what the move
brings in (three moves share the squares: none, the Elephant, the Hawk), the player
picks the Hawk, which then stands on b1 and has left White's hand. Run by tests/web.rs
against `varsand serve`."""

import sys
import time

from browser import css, click, piece, square, start, stop, text, wait_for


def main(url):
    began = time.monotonic()
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "b1") is not None)
        click(driver, piece(driver, "b1"))
        click(driver, square(driver, "c3"))
        wait_for(driver, "the three choices", lambda d: len(css(d, "#choices button")) == 3)
        labels = [b.text for b in css(driver, "#choices button")]
        hawk = [b for b in css(driver, "#choices button") if "Hawk" in b.text]
        assert len(hawk) == 1, labels
        hawk[0].click()
        wait_for(
            driver,
            "the hawk on b1",
            lambda d: piece(d, "b1") is not None
            and piece(d, "b1").get_attribute("data-piece") == "H"
            and "b1c3h" in text(d, "history"),
        )
        assert not css(driver, '#board [data-hand][data-piece="H"]'), "the hand still holds it"
        print("b1c3 with the hawk brought in: three choices offered, the hawk chosen")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
