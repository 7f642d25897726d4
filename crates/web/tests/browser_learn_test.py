"""Drives the Learn page in headless Chromium with selenium: follow the link from the game
page, set up a tic-tac-toe position by clicking, run minimax and alpha-beta, read both node
counts, expand a cut-off node and see its skipped moves greyed, step through the search, then
play tic-tac-toe against the perfect player. Screenshots go to the folder given.
Usage: browser_learn_test.py BASE_URL SHOT_DIR CHROMIUM CHROMEDRIVER
"""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE, SHOTS, CHROMIUM, DRIVER = sys.argv[1:5]


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=opts)


def status_text(d):
    return d.execute_script("return document.getElementById('status').textContent")


def wait(d, what, cond, timeout=30):
    try:
        WebDriverWait(d, timeout).until(lambda _: cond())
    except Exception as e:
        raise AssertionError(f"gave up waiting for {what} ({type(e).__name__}: {e}); status: "
                             f"{status_text(d)!r}")


def node_counts(d):
    return d.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('tr.result')]"
        ".map(tr => [tr.dataset.algorithm, tr.querySelector('.nodes').textContent]))")


def stones(d):
    return d.execute_script(
        "return [...document.querySelectorAll('#grid .cell')].filter(c => c.textContent).length")


def cell(d, name):
    d.find_element(By.CSS_SELECTOR, f"#grid .cell[data-name='{name}']").click()


def main():
    d = browser()
    try:
        d.get(BASE)
        d.find_element(By.ID, "learn-link").click()
        wait(d, "the Learn page", lambda: d.current_url.endswith("/learn"))
        Select(d.find_element(By.ID, "game")).select_by_value("tictactoe")
        cell(d, "b2")
        cell(d, "a1")
        wait(d, "two stones", lambda: stones(d) == 2)
        # The board is drawn anew after each move: the keyboard's focus stays on the point,
        # and each point's label says what is on it.
        focused = d.execute_script("return document.activeElement.dataset.name")
        assert focused == "a1", focused
        label = d.execute_script(
            "return document.querySelector(\"#grid .cell[data-name='a1']\").getAttribute('aria-label')")
        assert label == "a1, O", label
        depth = d.find_element(By.ID, "depth")
        depth.clear()
        depth.send_keys("4")
        for box in d.find_elements(By.CSS_SELECTOR, "#algorithms input"):
            if box.is_selected() != (box.get_attribute("value") in ("minimax", "alphabeta")):
                box.click()
        d.find_element(By.ID, "run").click()
        wait(d, "both results", lambda: len(node_counts(d)) == 2)
        counts = {k: int(v) for k, v in node_counts(d).items()}
        assert 0 < counts["alphabeta"] < counts["minimax"], counts
        bars = d.find_elements(By.CSS_SELECTOR, ".bars .bar")
        assert len(bars) == 4, len(bars)
        # The alpha-beta tree: expand a node that was cut off and see what it skipped, greyed.
        Select(d.find_element(By.ID, "tree-of")).select_by_value("alphabeta")
        wait(d, "the alpha-beta tree", lambda: d.find_elements(By.CSS_SELECTOR, "#tree li.node.cutoff"))
        cut = d.find_element(By.CSS_SELECTOR, "#tree li.node.cutoff")
        cut_id = cut.get_attribute("data-id")
        assert "cut-off: α ≥ β" in cut.text, cut.text
        cut.find_element(By.CSS_SELECTOR, ".toggle").click()
        wait(d, "the skipped moves", lambda: d.find_elements(
            By.CSS_SELECTOR, f"#tree li.node[data-id='{cut_id}'] > ul > li.skipped"))
        skipped = d.find_element(By.CSS_SELECTOR, f"#tree li.node[data-id='{cut_id}'] > ul > li.skipped")
        assert skipped.is_displayed() and "skipped: α ≥ β" in skipped.text, skipped.text
        colour = skipped.value_of_css_property("color")
        assert colour in ("rgba(107, 107, 107, 1)", "rgb(107, 107, 107)"), colour
        # The toggle keeps the keyboard's focus though the tree was drawn anew, and says it
        # is open now.
        focused = d.execute_script(
            "const b = document.activeElement;"
            "return [b.closest('li.node').dataset.id, b.getAttribute('aria-expanded'),"
            " b.getAttribute('aria-label')]")
        assert focused[:2] == [cut_id, "true"] and focused[2].startswith("collapse "), focused
        assert d.find_elements(By.CSS_SELECTOR, "#tree li.node.on-pv"), "the principal variation is marked"
        d.save_screenshot(os.path.join(SHOTS, "learn-tree.png"))
        # Step through the search: the board shows the line of the node being visited.
        for _ in range(3):
            d.find_element(By.ID, "step").click()
        info = d.find_element(By.ID, "step-info").text
        assert info.startswith("node 3 of "), info
        wait(d, "the visited line on the board", lambda: stones(d) == 4)
        d.save_screenshot(os.path.join(SHOTS, "learn-step.png"))
        d.find_element(By.ID, "show-all").click()
        # Bad input is refused with the server's reason.
        depth.clear()
        depth.send_keys("0")
        d.find_element(By.ID, "run").click()
        wait(d, "the error", lambda: "out of range" in status_text(d))
        # A position typed into the moves box, in numbers and with names run together, is
        # drawn on the board stone by stone.
        Select(d.find_element(By.ID, "game")).select_by_value("gomoku")
        box = d.find_element(By.ID, "moves")
        box.clear()
        box.send_keys("4,4 E6f7")  # on the page's 9x9 board: e5 e6 f7
        box.send_keys(Keys.TAB)
        wait(d, "the typed stones", lambda: stones(d) == 3)
        assert box.get_attribute("value") == "e5 e6 f7", box.get_attribute("value")
        # Tic-tac-toe against the perfect player, one click away.
        d.find_element(By.ID, "play-ttt").click()
        wait(d, "an empty board", lambda: stones(d) == 0)
        cell(d, "a1")
        wait(d, "the AI's reply", lambda: stones(d) == 2)
        # Undo takes back the reply and the move: X (the player) is to move again. It took back
        # the reply alone, and the player's next click was played as O.
        d.find_element(By.ID, "undo-move").click()
        wait(d, "both moves taken back", lambda: stones(d) == 0)
        cell(d, "b2")
        wait(d, "the AI's reply again", lambda: stones(d) == 2)
        assert d.execute_script("return moves[0]") == "b2", d.execute_script("return moves")
        # A click while the AI chooses its reply is not a second move.
        free = [c for c in ("a1", "a3", "c1", "c3") if c not in d.execute_script("return moves")]
        d.execute_script(f"clickCell('{free[0]}'); clickCell('{free[1]}');")
        wait(d, "one move and its reply", lambda: stones(d) == 4)
        time.sleep(0.5)
        assert stones(d) == 4 and d.execute_script("return moves[2]") == free[0], \
            d.execute_script("return moves")
        print("BROWSER LEARN OK")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
