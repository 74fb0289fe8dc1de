"""``python -m ranklens``: the ranklens command.

Through the same guarded entry point as the installed command (``_ranklens_entry``): the
command line is imported inside its Ctrl-C guard, so an interrupt during start-up ends the
command with one line and status 130, not a traceback. ``import ranklens`` itself, which
Python runs before this module, imports nothing but the error classes.
"""

from _ranklens_entry import run

if __name__ == "__main__":
    run()
