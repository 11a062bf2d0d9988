"""The pieces on the web board, in a real browser: python3 pieces.py URL

On a chess board: every piece is drawn as its picture, and its tooltip (the SVG
<title> a hover shows) names it and says how it moves; the rules panel shows a card
per kind of piece, each with its picture and its movement diagram; the target dots of
a selected piece are a dark core in a light ring, and a capture's ring is cased in
light. Run by tests/web.rs against `varsand serve`."""

import sys

from selenium.webdriver.common.action_chains import ActionChains

from browser import By, click, css, piece, run, wait_for


def tooltip(el):
    titles = el.find_elements(By.TAG_NAME, "title")
    return titles[0].get_attribute("textContent") if titles else ""


def steps(driver):
    wait_for(driver, "the board", lambda d: piece(d, "g1") is not None)

    knight = piece(driver, "g1")
    ActionChains(driver).move_to_element(knight).perform()
    words = tooltip(knight)
    assert words.startswith("Knight:") and "knight's leap" in words, words
    assert knight.find_elements(By.CSS_SELECTOR, "g[transform]"), "the knight is not drawn as a picture"
    for el in css(driver, "#board [data-piece][data-square]"):
        assert tooltip(el), f"no tooltip on {el.get_attribute('data-square')}"
    print(f"hovering g1: {words}")

    wait_for(driver, "six cards", lambda d: len(css(d, "#cards .card")) == 6)
    for card in css(driver, "#cards .card"):
        name = card.find_element(By.TAG_NAME, "h3").text
        assert card.find_elements(By.CSS_SELECTOR, ".card-picture svg"), name
        marks = card.find_elements(By.CSS_SELECTOR, ".card-diagram svg [data-reach]")
        assert marks, f"the card of {name} has no diagram"
        assert card.find_elements(By.CSS_SELECTOR, "li"), name
    names = [c.find_element(By.TAG_NAME, "h3").text for c in css(driver, "#cards .card")]
    print(f"cards: {', '.join(names)}")

    click(driver, piece(driver, "e2"))
    wait_for(driver, "the target dots", lambda d: len(css(d, "#board .vs-target")) == 2)
    dot = css(driver, "#board .vs-target")[0]
    fill, stroke = dot.value_of_css_property("fill"), dot.value_of_css_property("stroke")
    assert fill == "rgb(15, 61, 26)" and stroke == "rgb(255, 255, 255)", (fill, stroke)
    print(f"a target dot: core {fill}, ring {stroke}")


if __name__ == "__main__":
    run(sys.argv[1], steps, 1280, 900)
