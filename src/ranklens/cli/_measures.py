import click
@click.command("measures")
def measures_cmd() -> None:
    """x"""
