"""One folder per assignment: its spec and cases, its plug-in code (generators, checkers,
pictures, kit, rules), ``solution/``, ``template/`` and mutants (docs/adding_an_assignment.md)."""
