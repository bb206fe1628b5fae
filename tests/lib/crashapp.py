#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An SQLite application for sbdctl crash-test (tests/sbdctl/crash-test-sqlite.sh).

  crashapp.py run DIR SYNCHRONOUS JOURNAL_MODE N
      makes DIR/app.db and commits N numbered transactions in it, one row
      each; after each COMMIT returns, `sbdctl mark "$SBD_DISK" I`: the
      application was told transaction I is durable.
  crashapp.py check DIR
      opens DIR/app.db as the application would after a power loss (SQLite
      rolls back a hot journal, replays a WAL), runs PRAGMA integrity_check,
      and requires every row up to the transaction in $SBD_MARK.  Exit 1
      with one line saying what is wrong.
"""
import os
import sqlite3
import subprocess
import sys

PAYLOAD = 3000  # bytes per row: each transaction dirties a page or more


def run(d, sync, journal, n):
    sbdctl = os.environ.get("SBDCTL", "sbdctl")
    disk = os.environ["SBD_DISK"]
    con = sqlite3.connect(os.path.join(d, "app.db"), isolation_level=None)
    mode = con.execute("PRAGMA journal_mode=%s" % journal).fetchone()[0]
    if mode.lower() != journal.lower():
        sys.exit("journal_mode=%s did not take: %s" % (journal, mode))
    con.execute("PRAGMA synchronous=%s" % sync)
    con.execute("CREATE TABLE t (i INTEGER PRIMARY KEY, v BLOB)")
    for i in range(1, n + 1):
        con.execute("BEGIN")
        con.execute("INSERT INTO t VALUES (?, ?)", (i, bytes([i % 256]) * PAYLOAD))
        con.execute("COMMIT")
        subprocess.run([sbdctl, "mark", disk, str(i)], check=True)
    con.close()


def check(d):
    mark = int(os.environ.get("SBD_MARK") or 0)
    path = os.path.join(d, "app.db")
    if not os.path.exists(path):
        if mark:
            print("app.db missing, transaction %d was committed" % mark)
            return 1
        return 0
    try:
        con = sqlite3.connect(path, isolation_level=None)
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            print("integrity_check: %s" % ok)
            return 1
        try:
            rows = dict(con.execute("SELECT i, v FROM t"))
        except sqlite3.OperationalError as e:
            if mark:
                print("transaction %d was committed, yet: %s" % (mark, e))
                return 1
            return 0
    except sqlite3.DatabaseError as e:
        print("cannot open app.db: %s" % e)
        return 1
    for i in range(1, mark + 1):
        if rows.get(i) != bytes([i % 256]) * PAYLOAD:
            print("transaction %d missing or wrong (committed up to %d, rows %s)"
                  % (i, mark, sorted(rows)))
            return 1
    return 0


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        return check(sys.argv[2])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
