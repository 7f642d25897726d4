#!/usr/bin/env python3
"""A badly behaved Gomocup engine for the match manager's tests.

Usage: bad_engine.py MODE PIDFILE_DIR
It writes its process id to PIDFILE_DIR/<pid> (so a test can check nobody is left
running), plays the first empty point from the top-left corner, and on its second move
misbehaves as MODE says:
  crash     says "assertion failed: board is sane" on its error output and exits with
            status 3
  unknown   answers "UNKNOWN command TURN", then nothing
  twice     prints its move twice on its first move (then plays normally): the second
            line must not be taken as its next move
  silent    never answers again
  late      answers after 1.5 s
  slow      answers after 0.2 s (inside a tolerance, not a fault)
  occupied  plays a point that is already taken
  garbage   prints a line that is not a move
  latin1    says MESSAGE caf\xe9 (not UTF-8) before its move, then plays normally
  endless   prints a line that never ends, then never answers
  racy      ignores every command that comes within 0.3 s of one of its moves, as an
            engine still finishing its move does (Rapfi 0.43 drops such a command)
  refuse    answers START with "ERROR unsupported size"
  sleepy    answers START after 0.5 s
  norenju   answers INFO rule 4 (renju) with "ERROR renju is not supported"
  good      never misbehaves
"""
import os
import sys
import time

mode, pid_dir = sys.argv[1], sys.argv[2]
open(os.path.join(pid_dir, str(os.getpid())), "w").close()
size = 15
taken = set()
moves_made = 0
moved_at = None


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def move():
    global moves_made, moved_at
    moves_made += 1
    moved_at = time.monotonic()
    if moves_made == 2:
        if mode == "crash":
            sys.stderr.write("engine starting\nassertion failed: board is sane\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "unknown":
            say("UNKNOWN command TURN")
            while True:
                time.sleep(60)
        if mode == "silent":
            while True:
                time.sleep(60)
        if mode == "late":
            time.sleep(1.5)
        if mode == "slow":
            time.sleep(0.2)
        if mode == "occupied":
            say("%d,%d" % sorted(taken)[0])
            return
        if mode == "latin1":
            sys.stdout.buffer.write(b"MESSAGE caf\xe9\n")
            sys.stdout.flush()
        if mode == "endless":
            # 4 MB and counting, no newline: the manager must neither wait for the end of the
            # line nor keep all of it.
            try:
                for _ in range(64):
                    sys.stdout.write("x" * 65536)
                sys.stdout.flush()
                while True:
                    time.sleep(60)
            except BrokenPipeError:
                sys.exit(0)
        if mode == "garbage":
            say("I think I will play somewhere nice")
            return
    say("DEBUG thinking")
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                say("MESSAGE bad engine plays %d,%d" % (x, y))
                if mode == "twice" and moves_made == 1:
                    # One write: the stale line is there before the next command is.
                    say("%d,%d\n%d,%d" % (x, y, x, y))
                    return
                say("%d,%d" % (x, y))
                return


in_board = False
for line in sys.stdin:
    line = line.strip()
    word = line.split(" ")[0].upper() if line else ""
    if mode == "racy" and moved_at is not None and time.monotonic() - moved_at < 0.3:
        continue
    if in_board:
        if word == "DONE":
            in_board = False
            move()
        else:
            x, y, _ = line.split(",")
            taken.add((int(x), int(y)))
    elif word == "START":
        size = int(line.split()[1])
        if mode == "refuse":
            say("ERROR unsupported size")
            continue
        if mode == "sleepy":
            time.sleep(0.5)
        say("OK")
    elif word == "INFO" and line.split()[1:] == ["rule", "4"] and mode == "norenju":
        say("ERROR renju is not supported")
    elif word == "ABOUT":
        say('name="bad engine", version="1"')
    elif word == "BEGIN":
        move()
    elif word == "TURN":
        x, y = line.split()[1].split(",")
        taken.add((int(x), int(y)))
        move()
    elif word == "BOARD":
        in_board = True
    elif word == "END":
        break
