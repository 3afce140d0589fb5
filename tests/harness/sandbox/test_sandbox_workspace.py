"""Case folders: root never follows anything the sandbox user can touch (issue 12).

The race test runs a process as the sandbox user that keeps swapping the files of new case
folders for links to a root-owned file, while the grader makes case folders; the file must
keep its owner. Removal is tested on trees holding links out of the tree, fifos and a chain of
folders far deeper than Python's recursion limit.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from harness.sandbox import Sandbox
from harness.sandbox.removal import remove_path
from harness.sandbox.users import SANDBOX_USER_ENV
from harness.wire.protocol import value_of

pytestmark = pytest.mark.slow

FILES = 20  # many files per folder: a wide window for a race, had there been one
FOLDERS = 40

SWAPPER = textwrap.dedent("""
    import os, select, sys, time
    root, target, files = sys.argv[1], sys.argv[2], int(sys.argv[3])
    deadline, number, swaps = time.monotonic() + 60, 1, 0
    print("ready", flush=True)
    while time.monotonic() < deadline and not select.select([sys.stdin], [], [], 0)[0]:
        folder = os.path.join(root, f"case-{number:04d}")
        try:  # the moment the folder is ours, swap its files (the last one made first)
            if os.stat(folder).st_uid != os.getuid():
                continue
        except OSError:
            continue
        for index in reversed(range(files)):
            path = os.path.join(folder, f"f{index}.py")
            try:
                os.unlink(path)
                os.symlink(target, path)
                swaps += 1
            except OSError:
                pass
        print(f"swapped in {folder}", flush=True)
        number += 1
    print(swaps)
""")


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    if os.geteuid() != 0:
        pytest.skip("needs root: only then are case folders given to another user")
    monkeypatch.delenv(SANDBOX_USER_ENV, raising=False)
    files = {}
    for number in range(FILES):
        files[f"f{number}.py"] = tmp_path / f"f{number}.py"
        files[f"f{number}.py"].write_text(f"X = {number}\n")
    with Sandbox("f0", files) as box:
        if box.isolation.uid in (None, 0):
            pytest.skip("needs a separate sandbox user")
        yield box


def test_swapping_files_for_links_never_makes_root_chown_a_host_file(sandbox, tmp_path):
    target = tmp_path / "host-file"
    target.write_text("root's")
    os.chmod(tmp_path, 0o755)
    swapper = subprocess.Popen(  # runs until its stdin closes
        [sandbox.isolation.interpreter, "-I", "-c", SWAPPER, str(sandbox.workspace.root),
         str(target), str(FILES)], user=sandbox.isolation.uid, group=sandbox.isolation.gid,
        extra_groups=[], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd="/")
    assert swapper.stdout is not None and swapper.stdout.readline() == "ready\n"
    try:
        folders = []
        for _ in range(FOLDERS):
            folders.append(sandbox.workspace.new_case_folder())
            time.sleep(0.005)  # pacing only: lets the swapper keep up with new folders
        for _ in range(FOLDERS // 3):  # replaced while the swapper works in it
            folders.append(sandbox.workspace.new_case_folder("case"))
        assert swapper.stdout.readline().startswith("swapped in")  # it got at least one
        for folder in folders:
            sandbox.workspace.discard(folder)
    finally:
        swaps = swapper.communicate(timeout=90)[0].split()[-1]
    assert int(swaps) > 0  # it swapped files in the folders once they were its own
    assert os.stat(target).st_uid == 0 and target.read_text() == "root's"


def test_case_folders_are_private_to_their_user(sandbox):
    folder = sandbox.workspace.new_case_folder()
    info = os.lstat(folder)
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (sandbox.isolation.uid, 0o700)
    for path in folder.iterdir():
        info = os.lstat(path)
        assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (sandbox.isolation.uid, 0o600)
    assert not stat.S_IMODE(os.lstat(sandbox.workspace.root).st_mode) & 0o044  # not listable


def test_removal_follows_no_link_out_of_the_tree(tmp_path):
    outside = tmp_path / "outside"
    (outside / "inner").mkdir(parents=True)
    (outside / "keep.txt").write_text("keep")
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "to-folder").symlink_to(outside)
    (tree / "to-file").symlink_to(outside / "keep.txt")
    os.mkfifo(tree / "sub" / "fifo")
    assert remove_path(str(tree))
    assert not tree.exists()
    assert (outside / "keep.txt").read_text() == "keep" and (outside / "inner").is_dir()


def test_removal_of_a_tree_deeper_than_the_recursion_limit(tmp_path):
    depth = sys.getrecursionlimit() + 200
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    os.mkdir("deep", dir_fd=fd)
    current = os.open("deep", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    for _ in range(depth):
        os.mkdir("d", dir_fd=current)
        following = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=current)
        os.close(current)
        current = following
    os.close(current)
    assert remove_path(str(tmp_path / "deep"))
    assert not (tmp_path / "deep").exists()


def test_a_tree_deeper_than_the_recursion_limit_left_by_a_case_is_removed(tmp_path):
    """A case that leaves a chain of folders deeper than Python's recursion limit in its folder
    (which a recursive removal cannot remove) does not stop the next case from getting a fresh
    folder, and the sandbox leaves nothing behind."""
    source = tmp_path / "student.py"
    source.write_text("import os\n"
                      "def plant():\n"
                      "    for _ in range(1100):\n"
                      "        os.mkdir('a')\n"
                      "        os.chdir('a')\n"
                      "    return len(os.listdir('/'.join(['..'] * 1100)))\n")
    with Sandbox("student", {"student.py": Path(source)}) as box:
        for _ in range(2):
            reply = box.run_examples(["plant()"], timeout=20).reply
            assert reply is not None and value_of(reply.observations[0].value) == 2  # fresh
        root = box.workspace.root
    assert not root.exists()


# --- roots left by a grader that was killed -----------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from harness.sandbox import workspace
    from harness.sandbox.levels import Isolation, Level
    from harness.sandbox.sized_mount import DiskBound
    workspace.scratch_base = lambda: sys.argv[1]
    disk = DiskBound(8, 64) if len(sys.argv) > 2 else None
    space = workspace.Workspace({"a.py": workspace.WORKER_SOURCE}, Isolation(Level.PROCESS),
                                disk)
    space.new_case_folder()
    print(space.root.name, flush=True)
    time.sleep(600)
""")


