"""Batch referee for the renju forbidden-move test (tests/renju_referee.rs).

Reads one position per line from stdin:  N CELLS X,Y,V X,Y,V ...
  N      board side
  CELLS  N*N characters row by row from the top ('.' empty, 'X' black, 'O' white),
         so CELLS[y*N + x] is the point x,y in Gomocup coordinates
  X,Y    the empty points to judge, and V the caller's own verdict (0..3)
and prints one line per position with, for each point, two verdicts "A/B" (0 none,
1 double-three, 2 double-four, 3 overline), space-separated:
  A  renju.check_forbid.get_foul_type as published;
  B  the same referee with one deviation from the RIF rules corrected: in its recursive
     real-three check, a four point that also completes a five counts as forbidden
     (ForbidChecker.foulr(..., five=1) returns 1), so the three is wrongly discarded. Under
     RIF 9.2/9.3 a five is never forbidden, so that three is real. B recurses with five=0.
     B is only computed where A differs from V (it costs as much again); elsewhere B is "-".
"""
import sys

from renju import check_forbid
from renju.check_forbid import get_foul_type

PUBLISHED_FOULR = check_forbid.ForbidChecker.foulr


def rif_foulr(self, x, y, five):
    return PUBLISHED_FOULR(self, x, y, 0)


def verdict(grid, x, y, rif):
    check_forbid.ForbidChecker.foulr = rif_foulr if rif else PUBLISHED_FOULR
    try:
        return get_foul_type(grid, x, y)
    finally:
        check_forbid.ForbidChecker.foulr = PUBLISHED_FOULR


def main() -> None:
    out = []
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        n = int(parts[0])
        cells = parts[1]
        assert len(cells) == n * n, "bad cell string"
        # The referee indexes board[x][y]; its four directions are symmetric, so any
        # consistent orientation gives the same verdicts.
        grid = [[0] * n for _ in range(n)]
        for y in range(n):
            for x in range(n):
                c = cells[y * n + x]
                grid[x][y] = 1 if c == "X" else 2 if c == "O" else 0
        verdicts = []
        for pt in parts[2:]:
            x, y, ours = (int(v) for v in pt.split(","))
            published = verdict(grid, x, y, False)
            rif = verdict(grid, x, y, True) if published != ours else "-"
            verdicts.append(f"{published}/{rif}")
        out.append(" ".join(verdicts))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
