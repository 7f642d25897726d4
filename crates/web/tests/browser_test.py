"""Drives the page in headless Chromium (Debian's chromium and chromium-driver) with selenium:
start a game, click moves, see the AI answer, undo, reload and find the game again, swap sides, then set up
a position by import and play to a result, list the three best moves of an imported record and review its moves,
see a refused import reported, then wait in the engine's queue. Screenshots go to the folder given.
Usage: browser_test.py BASE_URL SHOT_DIR CHROMIUM CHROMEDRIVER
"""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE, SHOTS, CHROMIUM, DRIVER = sys.argv[1:5]
LETTERS = "abcdefghijklmnopqrstuv"


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def moves(d):
    # Read in one script: the list is re-rendered while the page updates.
    return d.execute_script(
        "return [...document.querySelectorAll('#moves li')].map(li => li.dataset.move)")


def status_text(d):
    return d.execute_script("return document.getElementById('status').textContent")


def wait(d, what, cond, timeout=30):
    try:
        WebDriverWait(d, timeout).until(lambda _: cond())
    except Exception as e:
        raise AssertionError(f"gave up waiting for {what} ({type(e).__name__}: {e}); status: "
                             f"{status_text(d)!r}, moves: {moves(d)}")


def click(d, name, size=15):
    """Clicks the intersection `name` (e.g. h8) on the canvas."""
    canvas = d.find_element(By.ID, "board")
    w, h = canvas.size["width"], canvas.size["height"]
    scale = w / 640.0
    margin, cell = 42, (640 - 84) / (size - 1)
    x = LETTERS.index(name[0])
    y = size - int(name[1:])
    px, py = (margin + x * cell) * scale, (margin + y * cell) * scale
    ActionChains(d).move_to_element_with_offset(canvas, int(px - w / 2), int(py - h / 2)).click().perform()


def searches_running(d):
    return d.execute_async_script(
        "const done = arguments[0];"
        "fetch('/healthz').then(r => r.json()).then(h => done(h.searches))")


def queue_place_is_shown(d):
    """With the server's one search slot held by someone else, a move waits in the queue and
    the page says so, then the reply comes."""
    Select(d.find_element(By.ID, "colour")).select_by_value("black")
    d.find_element(By.ID, "start").click()
    # The position being analysed is dropped only when the player says so.
    alert = d.switch_to.alert
    assert "3 moves of this position will be dropped" in alert.text, alert.text
    alert.accept()
    wait(d, "a new game against the engine", lambda: moves(d) == [] and "to move" in status_text(d))
    d.execute_script(
        "fetch('/api/analyze', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify({moves: ['a1'], time_ms: 3000})})")
    wait(d, "the slot to be taken", lambda: searches_running(d) == 1)
    click(d, "h8")
    wait(d, "the place in the queue", lambda: "position 1 in queue" in status_text(d))
    assert status_text(d).startswith("Waiting for the engine"), status_text(d)
    d.save_screenshot(os.path.join(SHOTS, "page-queue.png"))
    wait(d, "the reply after the wait", lambda: len(moves(d)) == 2)


