"""Choices on the web board, in a real browser: python3 choices.py URL

On a crazyhouse board after a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 h7h6 (played through
the API): the pawn on b7 takes on a8 and the page asks which piece it becomes (four
moves share the squares); the player picks the knight. Then a bishop from White's
hand is clicked and placed on d3. Run by tests/web.rs against `varsand serve`."""

import sys
import time

from browser import By, click, css, piece, post, square, start, stop, text, wait_for


def main(url):
    began = time.monotonic()
    for m in "a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 h7h6".split():
        post(url, "/move", {"move": m})
    driver, profile = start()
    try:
        driver.get(url)
        wait_for(driver, "the board", lambda d: piece(d, "b7") is not None)

        click(driver, piece(driver, "b7"))
        click(driver, piece(driver, "a8"))
        wait_for(driver, "the four promotions", lambda d: len(css(d, "#choices button")) == 4)
        labels = [b.text for b in css(driver, "#choices button")]
        assert all(label.startswith("b7a8") for label in labels), labels
        knight = [b for b in css(driver, "#choices button") if "Knight" in b.text]
        assert len(knight) == 1, labels
        knight[0].click()
        wait_for(
            driver,
            "the knight on a8",
            lambda d: piece(d, "a8") is not None
            and piece(d, "a8").get_attribute("data-piece").startswith("N")  # a promoted N~
            and "b7a8n" in text(d, "history"),
        )
        assert not driver.find_element(By.ID, "chooser").is_displayed()
        print("b7 takes on a8: four choices offered, the knight chosen")

        post(url, "/move", {"move": "g8f6"})
        wait_for(driver, "black's reply", lambda d: "g8f6" in text(d, "history"))
        hand = css(driver, '#board [data-hand][data-piece="B"]')
        assert hand, "no bishop in White's hand on the board"
        click(driver, hand[0])
        wait_for(driver, "the drop targets", lambda d: len(css(d, "#board .vs-target")) > 10)
        click(driver, square(driver, "d3"))
        wait_for(
            driver,
            "the bishop placed on d3",
            lambda d: piece(d, "d3") is not None
            and piece(d, "d3").get_attribute("data-piece") == "B"
            and "B@d3" in text(d, "history"),
        )
        assert not css(driver, '#board [data-hand][data-piece="B"]'), "the hand still holds it"
        print("a bishop from the hand placed on d3")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
