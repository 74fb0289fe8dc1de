"""``python -m ranklens``: the ranklens command."""

from ranklens.cli import main

if __name__ == "__main__":
    main()
