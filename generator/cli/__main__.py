"""``python -m generator.cli``: the ``pnpgen`` command."""
from generator.cli import main

main()
