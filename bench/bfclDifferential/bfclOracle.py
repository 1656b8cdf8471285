"""BFCL's own AST checker as an outside oracle for the differential harness (bench/bfclDifferential).

Reads JSON Lines on stdin: question lines {"case", "category", "function", "ground_truth"} and item lines
{"key", "case", "output"} (an item may also carry the question fields itself), where "output" is the model's calls as
JSON text ('[{"name": ..., "arguments": {...}}]', floats written as floats) or null for "no call decoded"; prints
{"key", "valid", "error_type"} per item ({"key", "exception"} where BFCL's code raised).

BFCL is not part of this project: the checker is imported from $BFCL_CHECKER_DIR (the
berkeley-function-call-leaderboard folder of github.com/ShishirPatil/gorilla, Apache-2.0). Only
bfcl_eval.eval_checker.ast_eval.ast_checker is used; its model_config import (every model handler) is replaced by a
stub whose models keep dots in function names (no OpenAI-style `.` -> `_` rewrite), as our outputs do.
"""
import json
import os
import sys
import types

root = os.environ.get("BFCL_CHECKER_DIR")
if not root:
    sys.exit("BFCL_CHECKER_DIR must point at gorilla's berkeley-function-call-leaderboard folder")
sys.path.insert(0, root)

stub = types.ModuleType("bfcl_eval.constants.model_config")


class _Config:
    underscore_to_dot = False


class _Mapping(dict):
    def __missing__(self, key):
        return _Config()


stub.MODEL_CONFIG_MAPPING = _Mapping()
sys.modules["bfcl_eval.constants.model_config"] = stub

from bfcl_eval.constants.enums import Language  # noqa: E402
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker  # noqa: E402


def language_of(category):
    if "javascript" in category:
        return Language.JAVASCRIPT
    if "java" in category:
        return Language.JAVA
    return Language.PYTHON


def judge(item):
    category = item["category"]
    text = item["output"]
    calls = None
    if text is not None:
        calls = [{c["name"]: c["arguments"]} for c in json.loads(text)]
    if "irrelevance" in category:
        valid = calls is None or len(calls) == 0
        return {"valid": valid, "error_type": "valid" if valid else "irrelevance_error:decoder_success"}
    if calls is None:
        return {"valid": False, "error_type": "ast_decoder:decoder_failed"}
    result = ast_checker(item["function"], calls, item["ground_truth"], language_of(category), category, "oracle")
    return {"valid": bool(result["valid"]), "error_type": result.get("error_type", "valid") if not result["valid"] else "valid"}


cases = {}
for line in sys.stdin:
    if not line.strip():
        continue
    item = json.loads(line)
    if "key" not in item:
        cases[item["case"]] = item
        continue
    if "case" in item and "function" not in item:
        item = {**cases[item["case"]], **item}
    try:
        verdict = judge(item)
    except Exception as exc:  # BFCL's run would stop here; the harness reports it
        verdict = {"exception": f"{type(exc).__name__}: {exc}"}
    verdict["key"] = item["key"]
    sys.stdout.write(json.dumps(verdict) + "\n")
