"""``python -m ranklens``: the ranklens command."""

from ranklens.cli import run

if __name__ == "__main__":
    run()
