"""The project as a whole: lint, the wheel, the lowest versions, interpreters, the import graph."""
