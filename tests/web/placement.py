"""A placement phase on the web board, in a real browser: python3 placement.py URL

On a placement chess board: White's king in hand is clicked, then e1; Black's reply is
played through the API; then White's rook in hand is clicked and placed on h1, which
gives White the kingside castling right. Run by tests/web.rs against `varsand serve`."""

import sys
import time

from browser import click, css, piece, post, square, start, stop, text, wait_for


def place(driver, letter, target):
    hand = css(driver, f'#board [data-hand][data-piece="{letter}"]')
    assert hand, f"no {letter} in White's hand on the board"
    click(driver, hand[0])
    wait_for(driver, "the placement targets", lambda d: len(css(d, "#board .vs-target")) >= 1)
    click(driver, square(driver, target))
    wait_for(
        driver,
        f"the {letter} placed on {target}",
        lambda d: piece(d, target) is not None
        and piece(d, target).get_attribute("data-piece") == letter
        and f"{letter}@{target}" in text(d, "history"),
    )


def main(url):
    began = time.monotonic()
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "e2") is not None)
        place(driver, "K", "e1")
        post(url, "/move", {"move": "K@e8"})
        wait_for(driver, "black's reply", lambda d: "K@e8" in text(d, "history"))
        place(driver, "R", "h1")
        print("king and rook placed by clicks")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