def _held_root(base: Path, *sized: str) -> tuple[subprocess.Popen[str], Path]:
    """A grader process holding a workspace in ``base`` (named on its first line of output);
    with ``sized``, its root is a sized mount."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(base), *sized], text=True,
                              stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parents[3])
    assert holder.stdout is not None
    name = holder.stdout.readline().strip()
    assert name.startswith("gamegrader-scratch-"), name
    return holder, base / name


def _age(path: Path, seconds: float) -> None:
    past = time.time() - seconds
    os.utime(path, (past, past))


def test_the_root_of_a_killed_grader_is_removed_by_the_next_one(tmp_path, monkeypatch):
    from harness.sandbox import workspace
    from harness.sandbox.levels import Isolation, Level
    holder, root = _held_root(tmp_path)
    try:
        _age(root, 2 * workspace.UNCLAIMED_SECONDS)
        assert workspace.sweep_abandoned_roots(str(tmp_path)) == []  # alive: kept
        assert (root / "case-0001" / "a.py").is_file()
    finally:
        holder.kill()
        holder.wait()
    # killed outright: nothing of it ran to clean up, and the next grader's first workspace
    # removes the root
    monkeypatch.setattr(workspace, "scratch_base", lambda: str(tmp_path))
    monkeypatch.setattr(workspace, "_swept_by", None)
    _age(root, 2 * workspace.UNCLAIMED_SECONDS)
    space = workspace.Workspace({}, Isolation(Level.PROCESS))
    try:
        assert not root.exists()
        assert space.root.exists()
    finally:
        space.close()
    assert not space.root.exists()


def _mounted(path: Path) -> bool:
    return any(line.split()[4] == str(path)
               for line in Path("/proc/self/mountinfo").read_text().splitlines())


@pytest.mark.skipif(os.geteuid() != 0, reason="only root mounts the sized case folders")
def test_the_sized_mount_of_a_killed_grader_is_detached_and_removed(tmp_path):
    """The case folders' tmpfs is mounted in the host's namespace, so it outlives a grader
    killed outright; the next grader's sweep detaches it before removing the root."""
    from harness.sandbox import workspace
    holder, root = _held_root(tmp_path, "sized")
    holder.kill()
    holder.wait()
    assert _mounted(root) and (root / "case-0001" / "a.py").is_file()
    _age(root, 2 * workspace.UNCLAIMED_SECONDS)
    assert workspace.sweep_abandoned_roots(str(tmp_path)) == [root.name]
    assert not _mounted(root) and not root.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root mounts the sized case folders")
def test_a_sized_workspace_bounds_bytes_and_files_and_leaves_no_mount(tmp_path, monkeypatch):
    from harness.sandbox import workspace
    from harness.sandbox.levels import Isolation, Level
    from harness.sandbox.sized_mount import DiskBound
    monkeypatch.setattr(workspace, "scratch_base", lambda: str(tmp_path))
    space = workspace.Workspace({"a.py": workspace.WORKER_SOURCE}, Isolation(Level.PROCESS),
                                DiskBound(4, 32))
    try:
        assert space.disk_in_force == DiskBound(4, 32) and _mounted(space.root)
        folder = space.new_case_folder("case")
        with pytest.raises(OSError, match="No space left"):
            with open(folder / "big", "wb") as handle:
                for _ in range(64):
                    handle.write(b"\1" * (1024 * 1024))
        assert space.full()
        space.discard(folder)  # removed at once: the room is there for the next case
        assert not space.full()
        folder = space.new_case_folder("case")
        with pytest.raises(OSError, match="No space left"):
            for number in range(1000):
                (folder / str(number)).touch()
        assert space.full()
    finally:
        space.close()
    assert not _mounted(space.root) and not space.root.exists()


def test_a_young_unlocked_root_a_link_and_other_folders_are_left_alone(tmp_path):
    from harness.sandbox import workspace
    young = tmp_path / "gamegrader-scratch-young"  # its maker may not have locked it yet
    young.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("x")
    link = tmp_path / "gamegrader-scratch-link"
    link.symlink_to(outside)
    other = tmp_path / "gamegrader-batch-1"  # not a scratch root (in a shared temp folder)
    other.mkdir()
    for path in (outside, other):
        _age(path, 2 * workspace.UNCLAIMED_SECONDS)
    old = tmp_path / "gamegrader-scratch-old"
    old.mkdir()
    (old / "case-0001").mkdir()
    _age(old, 2 * workspace.UNCLAIMED_SECONDS)
    assert workspace.sweep_abandoned_roots(str(tmp_path)) == ["gamegrader-scratch-old"]
    assert young.is_dir() and link.is_symlink() and (outside / "keep.txt").is_file()
    assert other.is_dir() and not old.exists()
