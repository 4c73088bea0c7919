"""Load: YAML files of a game folder into plain data that remembers lines."""
