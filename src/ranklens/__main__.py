"""``python -m ranklens``: the ranklens command.

Through the same guarded entry point as the installed command (``_ranklens_entry``). Python
imports the package before this module; ``ranklens/__init__.py`` installs the entry point's
quiet Ctrl-C first thing when run this way, so an interrupt during start-up ends the command
with one line and status 130, not a traceback.
"""

from _ranklens_entry import run

if __name__ == "__main__":
    run()
