"""One folder per assignment: its spec and cases, its plug-in code (generators, checkers,
pictures, kit, rules), ``solution/``, ``template/``, mutants, its ``tests/`` and its page
``README.md`` (docs/adding_an_assignment.md).

An ``assignments/`` folder elsewhere on the import path adds its assignments to this package
(the connect-four fixture's, under ``GAMEGRADER_ROOT`` and ``PYTHONPATH``): a new assignment is
one new folder, wherever it is kept.
"""
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)
