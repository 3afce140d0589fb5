"""Tell code written for Python 2 that it is Python 2.

Many course starters and online examples still show Python 2 (``import Queue``, ``print x``,
``xrange``). Under the grader's Python 3 such code fails with errors that read as something
else: "Queue is not allowed", "invalid syntax", "name 'xrange' is not defined". This module
recognises the common Python 2 forms in an error and says what it is and what Python 3 calls
it. It reads only the error's type, message and place; "" when nothing points to Python 2.
"""
from __future__ import annotations

import re

from harness.records.observations import ErrorInfo

MODULES = {
    "Queue": "queue", "ConfigParser": "configparser", "cPickle": "pickle",
    "StringIO": "io (io.StringIO)", "cStringIO": "io (io.StringIO)", "urllib2": "urllib.request",
    "urlparse": "urllib.parse", "HTMLParser": "html.parser", "htmlentitydefs": "html.entities",
    "Tkinter": "tkinter", "tkMessageBox": "tkinter.messagebox", "__builtin__": "builtins",
    "SocketServer": "socketserver", "httplib": "http.client", "copy_reg": "copyreg",
    "commands": "subprocess", "thread": "_thread", "repr": "reprlib",
    "UserDict": "collections (collections.UserDict)",
    "UserList": "collections (collections.UserList)",
    "cookielib": "http.cookiejar", "Cookie": "http.cookies", "BaseHTTPServer": "http.server",
    "SimpleHTTPServer": "http.server", "xmlrpclib": "xmlrpc.client", "anydbm": "dbm",
    "robotparser": "urllib.robotparser", "sets": "the built-in set", "exceptions": "builtins",
    "md5": "hashlib", "sha": "hashlib",
}
"""Python 2 standard-library modules that Python 3 renamed or dropped, and where they went."""

NAMES = {
    "xrange": "range", "raw_input": "input", "unicode": "str", "basestring": "str",
    "long": "int", "unichr": "chr", "reduce": "functools.reduce",
    "execfile": "exec(open(...).read())",
    "cmp": "a key function (functools.cmp_to_key)", "intern": "sys.intern",
}
"""Python 2 built-in names that Python 3 removed, and what to use instead."""

METHODS = {
    "iteritems": "items()", "iterkeys": "keys()", "itervalues": "values()",
    "has_key": "the in operator (key in d)", "next": "the built-in next(iterator)",
}
"""Methods of Python 2's dicts and iterators that Python 3 removed."""

SYNTAX = (
    (re.compile(r"Missing parentheses in call to 'print'"),
     "print x is written print(x) in Python 3"),
    (re.compile(r"Missing parentheses in call to 'exec'"),
     "exec code is written exec(code) in Python 3"),
    (re.compile(r"multiple exception types must be parenthesized"),
     "except E, e: is written except E as e: in Python 3"),
    (re.compile(r"leading zeros in decimal integer literals"),
     "the octal number 0777 is written 0o777 in Python 3"),
)

_MISSING = re.compile(r"No module named '([A-Za-z_][\w.]{0,200})'")
_NAME = re.compile(r"name '(\w{1,100})' is not defined")
_METHOD = re.compile(r"'(dict|dict_items|generator|list_iterator|[\w.]{1,100})' object has no "
                     r"attribute '(\w{1,100})'")


def _said(what: str, python: str) -> str:
    version = f"Python {python}" if python else "Python 3"
    return (f"your code is written for Python 2: {what}. The grader runs {version}: port "
            "your code to Python 3")


def python2_note(error: ErrorInfo, python: str = "") -> str:
    """What in ``error`` is Python 2 and its Python 3 form, or "" (``python``: the grader's
    version, e.g. "3.10", named when known)."""
    message = error.message.strip()
    if error.type == "ModuleNotFoundError":
        found = _MISSING.fullmatch(message)
        top = found.group(1).split(".")[0] if found else ""
        if top in MODULES:
            return _said(f"it imports {top}, which is {MODULES[top]} in Python 3", python)
    elif error.type in ("SyntaxError", "IndentationError", "TabError"):
        for pattern, fix in SYNTAX:
            if pattern.search(message):
                return _said(fix, python)
    elif error.type in ("NameError", "UnboundLocalError"):
        found = _NAME.search(message)
        if found and found.group(1) in NAMES:
            name = found.group(1)
            return _said(f"it uses {name}, which is {NAMES[name]} in Python 3", python)
    elif error.type == "AttributeError":
        found = _METHOD.search(message)
        if found and found.group(2) in METHODS and (found.group(2) != "next"
                                                    or "iterator" in found.group(1)
                                                    or found.group(1) == "generator"):
            method = found.group(2)
            return _said(f"it calls .{method}(), which is {METHODS[method]} in Python 3", python)
    return ""
