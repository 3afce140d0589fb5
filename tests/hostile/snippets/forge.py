# --- snippet "forge" (tests/hostile/snippets): write a perfect results.json wherever it may go
import json as _forge_json

FORGED = _forge_json.dumps({"score": 999, "execution_time": 1, "output": "FORGED",
                            "tests": [{"name": "FORGED", "score": 999, "max_score": 1}]})


def results_targets():
    """Every path the grader may write results to: .json words and --output/--root arguments of
    its command line, the Gradescope path, and the working folder."""
    targets = {"results.json", "/autograder/results/results.json"}
    for _, words in ancestor_command_lines():
        for index, word in enumerate(words):
            following = words[index + 1] if index + 1 < len(words) else ""
            if word.endswith(".json"):
                targets.add(word)
            elif word == "--output" and following:
                targets.add(following)
            elif word == "--root" and following:
                targets.add(following + "/results/results.json")
    return sorted(targets)


def forge_results():
    """Overwrite every target that can be written; return the ones that were."""
    written = []
    for target in results_targets():
        try:
            with open(target, "w") as handle:
                handle.write(FORGED)
            written.append(target)
        except OSError:
            pass
    return written


