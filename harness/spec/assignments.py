"""Assignments: ``assignments/NAME/assignment.yaml`` read into an ``Assignment`` (its API, limits,
allowed packages and the reference's recorded times), and found by name."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from harness.paths import TEMPLATE, project_root, specs_root
from harness.records.limits import Limits
from harness.records.policy import PolicyError, parse_policy
from harness.records.spec import DEFAULT_GRADING_PYTHON, AllowedPackage, ApiEntry, Assignment
from harness.spec.errors import SpecError
from harness.spec.kit_key import refuse_old_kit_keys
from harness.spec.yaml_files import check_schema, read_yaml

DEFAULT_BUDGET = 480.0
REFERENCE_TIMES = "reference_times.yaml"


OPTIONAL = "optional "
"""How an API entry the handout only suggests begins (``optional DominoesGame.copy(self)``)."""


def parse_api_entry(text: str) -> ApiEntry:
    """Parse ``Name.method(self, a, b=1)`` into an ApiEntry; ``f(a) -> Class`` names the
    handout's class the function makes, and a leading ``optional`` marks a suggested name.

    Raises:
        ValueError: the text is not a dotted name followed by a Python parameter list (and an
            optional ``-> ClassName``).
    """
    optional = text.startswith(OPTIONAL)
    signature, arrow, returns = text.removeprefix(OPTIONAL).partition("->")
    name, bracket, rest = signature.strip().partition("(")
    name, returns = name.strip(), returns.strip()
    if (not bracket or not rest.endswith(")") or not all(p.isidentifier() for p in name.split("."))
            or (arrow and not returns.isidentifier())):
        raise ValueError(f"expected 'name(parameters)', optionally '-> Class', got {text!r}")
    function = ast.parse(f"def _({rest[:-1]}): pass").body[0]
    assert isinstance(function, ast.FunctionDef)
    params = [a.arg for a in function.args.posonlyargs + function.args.args]
    return ApiEntry(name, tuple(params), len(params) - len(function.args.defaults),
                    signature.strip(), returns=returns, optional=optional)


def allowed_package(entry: str | dict[str, str]) -> AllowedPackage:
    """An ``allowed_packages`` entry (already schema-checked): a requirement whose name is also
    the module students import, or ``{package: REQUIREMENT, module: NAME}``."""
    if isinstance(entry, dict):
        return AllowedPackage(" ".join(entry["package"].split()), entry["module"])
    name = re.split(r"[\s=!~<>]", entry, maxsplit=1)[0]
    return AllowedPackage(" ".join(entry.split()), name.replace("-", "_").replace(".", "_"))


def load_reference_times(folder: Path) -> dict[str, float]:
    """The reference's recorded time per case id (nominal seconds); none if the file is absent.

    Raises:
        SpecError: the file is malformed.
    """
    path = folder / REFERENCE_TIMES
    if not path.is_file():
        return {}
    data = read_yaml(path)
    check_schema(path, data, "reference_times")
    return {str(case): float(seconds) for case, seconds in data["seconds"].items()}


OWN_KEYS = ("total_points", "ladder")
"""What a variant never takes from the assignment it varies: both state the whole of its own
grading (a variant with fewer cases, or no staff ladder, leaves them out)."""


def _spec_data(path: Path) -> dict[str, Any]:
    """``path`` read and schema-checked.

    Raises:
        SpecError: the file is missing or invalid.
    """
    if not path.is_file():
        raise SpecError(path, "is missing")
    data = read_yaml(path)
    refuse_old_kit_keys(path, data)
    check_schema(path, data, "assignment")
    return dict(data)


def _variant_base(folder: Path, data: dict[str, Any]) -> tuple[dict[str, Any], Path | None]:
    """For a variant (``variant_of: NAME``), the data of the assignment it varies with the
    variant's own keys over it, and that assignment's folder; else ``data`` and None. A variant
    folder holds only what differs: its keys, template files, solution and mutants; its cases
    are the varied assignment's unless it has a ``cases/`` folder of its own."""
    base_name = data.get("variant_of")
    if base_name is None:
        return data, None
    path = folder / "assignment.yaml"
    base_folder = folder.parent / base_name
    base = _spec_data(base_folder / "assignment.yaml")
    if "variant_of" in base:
        raise SpecError(path, f"{base_name!r} is itself a variant", field="variant_of")
    inherited = {key: value for key, value in base.items() if key not in OWN_KEYS}
    return {**inherited, **data}, base_folder


