"""Drives the page in headless Chromium with selenium: a reload finds the same game on the
server (no new game spent), a reload while the engine thinks keeps the player's move and
takes the engine's reply, and a server that will start no more games for this address
still shows the saved position and says why.
Usage: browser_reload_test.py BASE_URL SHOT_DIR CHROMIUM CHROMEDRIVER
"""
import os
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_test import browser, click, moves, status_text, wait

BASE, SHOTS = sys.argv[1:3]


def announced(d):
    return d.execute_script("return document.getElementById('announce').textContent")


def game_id(d):
    return d.execute_script("return game && game.id")


def main():
    d = browser()
    try:
        d.get(BASE)
        wait(d, "a new game", lambda: "to move" in status_text(d))
        first = game_id(d)
        # The keyboard plays too: Tab to the board, move the cursor, Enter. A screen reader
        # hears (the live region) the point under the cursor, then the engine's reply.
        d.execute_script("document.getElementById('board').focus()")
        ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
        assert announced(d) == "i8, empty", announced(d)
        ActionChains(d).send_keys(Keys.ARROW_LEFT, Keys.ENTER).perform()
        wait(d, "the AI's reply", lambda: len(moves(d)) == 2)
        assert moves(d)[0] == "h8", moves(d)
        reply = moves(d)[1]
        wait(d, "the reply said", lambda: announced(d) == f"White played {reply}. Black to move.")
        ActionChains(d).send_keys(Keys.ARROW_UP).perform()
        assert announced(d) in (f"h9, {'white stone' if reply == 'h9' else 'empty'}",), announced(d)
        ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
        assert announced(d) == "h8, black stone", announced(d)
        # A hint is said too, though the position (and so the state said) is the same.
        d.find_element(By.ID, "hint").click()
        wait(d, "the hint said", lambda: announced(d).startswith(
            f"White played {reply}. Black to move. Hint: "))
        # Idle: the same game again, not a new one (the server allows an address one).
        d.refresh()
        wait(d, "the game after a reload", lambda: len(moves(d)) == 2 and not d.execute_script("return busy"))
        assert game_id(d) == first, (game_id(d), first)
        # Reloaded while the engine thinks (3 s a move): the move stays, the reply comes.
        d.execute_script("document.getElementById('time').value = '3000';"
                         "document.getElementById('time').dispatchEvent(new Event('change'))")
        wait(d, "the game going on with 3 s", lambda: d.execute_script("return game.time_ms") == 3000
             and not d.execute_script("return busy"))
        before = moves(d)
        click(d, "j10")
        # Once the server has the move (a reload before would cancel the request itself).
        wait(d, "the engine thinking", lambda: d.execute_async_script(
            "const done = arguments[0];"
            "fetch('/api/games/' + game.id).then(r => r.json()).then(g => done(g.thinking))"))
        d.refresh()
        wait(d, "the move and the reply after the reload", lambda: len(moves(d)) == 4)
        assert moves(d)[:3] == before + ["j10"], moves(d)
        assert game_id(d) == first, (game_id(d), first)
        # No second game was needed: the server refuses one, and the saved position is still
        # shown, with the reason.
        kept = moves(d)
        d.execute_script(
            "const s = JSON.parse(localStorage.getItem('wuzi-game'));"
            "s.id = 'gone'; localStorage.setItem('wuzi-game', JSON.stringify(s));")
        d.refresh()
        notice = d.find_element(By.ID, "notice")
        wait(d, "the refusal", lambda: notice.is_displayed() and "start a new one in" in notice.text)
        assert notice.text.count(" s") == 1 or "retry in" not in notice.text, notice.text
        assert moves(d) == kept, moves(d)
        assert status_text(d) == notice.text, status_text(d)
        # Undo needs the server: it says why it cannot, and the position stays.
        d.find_element(By.ID, "undo").click()
        wait(d, "the refusal again", lambda: notice.is_displayed() and "start a new one in" in notice.text)
        assert moves(d) == kept, moves(d)
        assert d.execute_script("return game.id") is None
        d.save_screenshot(os.path.join(SHOTS, "page-refused.png"))
        print("BROWSER RELOAD OK")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
