"""Allowed packages wherever the grader is deployed: the spec field, the install folder, the
Gradescope zip's setup.sh, and the student package's checker."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Iterator

import jsonschema
import pytest
from workflow_support import ASSIGNMENT, SOLUTION, gamegrader

from harness.records.spec import AllowedPackage
from harness.sandbox.packages import MANIFEST, folder_name, installed_folder, packages_folder
from harness.spec import SpecError, load_assignment
from harness.spec.assignments import allowed_package
from harness.spec.schema import ALLOWED_PACKAGE

pytestmark = pytest.mark.slow

NUMPY_DOMINOES = "import numpy as np\n" + SOLUTION.read_text(encoding="utf-8")


@pytest.fixture
def packages_root() -> Iterator[Path]:
    """An empty GAMEGRADER_PACKAGES a sandbox user can reach (pytest's tmp_path is private, and
    at the namespaced levels the sandbox has its own /tmp)."""
    base = None
    if os.geteuid() == 0:
        base = Path("/var/lib/gamegrader-tests")
        base.mkdir(mode=0o755, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="gg-packages-test-", dir=base))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# --- the spec field -----------------------------------------------------------------------------

@pytest.mark.parametrize("entry", ["numpy", "numpy>=1.22", "numpy >= 1.22, < 3", "scikit-learn",
                                   {"package": "scikit-learn>=1.3", "module": "sklearn"}])
def test_allowed_packages_accepts_names_versions_and_a_module_name(entry):
    jsonschema.validate(entry, ALLOWED_PACKAGE)


@pytest.mark.parametrize("entry", ["--index-url=http://evil/", "numpy; os_name == 'nt'",
                                   "numpy[extra]", "git+https://example.com/numpy.git",
                                   "./numpy", "", {"package": "numpy"},
                                   {"package": "numpy", "module": "numpy.core"}])
def test_allowed_packages_refuses_what_pip_should_not_be_handed(entry):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(entry, ALLOWED_PACKAGE)


def test_the_module_students_import_defaults_to_the_package_name():
    assert allowed_package("numpy>=1.22") == AllowedPackage("numpy>=1.22", "numpy")
    assert allowed_package({"package": "scikit-learn", "module": "sklearn"}) == \
        AllowedPackage("scikit-learn", "sklearn")


def test_a_bad_entry_is_named_by_file_and_field(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "assignment.yaml").write_text(
        "name: demo\ntitle: Demo\nmodule: demo\nallowed_packages: [numpy, '--pre']\n")
    with pytest.raises(SpecError) as error:
        load_assignment(folder)
    assert "allowed_packages.1" in str(error.value) and "assignment.yaml" in str(error.value)


def test_without_the_field_only_the_standard_library_is_allowed(tmp_path):
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "assignment.yaml").write_text("name: demo\ntitle: Demo\nmodule: demo\n")
    assert load_assignment(folder).allowed_packages == ()


# --- the folder ---------------------------------------------------------------------------------

def test_one_folder_per_exact_set_of_requirements():
    assert folder_name(["numpy"]) == folder_name([" numpy "]) == folder_name(["numpy", "numpy"])
    assert folder_name(["numpy"]).startswith("numpy-")
    assert len({folder_name(r) for r in (["numpy"], ["numpy>=2"], ["numpy", "scipy"])}) == 3
    assert packages_folder(sys.executable, []) is None


def test_a_folder_without_its_manifest_or_for_other_requirements_is_not_used(packages_root,
                                                                              monkeypatch):
    monkeypatch.setenv("GAMEGRADER_PACKAGES", str(packages_root))
    folder = packages_folder(sys.executable, ["numpy"])
    assert folder is not None and packages_root in folder.parents
    folder.mkdir(parents=True)
    assert installed_folder(sys.executable, ["numpy"]) is None  # half-installed
    (folder / MANIFEST).write_text(json.dumps({"requirements": ["scipy"]}))
    assert installed_folder(sys.executable, ["numpy"]) is None
    (folder / MANIFEST).write_text(json.dumps({"requirements": ["numpy"]}))
    assert installed_folder(sys.executable, ["numpy"]) == folder


# --- deployments ---------------------------------------------------------------------------------

def test_the_zips_setup_sh_installs_numpy_where_the_graded_sandbox_imports_it(tmp_path,
                                                                              packages_root):
    """Gradescope's order: unzip into source/, setup.sh as root, then run_autograder."""
    out = tmp_path / "autograder.zip"
    assert gamegrader("build", "--assignment", ASSIGNMENT, "--out", str(out)).returncode == 0
    root = tmp_path / "autograder"
    zipfile.ZipFile(out).extractall(root / "source")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "GAMEGRADER_VENV": str(root / "venv"),
           "GAMEGRADER_PACKAGES": str(packages_root)}
    env.pop("GAMEGRADER_ROOT", None)
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, text=True,
                           capture_output=True, timeout=900, cwd=tmp_path)
    assert setup.returncode == 0, setup.stderr[-3000:]
    manifests = list(packages_root.glob(f"*/numpy-*/{MANIFEST}"))
    assert len(manifests) >= 1 and (manifests[0].parent / "numpy" / "__init__.py").is_file()
    if os.geteuid() == 0:
        assert manifests[0].parent.stat().st_uid == 0
        assert not manifests[0].parent.stat().st_mode & 0o022  # nobody else may write
    # The grader is byte-compiled once, so no run compiles it again.
    assert (root / "source" / "harness" / "__pycache__").is_dir()
    assert list((root / "source" / "assignments" / ASSIGNMENT / "__pycache__").glob("*.pyc"))

    for part in ("submission", "results"):
        (root / part).mkdir()
    (root / "submission" / "adversarial_search.py").write_text(NUMPY_DOMINOES)
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    done = subprocess.run(["bash", str(root / "run_autograder")], env=env, text=True,
                          capture_output=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    document = json.loads((root / "results" / "results.json").read_text())
    assert document["score"] == 40, document["output"]


def test_the_student_package_says_what_may_be_imported_and_its_first_check_installs_it(
        tmp_path, packages_root):
    out = tmp_path / "student.zip"
    assert gamegrader("build", "--assignment", ASSIGNMENT, "--out", str(out),
                      "--student").returncode == 0
    folder = tmp_path / "student"
    zipfile.ZipFile(out).extractall(folder)
    assert "Imports: Python's standard library plus numpy." in (folder / "README.md").read_text()
    submission = tmp_path / "mine" / "adversarial_search.py"
    submission.parent.mkdir()
    submission.write_text(NUMPY_DOMINOES)
    checked = gamegrader("check", str(submission), cwd=folder,
                         env={"GAMEGRADER_PACKAGES": str(packages_root)})
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert "Installing the packages this course allows (numpy)" in checked.stderr
    assert "Total on the cases run here: 8/8 points" in checked.stdout
    again = gamegrader("check", str(submission), cwd=folder,
                       env={"GAMEGRADER_PACKAGES": str(packages_root)})
    assert "Installing" not in again.stderr and "8/8 points" in again.stdout


def test_only_files_that_import_an_allowed_package_have_it_imported_ahead(tmp_path):
    """The zygote imports numpy once for files that use it; other files pay nothing."""
    from harness.sandbox.packages import imported_packages
    plain, user, nested = (tmp_path / name for name in ("plain.py", "user.py", "nested.py"))
    plain.write_text("import math\n# numpy would be faster here\nx = 'import numpy'\n")
    user.write_text("import math\nimport numpy as np\n")
    nested.write_text("def f():\n    from numpy.linalg import norm\n    return norm\n")
    assert imported_packages({"plain.py": plain}, ["numpy"]) == []
    assert imported_packages({"plain.py": plain, "user.py": user}, ["numpy"]) == ["numpy"]
    assert imported_packages({"nested.py": nested}, ["numpy", "scipy"]) == ["numpy"]
    link = tmp_path / "link.py"
    link.symlink_to(user)
    assert imported_packages({"link.py": link}, ["numpy"]) == []  # never followed
    # A student's own numpy.py is what their import finds: nothing is imported ahead of it.
    assert imported_packages({"user.py": user, "numpy.py": plain}, ["numpy"]) == []


def test_gradescope_run_warns_the_instructor_when_the_packages_are_missing(tmp_path,
                                                                           packages_root):
    root = tmp_path / "autograder"
    for part in ("submission", "results", "source"):
        (root / part).mkdir(parents=True)
    (root / "submission" / "adversarial_search.py").write_text(NUMPY_DOMINOES)
    done = gamegrader("gradescope", "--root", str(root), "--assignment", ASSIGNMENT,
                      env={"GAMEGRADER_PACKAGES": str(packages_root)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "warning: the allowed packages (numpy) are not installed for the sandbox" in \
        done.stderr
    document = json.loads((root / "results" / "results.json").read_text())
    assert "numpy, which this course allows, but it is not installed on this grader" in \
        document["output"]