def load_assignment(folder: Path) -> Assignment:
    """Read ``folder/assignment.yaml`` (with the assignment it varies, for a variant).

    Raises:
        SpecError: the file is missing or invalid.
    """
    path = folder / "assignment.yaml"
    data, base_folder = _variant_base(folder, _spec_data(path))
    if data["name"] != folder.name:
        raise SpecError(path, f"name {data['name']!r} differs from its folder {folder.name!r}",
                        field="name")
    api = []
    for index, text in enumerate(data.get("api", [])):
        try:
            api.append(parse_api_entry(text))
        except (ValueError, SyntaxError) as exc:
            raise SpecError(path, str(exc), field=f"api[{index}]") from exc
    root = project_root()
    templates = [folder / TEMPLATE, *([base_folder / TEMPLATE] if base_folder else [])]
    support = tuple(next((t / name for t in templates if (t / name).is_file()),
                         templates[0] / name) for name in data.get("support_files", []))
    probes = tuple(root / name for name in data.get("probe_files", []))
    for listed, kind in ((support, "support_files"), (probes, "probe_files")):
        for file in listed:
            if not file.is_file():
                raise SpecError(path, f"{file} does not exist", field=kind)
    resolver = data.get("name_resolver")
    if resolver is not None and f"{resolver}.py" not in {probe.name for probe in probes}:
        raise SpecError(path, f"{resolver}.py is not one of the probe_files",
                        field="name_resolver")
    try:
        policy = parse_policy(data.get("policy"))
    except PolicyError as exc:
        raise SpecError(path, str(exc), field=exc.field) from exc
    return Assignment(
        name=data["name"], title=data["title"], folder=folder, module=data["module"],
        cases_folder=(base_folder / "cases" if base_folder and not (folder / "cases").is_dir()
                      else folder / "cases"), variant_of=base_folder,
        submission_files=tuple(data.get("submission_files", [f"{data['module']}.py"])),
        support_files=support, probe_files=probes, api=tuple(api),
        limits=Limits(**data.get("limits", {})),
        budget=float(data.get("budget_seconds", DEFAULT_BUDGET)),
        total_points=data.get("total_points"), kit=str(data.get("kit", "")),
        ladder=data.get("ladder") or {},
        name_resolver=resolver,
        allowed_packages=tuple(allowed_package(e) for e in data.get("allowed_packages", [])),
        student_package=tuple(data.get("student_package", [])),
        grading_python=str(data.get("grading_python", DEFAULT_GRADING_PYTHON)),
        gradescope_only_because=str(data.get("gradescope_only_because", "")),
        reference_times=load_reference_times(folder), policy=policy)


def list_assignments(root: Path | None = None) -> list[str]:
    """Names of every folder of ``assignments`` that holds an assignment.yaml, sorted."""
    base = root or specs_root()
    return sorted(p.parent.name for p in base.glob("*/assignment.yaml"))


def find_assignment(name: str, root: Path | None = None) -> Assignment:
    """Load an assignment by its short name.

    Raises:
        SpecError: no such assignment, or its assignment.yaml is invalid.
    """
    base = root or specs_root()
    if not (base / name / "assignment.yaml").is_file():
        known = ", ".join(list_assignments(base)) or "none"
        raise SpecError(base / name, f"no assignment named {name!r} (known: {known})")
    return load_assignment(base / name)
