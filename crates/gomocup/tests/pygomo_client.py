"""Plays one game against a Gomocup engine with pygomo-lib's EngineClient (an independent
client) and prints one line: "RESULT <winner> <moves>".

The client side plays simply (the empty point nearest the centre that is next to its own
last stone); the script keeps its own board and decides the end of the game itself.
Usage: pygomo_client.py ENGINE_PATH
"""
import sys

from pygomo.client.engine import EngineClient

N = 15


def five(stones, x, y):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            k = 1
            while (x + sign * k * dx, y + sign * k * dy) in stones:
                count += 1
                k += 1
        if count >= 5:
            return True
    return False


def client_move(board, last_own):
    cx, cy = last_own if last_own else (N // 2, N // 2)
    best = None
    for y in range(N):
        for x in range(N):
            if (x, y) in board:
                continue
            d = max(abs(x - cx), abs(y - cy))
            key = (d, y, x)
            if best is None or key < best[0]:
                best = (key, (x, y))
    return best[1]


def main():
    engine_path = sys.argv[1]
    board = {}
    with EngineClient(engine_path) as engine:
        # Upper-case INFO keys, as the client sends them.
        engine.set_time(turn_time_ms=200, match_time_ms=120000)
        engine.set_rule(0)
        engine.configure(max_memory=64 * 1024 * 1024)
        assert engine.start(N), "START failed"
        about = engine.about()
        assert about and "wuzi" in about, about
        result = engine.begin()
        moves = 0
        last_own = None
        while True:
            assert result is not None, "no reply from the engine"
            x, y = result.move.to_tuple()
            assert (x, y) not in board, f"engine played an occupied point {x},{y}"
            board[(x, y)] = "engine"
            moves += 1
            if five({p for p, s in board.items() if s == "engine"}, x, y):
                print(f"RESULT engine {moves}")
                break
            if len(board) == N * N:
                print(f"RESULT draw {moves}")
                break
            mx, my = client_move(board, last_own)
            board[(mx, my)] = "client"
            last_own = (mx, my)
            moves += 1
            if five({p for p, s in board.items() if s == "client"}, mx, my):
                print(f"RESULT client {moves}")
                break
            result = engine.turn((mx, my))
        engine.quit()


if __name__ == "__main__":
    main()
