"""Converting pieces on the web board, in a real browser: python3 flips.py URL KIND

KIND `flipello`: from the start, a click on the empty square e3 places a disc there
(every legal move is a placement, so no hand's disc need be selected first), and the
enclosed black disc on e4 turns white; then black's disc is placed by selecting it in
the hand and clicking d3, which turns d4. KIND `ataxx`: a click on f2 copies White's
blob from g1 (a copy has no hand to click), then the blob on a7 is selected and
jumps to c5. Run by tests/web.rs against `varsand serve`."""

import sys

from browser import click, css, piece, run, square, text, wait_for


def colour(d, name):
    p = piece(d, name)
    return p.get_attribute("data-piece") if p is not None else None


def flipello(driver):
    wait_for(driver, "the board", lambda d: colour(d, "e4") == "p")
    click(driver, square(driver, "e3"))
    wait_for(
        driver,
        "the disc on e3 and e4 turned",
        lambda d: colour(d, "e3") == "P" and colour(d, "e4") == "P" and "P@e3" in text(d, "history"),
    )
    print("P@e3 by one click: the enclosed disc on e4 turned white")
    hand = css(driver, '#board [data-hand][data-piece="p"]')
    assert hand, "no disc in black's hand on the board"
    click(driver, hand[0])
    wait_for(driver, "black's targets", lambda d: len(css(d, "#board .vs-target")) == 3)
    click(driver, square(driver, "d3"))
    wait_for(
        driver,
        "the disc on d3 and d4 turned",
        lambda d: colour(d, "d3") == "p" and colour(d, "d4") == "p" and "P@d3" in text(d, "history"),
    )
    print("black's disc from the hand on d3: d4 turned black")


def ataxx(driver):
    wait_for(driver, "the board", lambda d: colour(d, "g1") == "P")
    click(driver, square(driver, "f2"))
    wait_for(
        driver,
        "the copy on f2",
        lambda d: colour(d, "f2") == "P" and colour(d, "g1") == "P" and "P@f2" in text(d, "history"),
    )
    print("P@f2 by one click: the blob on g1 stays, its copy lands")
    click(driver, piece(driver, "a1"))
    click(driver, square(driver, "c3"))
    wait_for(
        driver,
        "black's jump to c3",
        lambda d: colour(d, "c3") == "p" and colour(d, "a1") is None and "a1c3" in text(d, "history"),
    )
    print("black's blob jumps a1c3")


if __name__ == "__main__":
    run(sys.argv[1], {"flipello": flipello, "ataxx": ataxx}[sys.argv[2]])
