import click
@click.command("demo")
def demo() -> None:
    """Evaluate two systems on a small bundled data set."""
