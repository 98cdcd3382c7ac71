"""The built-in puzzle plugins. Each subpackage is a separate plugin, found through the
``puzzle_engine`` entry points like a third-party one; none imports another."""