def main():
    d = browser()
    try:
        d.get(BASE)
        wait(d, "a new game", lambda: "to move" in status_text(d))
        assert moves(d) == [], moves(d)
        click(d, "h8")
        wait(d, "the AI's reply", lambda: len(moves(d)) == 2)
        assert moves(d)[0] == "h8", moves(d)
        d.save_screenshot(os.path.join(SHOTS, "page-game.png"))
        # The canvas holds a pixel for each screen pixel it covers, so the board is sharp,
        # also after the window changes size (a click still finds its point: see below).
        sharp = ("const c = document.getElementById('board');"
                 "return [c.width, Math.round(c.getBoundingClientRect().width * devicePixelRatio)]")
        backing, shown = d.execute_script(sharp)
        assert backing == shown, (backing, shown)
        d.set_window_size(1000, 700)
        wait(d, "the board redrawn at its new size",
             lambda: (lambda b, s: b == s and s != shown)(*d.execute_script(sharp)))
        d.set_window_size(1280, 900)
        d.find_element(By.ID, "undo").click()
        wait(d, "undo", lambda: len(moves(d)) == 0)
        # The button, disabled while the server answered, has the keyboard's focus again.
        focused = d.execute_script("return document.activeElement.id")
        assert focused == "undo", focused
        click(d, "h8")
        wait(d, "the AI's reply again", lambda: len(moves(d)) == 2)
        before = moves(d)
        d.refresh()
        wait(d, "the game after a reload", lambda: moves(d) == before)
        # Swap sides: the engine takes Black, whose turn it is, and moves at once.
        d.find_element(By.ID, "swap").click()
        wait(d, "the engine's move as Black", lambda: len(moves(d)) == 3)
        assert moves(d)[:2] == before, moves(d)
        assert status_text(d) == "White to move.", status_text(d)
        assert d.execute_script("return document.getElementById('colour').value") == "white"
        # Resigning a game in progress asks first; saying no keeps the game.
        swapped = moves(d)
        d.find_element(By.ID, "resign").click()
        alert = d.switch_to.alert
        assert "Resign" in alert.text, alert.text
        alert.dismiss()
        assert moves(d) == swapped, moves(d)
        # Analysis mode (no AI), a position imported from a move list in mixed notations,
        # one click to a five.
        Select(d.find_element(By.ID, "colour")).select_by_value("both")
        d.find_element(By.XPATH, "//summary[text()='Import / export']").click()
        box = d.find_element(By.ID, "movelist")
        box.clear()
        box.send_keys("7,7 0,14 i8 a2 j8a3 k8 a4")  # read whole by the server, any notation
        d.find_element(By.ID, "import").click()
        wait(d, "the imported position", lambda: len(moves(d)) == 8)
        # The threat solver for both sides: each has a five to make.
        d.find_element(By.ID, "threats-button").click()
        threats = d.find_element(By.ID, "threats")
        wait(d, "the threats", lambda: "threatens" in threats.text)
        assert "black (to move) wins by VCT in 1 ply: g8" in threats.text, threats.text
        assert "white threatens a VCT in 1 ply: a5" in threats.text, threats.text
        # The same by proof numbers.
        Select(d.find_element(By.ID, "threat-search")).select_by_value("proof")
        d.find_element(By.ID, "threats-button").click()
        wait(d, "the threats by proof numbers", lambda: "proof numbers" in threats.text
             and "threatens" in threats.text)
        assert "black (to move) wins by VCT in 1 ply: g8" in threats.text, threats.text
        click(d, "l8")
        wait(d, "the result", lambda: "wins" in status_text(d))
        assert status_text(d).startswith("Black wins"), status_text(d)
        d.save_screenshot(os.path.join(SHOTS, "page-result.png"))
        # SGF out and back in: the finished game as a record, then loaded again.
        d.find_element(By.ID, "export-sgf").click()
        wait(d, "the SGF export", lambda: box.get_attribute("value").startswith("(;FF[4]GM[4]"))
        record = box.get_attribute("value")
        assert ";B[hh]" in record and "RE[B+1]" in record, record
        box.clear()
        # Its first stone is a match manager's opening stone: the review leaves it out.
        box.send_keys("(;FF[4]GM[4]SZ[15];B[hh]C[opening move];W[ii];B[hi])")
        d.find_element(By.ID, "import").click()
        wait(d, "the imported SGF", lambda: moves(d) == ["h8", "i7", "h7"])
        # The analysis mode's three best moves, listed and numbered on the board.
        Select(d.find_element(By.ID, "nbest")).select_by_value("3")
        analysis = d.find_element(By.ID, "analysis")
        wait(d, "the three best moves", lambda: "3. " in analysis.text)
        listed = [l for l in analysis.text.splitlines() if l[:3] in ("1. ", "2. ", "3. ")]
        assert len(listed) == 3, analysis.text
        assert len({l.split()[1] for l in listed}) == 3, analysis.text
        # Each unproven line says the side to move's chance (White to move after h8 i7 h7).
        assert all("White " in l and "%" in l for l in listed if "score" in l), analysis.text
        assert d.execute_script("return bestMarks.length") == 3
        # The analysis showed its progress live (the game's event stream), and is done.
        live = d.execute_script("return document.getElementById('live').textContent")
        assert live.startswith("prefers ") and ", depth " in live, live
        assert not d.execute_script("return analysing")
        d.save_screenshot(os.path.join(SHOTS, "page-nbest.png"))
        # The review grades the two moves after the opening stone: a tooltip on each of them.
        d.find_element(By.ID, "review-button").click()
        threats = d.find_element(By.ID, "threats")
        wait(d, "the review", lambda: threats.text.startswith("Review"))
        assert "black: 1 move," in threats.text and "white: 1 move," in threats.text, threats.text
        titles = d.execute_script(
            "return [...document.querySelectorAll('#moves li')].map(li => li.title)")
        assert len(titles) == 3 and not titles[0] and all(titles[1:]), titles
        # A screen reader reads whose move each is, and the tooltip's words.
        labels = d.execute_script(
            "return [...document.querySelectorAll('#moves li')].map(li => li.textContent)")
        assert labels[0].startswith("1. Black ") and labels[0].count(",") == 0, labels
        mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(titles[2].split(":")[0], "")
        assert labels[2] == f"3. Black {moves(d)[2]}{mark}, {titles[2]}", labels
        chart = d.execute_script("return document.getElementById('chances').getAttribute('aria-label')")
        assert chart.startswith("Review chart. Black: 1 move,"), chart
        # The chart of Black's chances: shown with the review, drawn (not blank).
        assert d.execute_script("return !document.getElementById('chances').hidden")
        drawn = d.execute_script(
            "const c = document.getElementById('chances');"
            "const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            "let dark = 0; for (let i = 0; i < px.length; i += 4) if (px[i] < 100) dark++;"
            "return dark;")
        assert drawn > 0, "the chart is blank"
        # The best moves are still listed beside their marks (the review redrew the page).
        assert "3. " in analysis.text, analysis.text
        assert d.execute_script("return bestMarks.length") == 3
        d.save_screenshot(os.path.join(SHOTS, "page-review.png"))
        # A refused record: the error shows beside the buttons, nothing says the engine is
        # thinking, and the game is as it was.
        box.clear()
        box.send_keys("h8 h8")
        d.find_element(By.ID, "import").click()
        notice = d.find_element(By.ID, "notice")
        wait(d, "the error", lambda: notice.is_displayed() and "h8" in notice.text)
        assert not d.find_element(By.ID, "thinking").is_displayed()
        assert moves(d) == ["h8", "i7", "h7"], moves(d)
        d.save_screenshot(os.path.join(SHOTS, "page-error.png"))
        queue_place_is_shown(d)
        print("BROWSER OK")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
