import click
@click.command("evaluate")
def evaluate_cmd() -> None:
    """x"""
